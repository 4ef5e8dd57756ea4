/** `/aliases`: names that stand for a collection in every collection, document and search path. */
import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson } from '../json';
import type { Router } from '../router';
import { parseJsonBody } from './body';

export function registerAliases(router: Router, engine: Engine): void {
  const notFound = (): ApiError =>
    new ApiError(404, engine.feat.collectionNotFoundText ?? 'Not Found');
  router
    .add('GET', '/aliases', () =>
      json(
        200,
        sortedJson({
          aliases: [...engine.aliases].map(([name, collection_name]) => ({
            collection_name,
            name
          }))
        })
      )
    )
    .add('GET', '/aliases/:alias', ctx => {
      const name = ctx.params.alias ?? '';
      const target = engine.aliases.get(name);
      if (target === undefined) {
        throw notFound();
      }
      return json(200, sortedJson({ collection_name: target, name }));
    })
    .add('PUT', '/aliases/:alias', ctx => {
      const body = parseJsonBody(ctx.body);
      const name = ctx.params.alias ?? '';
      if (!isPlainObject(body) || body.collection_name === undefined) {
        throw new ApiError(400, 'Parameter `collection_name` is required.');
      }
      if (typeof body.collection_name !== 'string') {
        throw new ApiError(
          400,
          'Parameter `collection_name` must be a string.'
        );
      }
      if (engine.collections.has(name)) {
        throw new ApiError(
          500,
          `Name \`${name}\` conflicts with an existing collection name.`
        );
      }
      engine.aliases.set(name, body.collection_name);
      return json(200, sortedJson({ ...body, name }));
    })
    .add('DELETE', '/aliases/:alias', ctx => {
      const name = ctx.params.alias ?? '';
      const target = engine.aliases.get(name);
      if (target === undefined) {
        throw notFound();
      }
      engine.aliases.delete(name);
      return json(200, sortedJson({ collection_name: target, name }));
    });
}
