/** Single-document endpoints: index, create, get, exists, _source, delete, update, mget. */
import { shownSequence } from './index-modes';
import { authorizeExplicit } from './auth';
import type { Context } from './context';
import { esError, illegalArgument, indexNotFound } from './errors';
import type { Exchange } from './exchange';
import { isObject, type Json, type JsonObject } from './json-value';
import type { IndexData } from './index-data';
import type { StoredDoc } from './stored-doc';
import { writeTarget } from './resolve';
import { makeSourceFilter, parseSourceFilter } from './source-filter';
import {
  applyRefresh,
  deleteDoc,
  indexDoc,
  targetForWrite,
  updateDoc,
  type Concurrency
} from './writes';

function concurrency(ex: Exchange): Concurrency {
  const cc: Concurrency = {};
  const s = ex.int('if_seq_no');
  const t = ex.int('if_primary_term');
  if (s !== undefined) {
    cc.ifSeqNo = s;
  }
  if (t !== undefined) {
    cc.ifPrimaryTerm = t;
  }
  return cc;
}

/** A whole source as answers carry it: the text it was stored with (the value in pretty answers). */
function asSent(doc: StoredDoc): Json {
  return doc.printed as unknown as Json;
}

function docBody(ex: Exchange): JsonObject {
  const body = ex.json();
  if (!body) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason:
        'Validation Failed: 1: source is missing;2: content type is missing;'
    });
  }
  return body;
}

export function putDoc(ex: Exchange, ctx: Context): void {
  const name = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'index', name);
  const source = docBody(ex);
  const index = targetForWrite(ctx, name);
  const opType = ex.query.get('op_type');
  if (opType !== null && opType !== 'index' && opType !== 'create') {
    throw illegalArgument(
      `opType must be 'create' or 'index', found: [${opType}]`
    );
  }
  const create = ex.path.includes('/_create/') || opType === 'create';
  const { body, status } = indexDoc(ctx, index, ex.params['id'], source, {
    create,
    sent: ex.body.toString('utf8'),
    ...concurrency(ex)
  });
  applyRefresh(ex.query.get('refresh'), [index], body);
  ex.send(
    status,
    body,
    status === 201
      ? {
          Location: `/${index.name}/_doc/${encodeURIComponent(body['_id'] as string)}`
        }
      : {}
  );
}

function readTarget(ex: Exchange, ctx: Context): IndexData {
  const name = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'get', name);
  const index = writeTarget(ctx.state, name);
  // 7.x names the missing target an index expression here; 8.x an index or alias.
  if (!index) {
    throw indexNotFound(
      name,
      ctx.version.major === 7 ? 'index_expression' : 'index_or_alias'
    );
  }
  return index;
}

export function getDoc(ex: Exchange, ctx: Context): void {
  const index = readTarget(ex, ctx);
  const id = ex.params['id'] as string;
  const doc = index.get(id);
  const head: JsonObject = { _index: index.name };
  if (ctx.version.major === 7) {
    head['_type'] = '_doc';
  }
  head['_id'] = id;
  if (!doc) {
    ex.send(404, { ...head, found: false });
    return;
  }
  const filter = parseSourceFilter(undefined, ex.query);
  const out: JsonObject = {
    ...head,
    _version: doc.version,
    ...shownSequence(index, doc.seqNo),
    found: true
  };
  if (filter.enabled) {
    out['_source'] = makeSourceFilter(filter)?.(doc.source) ?? asSent(doc);
  }
  ex.send(200, out);
}

export function getSource(ex: Exchange, ctx: Context): void {
  const index = readTarget(ex, ctx);
  const id = ex.params['id'] as string;
  const doc = index.get(id);
  if (!doc) {
    throw esError(404, {
      type: 'resource_not_found_exception',
      reason: `Document not found [${index.name}]/[${id}]`
    });
  }
  const filter = parseSourceFilter(undefined, ex.query);
  ex.send(200, makeSourceFilter(filter)?.(doc.source) ?? asSent(doc));
}

export function removeDoc(ex: Exchange, ctx: Context): void {
  const name = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'delete', name);
  const index = writeTarget(ctx.state, name);
  if (!index) {
    throw indexNotFound(name);
  }
  const { body, status } = deleteDoc(
    ctx,
    index,
    ex.params['id'] as string,
    concurrency(ex)
  );
  applyRefresh(ex.query.get('refresh'), [index], body);
  ex.send(status, body);
}

