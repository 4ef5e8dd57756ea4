/** `_search` (GET with a body, or POST) and `_count`, with or without a point in time. */
import { authorizeExplicit, narrow, requireIndices } from '../auth';
import type { Context } from '../context';
import {
  badJson,
  EsError,
  illegalArgument,
  parsingError,
  validationFailed
} from '../errors';
import {
  isObject,
  type Exchange,
  type Json,
  type JsonObject
} from '../exchange';
import { optionsFromQuery, resolveIndices } from '../resolve';
import { encodeId, lookupPit, parseKeepAlive } from '../pit';
import { executeSearch, matchingDocs, type Shard } from './execute';
import { readSearchRequest, type SearchRequest } from './request';
import { sliceShards } from './slice';

function shardsFor(
  ex: Exchange,
  ctx: Context,
  expr = ex.params['index']
): Shard[] {
  authorizeExplicit(ex, ctx.state, 'search', expr);
  const indices = narrow(
    ex,
    'search',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  const now = Date.now();
  return indices.map(index => ({ index, docs: index.searchable(now) }));
}

export function search(ex: Exchange, ctx: Context): void {
  ctx.state.queryTotal++;
  const req = readSearchRequest(ex, ex.json() ?? {}, ctx.version);
  const scroll = ex.query.get('scroll');
  if (scroll !== null) {
    startScroll(ex, ctx, req, shardsFor(ex, ctx), scroll);
    return;
  }
  let shards: Shard[];
  let pitId: string | undefined;
  if (req.pit) {
    const pit = lookupPit(ctx, req.pit.id, req.pit.keepAlive);
    requireIndices(
      ex,
      ctx.version,
      'search',
      pit.shards.map(s => s.index.name)
    );
    shards = pit.shards;
    pitId = req.pit.id;
  } else {
    shards = shardsFor(ex, ctx);
  }
  if (req.slice) {
    shards = sliceShards(shards, req.slice);
  }
  const { body, warnings } = executeSearch(shards, req, ctx.version, {
    tookFrom: ex.started,
    cache: ctx.state.rankedCache,
    ...(pitId ? { pitId } : {})
  });
  ex.send(200, body, warnings.length > 0 ? { Warning: warnings } : {});
}

export function count(ex: Exchange, ctx: Context): void {
  const body = ex.json() ?? {};
  for (const k of Object.keys(body)) {
    if (k !== 'query') {
      throw parsingError(`request does not support [${k}]`);
    }
  }
  let query = body['query'];
  const q = ex.query.get('q');
  if (q !== null) {
    query = { query_string: { query: q } };
  }
  const shards = shardsFor(ex, ctx);
  let n = 0;
  for (const s of shards) {
    n += matchingDocs(s, query, ctx.version).length;
  }
  ex.send(200, {
    count: n,
    _shards: {
      total: shards.length,
      successful: shards.length,
      skipped: 0,
      failed: 0
    }
  });
}

/** A scroll keeps the snapshot it started on, as a point in time does, and pages through it by offset. */
function startScroll(
  ex: Exchange,
  ctx: Context,
  req: SearchRequest,
  shards: Shard[],
  keepAlive: string
): void {
  const ms = parseKeepAlive(keepAlive, 'scroll');
  ctx.state.sweepPits();
  const contextId = ctx.state.newContextId();
  const id = encodeId(contextId);
  ctx.state.pits.set(id, {
    contextId,
    shards,
    expiresAt: Date.now() + ms,
    scroll: { request: req, next: req.from + req.size }
  });
  sendScrollPage(ex, ctx, id, shards, req);
}

function sendScrollPage(
  ex: Exchange,
  ctx: Context,
  id: string,
  shards: Shard[],
  req: SearchRequest
): void {
  const { body, warnings } = executeSearch(shards, req, ctx.version, {
    tookFrom: ex.started,
    cache: ctx.state.rankedCache,
    scroll: true
  });
  ex.send(
    200,
    { _scroll_id: id, ...body },
    warnings.length > 0 ? { Warning: warnings } : {}
  );
}

function scrollIdOf(ex: Exchange): {
  id: string | undefined;
  keepAlive: string | undefined;
} {
  const body = ex.json() ?? {};
  const id =
    ex.params['scroll_id'] ?? ex.query.get('scroll_id') ?? body['scroll_id'];
  const keepAlive = ex.query.get('scroll') ?? body['scroll'];
  return {
    id: typeof id === 'string' ? id : undefined,
    keepAlive: typeof keepAlive === 'string' ? keepAlive : undefined
  };
}

export function scroll(ex: Exchange, ctx: Context): void {
  const { id, keepAlive } = scrollIdOf(ex);
  if (!id) {
    throw validationFailed(['scrollId is missing']);
  }
  const record = lookupPit(ctx, id, keepAlive);
  if (!record.scroll) {
    throw illegalArgument('Cannot parse scroll id');
  }
  const req: SearchRequest = {
    ...record.scroll.request,
    from: record.scroll.next
  };
  record.scroll.next += req.size;
  sendScrollPage(ex, ctx, id, record.shards, req);
}

export function clearScroll(ex: Exchange, ctx: Context): void {
  const body = ex.json() ?? {};
  const raw = ex.params['scroll_id'] ?? body['scroll_id'];
  const ids = (
    Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []
  ).map(String);
  if (ids.length === 0) {
    throw validationFailed(['no scroll ids specified']);
  }
  ctx.state.sweepPits();
  let freed = 0;
  for (const id of ids) {
    if (id === '_all') {
      for (const [k, r] of ctx.state.pits) {
        if (r.scroll && ctx.state.pits.delete(k)) {
          freed++;
        }
      }
    } else if (ctx.state.pits.get(id)?.scroll && ctx.state.pits.delete(id)) {
      freed++;
    }
  }
  ex.send(freed > 0 ? 200 : 404, { succeeded: true, num_freed: freed });
}

/**
 * `_msearch`: NDJSON pairs of a header (`index`, ...) and a search body; each search answers
 * on its own, failures as `{error, status}` in their place.
 */
export function msearch(ex: Exchange, ctx: Context): void {
  const lines = ex.body
    .toString('utf8')
    .split('\n')
    .filter(l => l.trim() !== '');
  if (lines.length === 0) {
    throw validationFailed(['no requests added']);
  }
  const responses: JsonObject[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    let header: Json;
    let body: Json;
    try {
      header = JSON.parse(lines[i] as string) as Json;
      body = JSON.parse(lines[i + 1] ?? '{}') as Json;
    } catch (err) {
      throw badJson((err as Error).message);
    }
    try {
      if (!isObject(header) || !isObject(body)) {
        throw parsingError('msearch request must be an object');
      }
      const rawIndex = header['index'];
      const expr = Array.isArray(rawIndex)
        ? rawIndex.map(String).join(',')
        : typeof rawIndex === 'string'
          ? rawIndex
          : ex.params['index'];
      const req = readSearchRequest(ex, body, ctx.version);
      const { body: answer } = executeSearch(
        shardsFor(ex, ctx, expr),
        req,
        ctx.version,
        { tookFrom: Date.now(), cache: ctx.state.rankedCache }
      );
      responses.push({ ...answer, status: 200 });
    } catch (err) {
      if (!(err instanceof EsError)) {
        throw err;
      }
      const failed = err.body as { error: Json; status: number };
      responses.push({ error: failed.error, status: failed.status });
    }
  }
  ex.send(200, { took: Date.now() - ex.started, responses });
}
