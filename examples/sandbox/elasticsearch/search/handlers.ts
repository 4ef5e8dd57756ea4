/** `_search` (GET with a body, or POST) and `_count`, with or without a point in time. */
import { authorizeExplicit, narrow, requireIndices } from '../auth';
import type { Context } from '../context';
import { EsError, esError, illegalArgument, parsingError } from '../errors';
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

/**
 * `_msearch`: NDJSON of header and search lines; each search runs as `_search` would on the
 * header's index (or the path's), and a failed one answers its error and status in its place.
 */
export function msearch(ex: Exchange, ctx: Context): void {
  const lines = ex.body.toString('utf8').split('\n').filter((line) => line.trim().length > 0);
  if (lines.length === 0 || lines.length % 2 !== 0) throw illegalArgument('The msearch request must be terminated by a newline [\n]');
  const pathIndex = ex.params['index'];
  const saved = ex.params;
  const responses: unknown[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    try {
      const header = JSON.parse(lines[i] as string) as { index?: unknown };
      const body = JSON.parse(lines[i + 1] as string) as Record<string, unknown>;
      const index = typeof header.index === 'string' ? header.index : Array.isArray(header.index) ? header.index.join(',') : pathIndex;
      ex.params = { ...ex.params, ...(index === undefined ? {} : { index }) };
      const req = readSearchRequest(ex, body as Parameters<typeof readSearchRequest>[1]);
      responses.push({ ...executeSearch(shardsFor(ex, ctx), req, ctx.version, { tookFrom: ex.started, cache: ctx.state.rankedCache }).body, status: 200 });
    } catch (err) {
      if (!(err instanceof EsError)) throw err;
      responses.push({ ...(err.body as object), status: err.status });
    } finally {
      ex.params = saved;
    }
  }
  ex.send(200, { took: Date.now() - ex.started, responses });
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
