/**
 * Curation in the emulated version's shape: per-collection overrides up to 29
 * (`/collections/:c/overrides/:id`), global curation sets in 30 (`/curation_sets/:name[/items/:id]`).
 */
import { CurationSet, overrideView, parseOverride } from '../curation';
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { sortedJson } from '../json';
import type { Router } from '../router';
import { pageOf } from '../synonyms';
import { parseJsonBody } from './body';
import { registerGlobalSets } from './global-sets';

export function registerCuration(router: Router, engine: Engine): void {
  if (engine.feat.globalSets) {
    registerCurationSets(router, engine);
  } else {
    registerOverrides(router, engine);
  }
}

function registerOverrides(router: Router, engine: Engine): void {
  const coll = (name: string | undefined) =>
    documentsCollection(engine, name ?? '');
  router
    .add('GET', '/collections/:collection/overrides', ctx =>
      json(
        200,
        sortedJson({
          overrides: pageOf(
            coll(ctx.params.collection).overrides.list(),
            ctx.query
          ).map(overrideView)
        })
      )
    )
    .add('GET', '/collections/:collection/overrides/:id', ctx => {
      const id = ctx.params.id ?? '';
      const o = coll(ctx.params.collection).overrides.get(id);
      if (!o) {
        throw new ApiError(404, `override ${id} not found.`);
      }
      return json(200, sortedJson(overrideView(o)));
    })
    .add('PUT', '/collections/:collection/overrides/:id', ctx => {
      const c = coll(ctx.params.collection);
      const body = parseJsonBody(ctx.body);
      const id = ctx.params.id ?? '';
      c.overrides.upsert(parseOverride(body, id));
      c.generation++;
      return json(
        200,
        sortedJson({ ...(body as Record<string, unknown>), id })
      );
    })
    .add('DELETE', '/collections/:collection/overrides/:id', ctx => {
      const c = coll(ctx.params.collection);
      const id = ctx.params.id ?? '';
      if (!c.overrides.remove(id)) {
        throw new ApiError(404, 'Could not find that `id`.');
      }
      c.generation++;
      return json(200, sortedJson({ id }));
    });
}

function registerCurationSets(router: Router, engine: Engine): void {
  registerGlobalSets(router, engine, {
    base: '/curation_sets',
    sets: engine.curationSets,
    create: name => new CurationSet(name),
    parseItem: item => parseOverride(item, null, 'Curation'),
    itemView: overrideView,
    missingSet: 'Curation index not found'
  });
}
