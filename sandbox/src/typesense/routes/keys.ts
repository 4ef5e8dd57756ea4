import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { sortedJson } from '../json';
import { keyListing } from '../keys';
import type { Router } from '../router';
import { parseJsonBody } from './body';

export function registerKeys(router: Router, engine: Engine): void {
  const keyId = (raw: string | undefined): number => {
    if (raw === undefined || !/^\d+$/.test(raw)) {
      throw new ApiError(404, 'Not found.');
    }
    return Number(raw);
  };
  router
    .add('POST', '/keys', ctx =>
      json(201, sortedJson(engine.keys.create(parseJsonBody(ctx.body))))
    )
    .add('GET', '/keys', () =>
      json(200, sortedJson({ keys: engine.keys.list().map(keyListing) }))
    )
    .add('GET', '/keys/:id', ctx => {
      const key = engine.keys.get(keyId(ctx.params.id));
      if (!key) {
        throw new ApiError(404, 'Not found.');
      }
      return json(200, sortedJson(keyListing(key)));
    })
    .add('DELETE', '/keys/:id', ctx => {
      const key = engine.keys.remove(keyId(ctx.params.id));
      if (!key) {
        throw new ApiError(404, 'Not found.');
      }
      return json(200, sortedJson({ id: key.id }));
    });
}
