/**
 * The write path shared by the document endpoints and _bulk: target resolution (auto-create,
 * aliases), mapping checks, optimistic concurrency, and the result bodies ES returns.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from './context';
import { esError, EsError, illegalArgument } from './errors';
import { isObject, type Json, type JsonObject } from './json-value';
import type { IndexData } from './index-data';
import type { StoredDoc } from './stored-doc';
import { locateInBody } from './locate';
import { own, put } from './mapping';
import {
  refuseConditionalWrite,
  refuseUpdate,
  shownSequence
} from './index-modes';
import { validateIndexName, writeTarget } from './resolve';

export function autoId(): string {
  return randomBytes(15).toString('base64url');
}

/** The index a write lands in; creates it when missing, as action.auto_create_index allows. */
export function targetForWrite(ctx: Context, name: string): IndexData {
  const existing = writeTarget(ctx.state, name);
  if (existing) {
    return existing;
  }
  validateIndexName(name);
  return ctx.state.createIndex(name);
}

/** A write reaches the primary; each replica counts in `total` (unassigned on one node, so not successful). */
export function shardsInfo(index: IndexData): JsonObject {
  return { total: 1 + index.replicas, successful: 1, failed: 0 };
}

export function writeResult(
  ctx: Context,
  index: IndexData,
  id: string,
  version: number,
  seqNo: number,
  result: string
): JsonObject {
  const out: JsonObject = { _index: index.name };
  if (ctx.version.major === 7) {
    out['_type'] = '_doc';
  }
  out['_id'] = id;
  out['_version'] = version;
  out['result'] = result;
  out['_shards'] =
    result === 'noop'
      ? { total: 0, successful: 0, failed: 0 }
      : shardsInfo(index);
  Object.assign(out, shownSequence(index, seqNo));
  return out;
}

export function versionConflict(
  index: IndexData,
  id: string,
  reason: string
): EsError {
  return esError(409, {
    type: 'version_conflict_engine_exception',
    reason: `[${id}]: version conflict, ${reason}`,
    index_uuid: index.uuid,
    shard: '0',
    index: index.name
  });
}

export interface Concurrency {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

function checkConcurrency(
  index: IndexData,
  id: string,
  current: StoredDoc | undefined,
  cc: Concurrency
): void {
  if (cc.ifSeqNo === undefined && cc.ifPrimaryTerm === undefined) {
    return;
  }
  refuseConditionalWrite(index);
  if (cc.ifSeqNo === undefined || cc.ifPrimaryTerm === undefined) {
    throw illegalArgument('ifSeqNo is set, but primary term is [0]');
  }
  if (!current) {
    throw versionConflict(
      index,
      id,
      `required seqNo [${cc.ifSeqNo}], primary term [${cc.ifPrimaryTerm}]. but no document was found`
    );
  }
  if (current.seqNo !== cc.ifSeqNo || cc.ifPrimaryTerm !== 1) {
    throw versionConflict(
      index,
      id,
      `required seqNo [${cc.ifSeqNo}], primary term [${cc.ifPrimaryTerm}]. current document has seqNo [${current.seqNo}] and primary term [1]`
    );
  }
}

export function indexDoc(
  ctx: Context,
  index: IndexData,
  id: string | undefined,
  source: JsonObject,
  opts: { create?: boolean; size?: number; sent?: string } & Concurrency = {}
): { body: JsonObject; status: number } {
  ctx.state.indexTotal++;
  const docId = id ?? autoId();
  if (Buffer.byteLength(docId) > 512) {
    throw illegalArgument(
      `id [${docId}] is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(docId)}`
    );
  }
  const current = index.get(docId);
  if (opts.create && current) {
    throw versionConflict(
      index,
      docId,
      `document already exists (current version [${current.version}])`
    );
  }
  checkConcurrency(index, docId, current, opts);
  index.mapping.index(source, docId);
  const { doc, created } = index.put(docId, source, opts.size, opts.sent);
  return {
    body: writeResult(
      ctx,
      index,
      docId,
      doc.version,
      doc.seqNo,
      created ? 'created' : 'updated'
    ),
    status: created ? 201 : 200
  };
}

export function deleteDoc(
  ctx: Context,
  index: IndexData,
  id: string,
  cc: Concurrency = {}
): { body: JsonObject; status: number } {
  checkConcurrency(index, id, index.get(id), cc);
  const removed = index.remove(id);
  if (!removed) {
    return {
      body: writeResult(
        ctx,
        index,
        id,
        index.deleteMissing(id),
        index.takeSeqNo(),
        'not_found'
      ),
      status: 404
    };
  }
  return {
    body: writeResult(
      ctx,
      index,
      id,
      removed.version,
      removed.seqNo,
      'deleted'
    ),
    status: 200
  };
}

function deepMerge(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    // A field named `constructor` or `__proto__` is a field: read and set only as the document's own.
    const old = own(out, k);
    put(out, k, isObject(v) && isObject(old) ? deepMerge(old, v) : v);
  }
  return out;
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) {
    return true;
  }
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null
  ) {
    return false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) {
    return false;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  const ak = Object.keys(a as JsonObject);
  const bo = b as JsonObject;
  return (
    ak.length === Object.keys(bo).length &&
    ak.every(k => k in bo && deepEqual((a as JsonObject)[k], bo[k]))
  );
}