export function update(ex: Exchange, ctx: Context): void {
  const name = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'update', name);
  const index = writeTarget(ctx.state, name);
  const request = docBody(ex);
  if (!index) {
    if (request['upsert'] === undefined && request['doc_as_upsert'] !== true) {
      throw indexNotFound(name);
    }
  }
  const target = index ?? targetForWrite(ctx, name);
  const id = ex.params['id'] as string;
  const { body, status } = updateDoc(ctx, target, id, request, concurrency(ex));
  // `_source=true` (or includes/excludes) asks for the document as stored, in `get`, noops included.
  const asked = ['_source', '_source_includes', '_source_excludes'].some(
    p => ex.query.get(p) !== null
  );
  const filter = asked ? parseSourceFilter(undefined, ex.query) : undefined;
  const stored = target.get(id);
  if (filter?.enabled && stored) {
    body['get'] = {
      ...shownSequence(target, stored.seqNo),
      found: true,
      _source: makeSourceFilter(filter)?.(stored.source) ?? stored.source
    };
  }
  applyRefresh(ex.query.get('refresh'), [target], body);
  ex.send(status, body);
}

export function mget(ex: Exchange, ctx: Context): void {
  const body = ex.json() ?? {};
  const defaultIndex = ex.params['index'];
  const specs: { index?: string; id: string; source?: Json }[] = [];
  // Ids may be written as numbers: ES reads any scalar as the id's text.
  const idText = (v: Json | undefined): string | undefined =>
    typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  if (Array.isArray(body['docs'])) {
    for (const d of body['docs']) {
      const id = isObject(d) ? idText(d['_id']) : undefined;
      if (!isObject(d) || id === undefined) {
        throw illegalArgument('[mget] unknown field in docs');
      }
      const idx = typeof d['_index'] === 'string' ? d['_index'] : defaultIndex;
      specs.push({
        ...(idx !== undefined ? { index: idx } : {}),
        id,
        ...(d['_source'] !== undefined ? { source: d['_source'] } : {})
      });
    }
  } else if (Array.isArray(body['ids'])) {
    for (const raw of body['ids']) {
      const id = idText(raw);
      if (id !== undefined) {
        specs.push({
          ...(defaultIndex !== undefined ? { index: defaultIndex } : {}),
          id
        });
      }
    }
  } else {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: no documents to get;'
    });
  }
  const filter = parseSourceFilter(undefined, ex.query);
  const project = makeSourceFilter(filter);
  const docs = specs.map(s => {
    if (!s.index) {
      return {
        _index: null,
        _id: s.id,
        error: {
          root_cause: [],
          type: 'action_request_validation_exception',
          reason: 'index is missing'
        }
      };
    }
    const idx = writeTarget(ctx.state, s.index);
    if (!idx) {
      return {
        _index: s.index,
        _id: s.id,
        error: {
          root_cause: [
            {
              type: 'index_not_found_exception',
              reason: `no such index [${s.index}]`
            }
          ],
          type: 'index_not_found_exception',
          reason: `no such index [${s.index}]`,
          'resource.type': 'index_expression',
          'resource.id': s.index,
          index_uuid: '_na_',
          index: s.index
        }
      };
    }
    const doc = idx.get(s.id);
    const head: JsonObject = { _index: idx.name };
    if (ctx.version.major === 7) {
      head['_type'] = '_doc';
    }
    head['_id'] = s.id;
    if (!doc) {
      return { ...head, found: false };
    }
    const out: JsonObject = {
      ...head,
      _version: doc.version,
      ...shownSequence(idx, doc.seqNo),
      found: true
    };
    // A per-document _source wins over the URL's.
    const own =
      s.source !== undefined
        ? parseSourceFilter(s.source, new URLSearchParams())
        : filter;
    if (own.enabled) {
      out['_source'] =
        (s.source !== undefined ? makeSourceFilter(own) : project)?.(
          doc.source
        ) ?? asSent(doc);
    }
    return out;
  });
  ex.send(200, { docs });
}
