/** `_search` (GET with a body, or POST) and `_count`, with or without a point in time. */
import { authorizeExplicit, narrow, requireIndices } from '../auth';
import type { Context } from '../context';
import { esError, parsingError } from '../errors';
import type { Exchange } from '../exchange';
import { optionsFromQuery, resolveIndices } from '../resolve';
import { lookupPit } from '../pit';
import { executeSearch, matchingDocs, type Shard } from './execute';
import { readSearchRequest } from './request';

function shardsFor(ex: Exchange, ctx: Context): Shard[] {
  const expr = ex.params['index'];
  authorizeExplicit(ex, ctx.state, 'search', expr);
  const indices = narrow(ex, 'search', resolveIndices(ctx.state, expr, optionsFromQuery(ex.query)));
  const now = Date.now();
  return indices.map((index) => ({ index, docs: index.searchable(now) }));
}

export function search(ex: Exchange, ctx: Context): void {
  ctx.state.queryTotal++;
  const req = readSearchRequest(ex, ex.json() ?? {});
  let shards: Shard[];
  let pitId: string | undefined;
  if (req.pit) {
    const pit = lookupPit(ctx, req.pit.id, req.pit.keepAlive);
    requireIndices(ex, ctx.version, 'search', pit.shards.map((s) => s.index.name));
    shards = pit.shards;
    pitId = req.pit.id;
  } else {
    shards = shardsFor(ex, ctx);
  }
  const { body, warnings } = executeSearch(shards, req, ctx.version, { tookFrom: ex.started, cache: ctx.state.rankedCache, ...(pitId ? { pitId } : {}) });
  ex.send(200, body, warnings.length > 0 ? { Warning: warnings } : {});
}

export function count(ex: Exchange, ctx: Context): void {
  const body = ex.json() ?? {};
  for (const k of Object.keys(body)) {
    if (k !== 'query') throw parsingError(`request does not support [${k}]`);
  }
  let query = body['query'];
  const q = ex.query.get('q');
  if (q !== null) query = { query_string: { query: q } };
  const shards = shardsFor(ex, ctx);
  let n = 0;
  for (const s of shards) n += matchingDocs(s, query, ctx.version).length;
  ex.send(200, { count: n, _shards: { total: shards.length, successful: shards.length, skipped: 0, failed: 0 } });
}

export function scrollUnsupported(): never {
  throw esError(400, { type: 'illegal_argument_exception', reason: 'scroll is not supported by the searchbook sandbox; use a point in time with search_after' });
}
