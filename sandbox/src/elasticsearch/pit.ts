/** Points in time: open (snapshot each index's searchable view), look up with keep-alive, close. */
import { randomBytes } from 'node:crypto';
import { authorizeExplicit, narrow } from './auth';
import type { Context } from './context';
import { esError, illegalArgument, validationFailed } from './errors';
import type { Exchange } from './exchange';
import { optionsFromQuery, resolveIndices } from './resolve';
import type { PitRecord } from './state';
import { atLeast } from './version';

export function parseKeepAlive(text: string, name = 'keep_alive'): number {
  const m = /^(\d+)(nanos|micros|ms|s|m|h|d)$/.exec(text.trim());
  if (!m) {
    throw illegalArgument(
      `failed to parse setting [${name}] with value [${text}] as a time value: unit is missing or unrecognized`
    );
  }
  const unit = {
    nanos: 1e-6,
    micros: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000
  }[m[2] as 'ms'];
  return Number(m[1]) * unit;
}

export function encodeId(contextId: number): string {
  // Opaque to clients, like ES's; the context number lets an expired id be reported by number.
  const buf = Buffer.concat([randomBytes(12), Buffer.from(`:${contextId}`)]);
  return buf.toString('base64');
}

function decodeContextId(id: string): number | undefined {
  const text = Buffer.from(id, 'base64').subarray(12).toString('latin1');
  const m = /^:(\d+)$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

export function openPit(ex: Exchange, ctx: Context): void {
  const keepAlive = ex.query.get('keep_alive');
  const expr = ex.params['index'];
  const problems: string[] = [];
  if (!expr) {
    problems.push('[index] is not specified');
  }
  if (keepAlive === null || keepAlive === '') {
    problems.push('[keep_alive] is not specified');
  }
  if (problems.length > 0) {
    throw validationFailed(problems);
  }
  const ms = parseKeepAlive(keepAlive as string);
  authorizeExplicit(ex, ctx.state, 'pit', expr);
  const indices = narrow(
    ex,
    'pit',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  ctx.state.sweepPits();
  const contextId = ctx.state.newContextId();
  const id = encodeId(contextId);
  const now = Date.now();
  const record: PitRecord = {
    contextId,
    shards: indices.map(index => ({ index, docs: index.searchable(now) })),
    expiresAt: now + ms
  };
  ctx.state.pits.set(id, record);
  const body: Record<string, unknown> = { id };
  if (atLeast(ctx.version, 8, 16)) {
    body['_shards'] = {
      total: indices.length,
      successful: indices.length,
      skipped: 0,
      failed: 0
    };
  }
  ex.send(200, body);
}

export function lookupPit(
  ctx: Context,
  id: string,
  keepAlive: string | undefined
): PitRecord {
  ctx.state.sweepPits();
  const pit = ctx.state.pits.get(id);
  if (!pit) {
    const contextId = decodeContextId(id);
    if (contextId === undefined) {
      throw illegalArgument('invalid id');
    }
    const cause = {
      type: 'search_context_missing_exception',
      reason: `No search context found for id [${contextId}]`
    };
    throw esError(
      404,
      { type: 'search_phase_execution_exception', reason: 'all shards failed' },
      {
        rootCauses: [cause],
        outerExtra: {
          phase: 'query',
          grouped: true,
          failed_shards: [{ shard: -1, index: null, reason: cause }],
          caused_by: cause
        }
      }
    );
  }
  if (keepAlive !== undefined) {
    pit.expiresAt = Date.now() + parseKeepAlive(keepAlive);
  }
  return pit;
}

export function closePit(ex: Exchange, ctx: Context): void {
  const body = ex.json();
  const id = body?.['id'];
  if (typeof id !== 'string' || id === '') {
    throw validationFailed(['id is required']);
  }
  ctx.state.sweepPits();
  const pit = ctx.state.pits.get(id);
  if (!pit) {
    ex.send(404, { succeeded: true, num_freed: 0 });
    return;
  }
  ctx.state.pits.delete(id);
  ex.send(200, { succeeded: true, num_freed: pit.shards.length });
}
