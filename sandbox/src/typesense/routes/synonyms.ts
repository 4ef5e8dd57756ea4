/**
 * Synonyms in the emulated version's shape: up to 29 each collection holds its own
 * (`/collections/:c/synonyms/:id`); 30 replaced those routes by global synonym sets
 * (`/synonym_sets/:name[/items/:id]`) that collections name in `synonym_sets`.
 */
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { sortedJson } from '../json';
import type { Router } from '../router';
import {
  checkSynonymBody,
  pageOf,
  parseSynonym,
  parseSynonymItem,
  SynonymSet,
  synonymView
} from '../synonyms';
import { parseJsonBody } from './body';
import { registerGlobalSets } from './global-sets';

export function registerSynonyms(router: Router, engine: Engine): void {
  if (engine.feat.globalSets) {
    registerSynonymSets(router, engine);
  } else {
    registerCollectionSynonyms(router, engine);
  }
}

function registerCollectionSynonyms(router: Router, engine: Engine): void {
  const coll = (name: string | undefined) =>
    documentsCollection(engine, name ?? '');
  router
    .add('GET', '/collections/:collection/synonyms', ctx => {
      const list = pageOf(
        coll(ctx.params.collection).synonyms.list(),
        ctx.query
      );
      return json(200, sortedJson({ synonyms: list.map(synonymView) }));
    })
    .add('GET', '/collections/:collection/synonyms/:id', ctx => {
      const def = coll(ctx.params.collection).synonyms.get(ctx.params.id ?? '');
      if (!def) {
        throw new ApiError(404, 'Not Found');
      }
      return json(200, sortedJson(synonymView(def)));
    })
    .add('PUT', '/collections/:collection/synonyms/:id', ctx => {
      const c = coll(ctx.params.collection);
      const body = checkSynonymBody(parseJsonBody(ctx.body));
      const echoed = { ...body, id: ctx.params.id ?? '' };
      c.synonyms.upsert(parseSynonym(echoed));
      c.generation++;
      return json(200, sortedJson(echoed));
    })
    .add('DELETE', '/collections/:collection/synonyms/:id', ctx => {
      const c = coll(ctx.params.collection);
      const id = ctx.params.id ?? '';
      if (!c.synonyms.remove(id)) {
        throw new ApiError(404, 'Could not find that `id`.');
      }
      c.generation++;
      return json(200, sortedJson({ id }));
    });
}

function registerSynonymSets(router: Router, engine: Engine): void {
  registerGlobalSets(router, engine, {
    base: '/synonym_sets',
    sets: engine.synonymSets,
    create: name => new SynonymSet(name),
    parseItem: parseSynonymItem,
    itemView: synonymView,
    missingSet: 'Synonym index not found'
  });
}
