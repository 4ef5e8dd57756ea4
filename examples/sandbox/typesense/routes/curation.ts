/**
 * Curation in the emulated version's shape: per-collection overrides up to 29
 * (`/collections/:c/overrides/:id`), global curation sets in 30 (`/curation_sets/:name[/items/:id]`).
 */
import { CurationSet, overrideView, parseOverride } from '../curation';
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson } from '../json';
import type { Router } from '../router';
import { pageOf } from '../synonyms';
import { parseJsonBody } from './body';

export function registerCuration(router: Router, engine: Engine): void {
  if (engine.feat.globalSets) registerCurationSets(router, engine);
  else registerOverrides(router, engine);
}

function registerOverrides(router: Router, engine: Engine): void {
  const coll = (name: string | undefined) => documentsCollection(engine, name ?? '');
  router
    .add('GET', '/collections/:collection/overrides', (ctx) =>
      json(200, sortedJson({ overrides: pageOf(coll(ctx.params.collection).overrides.list(), ctx.query).map(overrideView) })),
    )
    .add('GET', '/collections/:collection/overrides/:id', (ctx) => {
      const id = ctx.params.id ?? '';
      const o = coll(ctx.params.collection).overrides.get(id);
      if (!o) throw new ApiError(404, `override ${id} not found.`);
      return json(200, sortedJson(overrideView(o)));
    })
    .add('PUT', '/collections/:collection/overrides/:id', (ctx) => {
      const c = coll(ctx.params.collection);
      const body = parseJsonBody(ctx.body);
      const id = ctx.params.id ?? '';
      c.overrides.upsert(parseOverride(body, id));
      c.generation++;
      return json(200, sortedJson({ ...(body as Record<string, unknown>), id }));
    })
    .add('DELETE', '/collections/:collection/overrides/:id', (ctx) => {
      const c = coll(ctx.params.collection);
      const id = ctx.params.id ?? '';
      if (!c.overrides.remove(id)) throw new ApiError(404, 'Could not find that `id`.');
      c.generation++;
      return json(200, sortedJson({ id }));
    });
}

function registerCurationSets(router: Router, engine: Engine): void {
  const set = (name: string | undefined): CurationSet => {
    const s = engine.curationSets.get(name ?? '');
    if (!s) throw new ApiError(404, 'Curation index not found');
    return s;
  };
  router
    .add('GET', '/curation_sets', () => json(200, sortedJson([...engine.curationSets.values()].map((s) => s.view()))))
    .add('GET', '/curation_sets/:name', (ctx) => json(200, sortedJson(set(ctx.params.name).view())))
    .add('PUT', '/curation_sets/:name', (ctx) => {
      const body = parseJsonBody(ctx.body);
      if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
      const name = ctx.params.name ?? '';
      if (!Array.isArray(body.items)) throw new ApiError(400, "Missing or invalid 'items' field");
      const fresh = new CurationSet(name);
      for (const item of body.items) fresh.upsert(parseOverride(item, null, 'Curation'));
      engine.curationSets.set(name, fresh);
      engine.cache.clear();
      return json(200, sortedJson(fresh.view()));
    })
    .add('DELETE', '/curation_sets/:name', (ctx) => {
      const s = set(ctx.params.name);
      engine.curationSets.delete(s.name);
      engine.cache.clear();
      return json(200, sortedJson({ name: s.name }));
    })
    .add('GET', '/curation_sets/:name/items', (ctx) =>
      json(200, sortedJson(pageOf(set(ctx.params.name).list(), ctx.query).map(overrideView))),
    )
    .add('GET', '/curation_sets/:name/items/:id', (ctx) => {
      const o = set(ctx.params.name).get(ctx.params.id ?? '');
      if (!o) throw new ApiError(404, 'Not Found');
      return json(200, sortedJson(overrideView(o)));
    })
    .add('PUT', '/curation_sets/:name/items/:id', (ctx) => {
      const body = parseJsonBody(ctx.body);
      if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
      const echoed = { ...body, id: ctx.params.id ?? '' };
      const target = set(ctx.params.name);
      target.upsert(parseOverride(echoed, null, 'Curation'));
      engine.cache.clear();
      return json(200, sortedJson(echoed));
    })
    .add('DELETE', '/curation_sets/:name/items/:id', (ctx) => {
      const id = ctx.params.id ?? '';
      if (!set(ctx.params.name).remove(id)) throw new ApiError(404, 'Could not find that `id`.');
      engine.cache.clear();
      return json(200, sortedJson({ id }));
    });
}
