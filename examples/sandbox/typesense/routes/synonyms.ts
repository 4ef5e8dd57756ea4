/**
 * Synonyms in the emulated version's shape: up to 29 each collection holds its own
 * (`/collections/:c/synonyms/:id`); 30 replaced those routes by global synonym sets
 * (`/synonym_sets/:name[/items/:id]`) that collections name in `synonym_sets`.
 */
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson } from '../json';
import type { Router } from '../router';
import { checkSynonymBody, pageOf, parseSynonym, SynonymSet, synonymView } from '../synonyms';
import { parseJsonBody } from './body';

export function registerSynonyms(router: Router, engine: Engine): void {
  if (engine.feat.globalSets) registerSynonymSets(router, engine);
  else registerCollectionSynonyms(router, engine);
}

function registerCollectionSynonyms(router: Router, engine: Engine): void {
  const coll = (name: string | undefined) => documentsCollection(engine, name ?? '');
  router
    .add('GET', '/collections/:collection/synonyms', (ctx) => {
      const list = pageOf([...coll(ctx.params.collection).synonyms.items.values()], ctx.query);
      return json(200, sortedJson({ synonyms: list.map(synonymView) }));
    })
    .add('GET', '/collections/:collection/synonyms/:id', (ctx) => {
      const def = coll(ctx.params.collection).synonyms.items.get(ctx.params.id ?? '');
      if (!def) throw new ApiError(404, 'Not Found');
      return json(200, sortedJson(synonymView(def)));
    })
    .add('PUT', '/collections/:collection/synonyms/:id', (ctx) => {
      const c = coll(ctx.params.collection);
      const body = checkSynonymBody(parseJsonBody(ctx.body));
      const echoed = { ...body, id: ctx.params.id ?? '' };
      c.synonyms.upsert(parseSynonym(echoed));
      c.generation++;
      return json(200, sortedJson(echoed));
    })
    .add('DELETE', '/collections/:collection/synonyms/:id', (ctx) => {
      const c = coll(ctx.params.collection);
      const id = ctx.params.id ?? '';
      if (!c.synonyms.items.delete(id)) throw new ApiError(404, 'Could not find that `id`.');
      c.generation++;
      return json(200, sortedJson({ id }));
    });
}

function registerSynonymSets(router: Router, engine: Engine): void {
  const set = (name: string | undefined): SynonymSet => {
    const s = engine.synonymSets.get(name ?? '');
    if (!s) throw new ApiError(404, 'Synonym index not found');
    return s;
  };
  router
    .add('GET', '/synonym_sets', () => json(200, sortedJson([...engine.synonymSets.values()].map((s) => s.view()))))
    .add('GET', '/synonym_sets/:name', (ctx) => json(200, sortedJson(set(ctx.params.name).view())))
    .add('PUT', '/synonym_sets/:name', (ctx) => {
      const body = parseJsonBody(ctx.body);
      if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
      const name = ctx.params.name ?? '';
      if (!Array.isArray(body.items)) throw new ApiError(400, "Missing or invalid 'items' field");
      const fresh = new SynonymSet(name);
      for (const item of body.items) {
        if (!isPlainObject(item)) throw new ApiError(400, 'Missing `id` field.');
        fresh.upsert(parseSynonym(item));
      }
      engine.synonymSets.set(name, fresh);
      engine.cache.clear();
      return json(200, sortedJson(fresh.view()));
    })
    .add('DELETE', '/synonym_sets/:name', (ctx) => {
      const s = set(ctx.params.name);
      engine.synonymSets.delete(s.name);
      engine.cache.clear();
      return json(200, sortedJson({ name: s.name }));
    })
    .add('GET', '/synonym_sets/:name/items', (ctx) =>
      json(200, sortedJson(pageOf([...set(ctx.params.name).items.values()], ctx.query).map(synonymView))),
    )
    .add('GET', '/synonym_sets/:name/items/:id', (ctx) => {
      const def = set(ctx.params.name).items.get(ctx.params.id ?? '');
      if (!def) throw new ApiError(404, 'Not Found');
      return json(200, sortedJson(synonymView(def)));
    })
    .add('PUT', '/synonym_sets/:name/items/:id', (ctx) => {
      const body = parseJsonBody(ctx.body);
      if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
      const echoed = { ...body, id: ctx.params.id ?? '' };
      const target = set(ctx.params.name);
      target.upsert(parseSynonym(echoed));
      engine.cache.clear();
      return json(200, sortedJson(echoed));
    })
    .add('DELETE', '/synonym_sets/:name/items/:id', (ctx) => {
      const id = ctx.params.id ?? '';
      if (!set(ctx.params.name).items.delete(id)) throw new ApiError(404, 'Could not find that `id`.');
      engine.cache.clear();
      return json(200, sortedJson({ id }));
    });
}
