import { Collection } from '../collection';
import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { sortedJson } from '../json';
import type { Router } from '../router';
import { collectionInput, parseFields } from '../schema';
import { parseJsonBody } from './body';

export function createCollection(engine: Engine, body: unknown): Collection {
  const parsed = collectionInput.safeParse(body);
  if (!parsed.success) throw new ApiError(400, 'Bad JSON.');
  const input = parsed.data;
  if (input.name === undefined) throw new ApiError(400, 'Parameter `name` is required.');
  if (typeof input.name !== 'string' || input.name === '') {
    throw new ApiError(400, 'Parameter `name` must be a non-empty string.');
  }
  if (engine.collections.has(input.name)) {
    throw new ApiError(409, `A collection with name \`${input.name}\` already exists.`);
  }
  const enableNested = input.enable_nested_fields ?? false;
  const dsf = input.default_sorting_field ?? '';
  const coll = new Collection({
    name: input.name,
    fields: parseFields(input.fields, enableNested, dsf),
    defaultSortingField: dsf,
    enableNestedFields: enableNested,
    tokenSeparators: input.token_separators ?? [],
    symbolsToIndex: input.symbols_to_index ?? [],
    metadata: input.metadata,
    createdAt: Math.floor(Date.now() / 1000),
  });
  engine.collections.set(coll.name, coll);
  return coll;
}

function existing(engine: Engine, name: string): Collection {
  const c = engine.collections.get(name);
  if (!c) throw new ApiError(404, `No collection with name \`${name}\` found.`);
  return c;
}

export function registerCollections(router: Router, engine: Engine): void {
  router
    .add('GET', '/collections', () => {
      const list = [...engine.collections.values()].reverse().map((c) => c.summary(engine.feat));
      return json(200, sortedJson(list));
    })
    .add('POST', '/collections', (ctx) => {
      const coll = createCollection(engine, parseJsonBody(ctx.body));
      return json(201, sortedJson(coll.summary(engine.feat)));
    })
    .add('GET', '/collections/:collection', (ctx) =>
      json(200, sortedJson(existing(engine, ctx.params.collection ?? '').summary(engine.feat))),
    )
    .add('DELETE', '/collections/:collection', (ctx) => {
      const coll = existing(engine, ctx.params.collection ?? '');
      const summary = coll.summary(engine.feat);
      engine.collections.delete(coll.name);
      coll.truncate();
      return json(200, sortedJson(summary));
    });
}
