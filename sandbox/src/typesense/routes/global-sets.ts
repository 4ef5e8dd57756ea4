/**
 * The 30 global set endpoints, one shape for synonym sets and curation sets:
 * `PUT|GET|DELETE <base>/:name` and `PUT|GET|DELETE <base>/:name/items[/:id]`. A change to a
 * set clears the result cache, since any collection may name the set.
 */
import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson, type JsonObject } from '../json';
import type { Router } from '../router';
import { pageOf } from '../synonyms';
import { parseJsonBody } from './body';

export interface ItemSet<T> {
  readonly name: string;
  upsert(item: T): void;
  get(id: string): T | undefined;
  remove(id: string): boolean;
  list(): T[];
  view(): JsonObject;
}

export interface GlobalSetKind<T> {
  base: string;
  sets: Map<string, ItemSet<T>>;
  create(name: string): ItemSet<T>;
  /** Parses one item that carries its own `id`, with the engine's texts. */
  parseItem(json: unknown): T;
  itemView(item: T): JsonObject;
  missingSet: string;
}

export function registerGlobalSets<T>(
  router: Router,
  engine: Engine,
  kind: GlobalSetKind<T>
): void {
  const set = (name: string | undefined): ItemSet<T> => {
    const s = kind.sets.get(name ?? '');
    if (!s) {
      throw new ApiError(404, kind.missingSet);
    }
    return s;
  };
  const objectBody = (raw: string): JsonObject => {
    const body = parseJsonBody(raw);
    if (!isPlainObject(body)) {
      throw new ApiError(400, 'Bad JSON.');
    }
    return body;
  };
  router
    .add('GET', kind.base, () =>
      json(200, sortedJson([...kind.sets.values()].map(s => s.view())))
    )
    .add('GET', `${kind.base}/:name`, ctx =>
      json(200, sortedJson(set(ctx.params.name).view()))
    )
    .add('PUT', `${kind.base}/:name`, ctx => {
      const body = objectBody(ctx.body);
      const name = ctx.params.name ?? '';
      if (!Array.isArray(body.items)) {
        throw new ApiError(400, "Missing or invalid 'items' field");
      }
      const fresh = kind.create(name);
      for (const item of body.items) {
        fresh.upsert(kind.parseItem(item));
      }
      kind.sets.set(name, fresh);
      engine.cache.clear();
      return json(200, sortedJson(fresh.view()));
    })
    .add('DELETE', `${kind.base}/:name`, ctx => {
      const s = set(ctx.params.name);
      kind.sets.delete(s.name);
      engine.cache.clear();
      return json(200, sortedJson({ name: s.name }));
    })
    .add('GET', `${kind.base}/:name/items`, ctx =>
      json(
        200,
        sortedJson(
          pageOf(set(ctx.params.name).list(), ctx.query).map(kind.itemView)
        )
      )
    )
    .add('GET', `${kind.base}/:name/items/:id`, ctx => {
      const item = set(ctx.params.name).get(ctx.params.id ?? '');
      if (item === undefined) {
        throw new ApiError(404, 'Not Found');
      }
      return json(200, sortedJson(kind.itemView(item)));
    })
    .add('PUT', `${kind.base}/:name/items/:id`, ctx => {
      const echoed = { ...objectBody(ctx.body), id: ctx.params.id ?? '' };
      const target = set(ctx.params.name);
      target.upsert(kind.parseItem(echoed));
      engine.cache.clear();
      return json(200, sortedJson(echoed));
    })
    .add('DELETE', `${kind.base}/:name/items/:id`, ctx => {
      const id = ctx.params.id ?? '';
      if (!set(ctx.params.name).remove(id)) {
        throw new ApiError(404, 'Could not find that `id`.');
      }
      engine.cache.clear();
      return json(200, sortedJson({ id }));
    });
}
