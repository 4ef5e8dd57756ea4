import type { WriteAction } from '../collection';
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { parseFilter } from '../filter/parse';
import { json } from '../http-io';
import { sortedJson } from '../json';
import type { Router } from '../router';
import { parseDirtyValues } from '../validate';
import { parseDocumentBody } from './body';

export function parseAction(raw: string | undefined): WriteAction {
  switch (raw) {
    case undefined:
    case 'create':
      return 'create';
    case 'upsert':
    case 'update':
    case 'emplace':
      return raw;
    default:
      throw new ApiError(
        400,
        'The `action` parameter must be one of: create, upsert, update, emplace.'
      );
  }
}

export function registerDocuments(router: Router, engine: Engine): void {
  const notFound = (id: string): ApiError =>
    new ApiError(404, `Could not find a document with id: ${id}`);

  router
    .add('POST', '/collections/:collection/documents', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const doc = parseDocumentBody(ctx.body);
      const action = parseAction(ctx.query.get('action'));
      const dirty = parseDirtyValues(
        ctx.query.get('dirty_values'),
        coll.defaultDirtyValues
      );
      return json(201, sortedJson(coll.write(doc, action, dirty)));
    })
    .add('GET', '/collections/:collection/documents/:id', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const id = ctx.params.id ?? '';
      const rec = coll.get(id);
      if (!rec) {
        throw notFound(id);
      }
      return json(200, sortedJson(rec.doc));
    })
    .add('PATCH', '/collections/:collection/documents/:id', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const id = ctx.params.id ?? '';
      const doc = parseDocumentBody(ctx.body);
      if (doc.id !== undefined && doc.id !== id) {
        throw new ApiError(
          400,
          'The `id` of the resource does not match the `id` in the JSON body.'
        );
      }
      if (!coll.get(id)) {
        throw notFound(id);
      }
      const dirty = parseDirtyValues(
        ctx.query.get('dirty_values'),
        coll.defaultDirtyValues
      );
      return json(200, sortedJson(coll.write(doc, 'update', dirty, id)));
    })
    .add('PATCH', '/collections/:collection/documents', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const filterBy = ctx.query.get('filter_by');
      if (filterBy === undefined) {
        throw new ApiError(400, 'Parameter `filter_by` must be provided.');
      }
      const doc = parseDocumentBody(ctx.body);
      const filter = parseFilter(filterBy, {
        field: n => coll.field(n),
        validateFieldNames: true
      });
      const dirty = parseDirtyValues(
        ctx.query.get('dirty_values'),
        coll.defaultDirtyValues
      );
      const ids = coll
        .snapshot()
        .filter(r => r.alive && (!filter || filter(r.doc)))
        .map(r => r.id);
      for (const id of ids) {
        coll.write({ ...doc }, 'update', dirty, id);
      }
      return json(200, sortedJson({ num_updated: ids.length }));
    })
    .add('DELETE', '/collections/:collection/documents/:id', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const id = ctx.params.id ?? '';
      const removed = coll.remove(id);
      if (!removed) {
        if (ctx.query.get('ignore_not_found') === 'true') {
          return json(200, sortedJson({ id }));
        }
        throw notFound(id);
      }
      return json(200, sortedJson(removed));
    })
    .add('DELETE', '/collections/:collection/documents', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      if (engine.feat.truncate && ctx.query.get('truncate') === 'true') {
        return json(200, sortedJson({ num_deleted: coll.truncate() }));
      }
      const filterBy = ctx.query.get('filter_by');
      if (filterBy === undefined) {
        throw new ApiError(400, 'Parameter `filter_by` must be provided.');
      }
      const filter = parseFilter(filterBy, {
        field: n => coll.field(n),
        validateFieldNames: true
      });
      const n = coll.removeWhere(r => !filter || filter(r.doc));
      return json(200, sortedJson({ num_deleted: n }));
    });
}