export function documentMissing(
  ctx: Context,
  index: IndexData,
  id: string
): EsError {
  return esError(404, {
    type: 'document_missing_exception',
    reason:
      ctx.version.major === 7
        ? `[_doc][${id}]: document missing`
        : `[${id}]: document missing`,
    index_uuid: index.uuid,
    shard: '0',
    index: index.name
  });
}

export function updateDoc(
  ctx: Context,
  index: IndexData,
  id: string,
  body: JsonObject,
  cc: Concurrency = {}
): { body: JsonObject; status: number } {
  refuseUpdate(index);
  if (body['script'] !== undefined) {
    throw illegalArgument(
      'scripted updates are not supported by the searchbook sandbox; send {"doc": {...}} instead'
    );
  }
  const patch = body['doc'];
  const upsert = body['upsert'];
  if (patch !== undefined && !isObject(patch)) {
    throw illegalArgument('[doc] must be an object');
  }
  if (patch === undefined && upsert === undefined) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: script or doc is missing;'
    });
  }
  const current = index.get(id);
  if (!current) {
    const fresh =
      body['doc_as_upsert'] === true && patch
        ? patch
        : isObject(upsert)
          ? upsert
          : undefined;
    // ES reads the document before it compares versions: a missing one is document_missing (404), not a conflict.
    if (!fresh) {
      throw documentMissing(ctx, index, id);
    }
    checkConcurrency(index, id, current, cc);
    index.mapping.index(fresh, id);
    const { doc } = index.put(id, fresh);
    return {
      body: writeResult(ctx, index, id, doc.version, doc.seqNo, 'created'),
      status: 201
    };
  }
  checkConcurrency(index, id, current, cc);
  const merged = deepMerge(current.source, patch ?? {});
  if (body['detect_noop'] !== false && deepEqual(merged, current.source)) {
    return {
      body: writeResult(ctx, index, id, current.version, current.seqNo, 'noop'),
      status: 200
    };
  }
  try {
    index.mapping.index(merged, id);
  } catch (err) {
    // ES parses the merged document, so a refused value's position is in that document, not in the request.
    if (err instanceof EsError && err.locate) {
      throw new EsError(
        err.status,
        locateInBody(err.body, JSON.stringify(merged), err.locate),
        err.headers
      );
    }
    throw err;
  }
  const { doc } = index.put(id, merged);
  return {
    body: writeResult(ctx, index, id, doc.version, doc.seqNo, 'updated'),
    status: 200
  };
}

/** Applies ?refresh: true refreshes now (and says so), wait_for also makes the write visible. */
export function applyRefresh(
  refreshParam: string | null,
  indices: Iterable<IndexData>,
  body?: JsonObject
): void {
  if (refreshParam === null || refreshParam === 'false') {
    return;
  }
  for (const idx of indices) {
    idx.refresh();
  }
  if (body && (refreshParam === '' || refreshParam === 'true')) {
    body['forced_refresh'] = true;
  }
}
