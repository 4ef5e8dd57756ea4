/**
 * Parts of an Elasticsearch request that failed while the request answered 2xx: items of a
 * `_bulk` (`"errors": true`), searches of an `_msearch`, documents of an `_mget`, the
 * `failures` of `_delete_by_query` / `_update_by_query` / `_reindex`, and failed shards of a
 * search (`_shards.failed`). Each says how many of how many, with the first reasons.
 * https://www.elastic.co/guide/en/elasticsearch/reference/current/docs-bulk.html#bulk-api-response-body
 */
import type { JsonValue } from '../../console/cell';
import type { JsonObject } from '../../../../contracts/json';
import type { PartialFailure } from '../../../../contracts/mime-types';
import { asObject } from '../../driver-core/document-columns';
import type { EngineResponse } from '../../driver-core/driver';
import { firstReasons } from '../../driver-core/partial-failure-reasons';
import { describeCause, errorCauses } from './error-cause';

/**
 * An item's error as the engine put it (`mapper_parsing_exception: failed to parse field
 * [price] ...`), then the end of its `caused_by` chain when that says something else: for an
 * item the outer reason names the field and the document, the inner one the value's problem.
 */
function causeText(error: JsonValue | undefined): string {
  const object = asObject(error);
  if (!object) {
    return typeof error === 'string' ? error : JSON.stringify(error ?? null);
  }
  const outer = [object.type, object.reason]
    .filter((part): part is string => typeof part === 'string')
    .join(': ');
  const [deepest] = errorCauses({
    type: null,
    reason: null,
    ...(object.caused_by === undefined ? {} : { caused_by: object.caused_by })
  }).causes;
  const inner = deepest ? describeCause(deepest) : '';
  if (!outer) {
    return inner || JSON.stringify(object);
  }
  return inner && inner !== outer ? `${outer} (caused by ${inner})` : outer;
}

function bulkItems(body: JsonObject): PartialFailure | undefined {
  if (body.errors !== true || !Array.isArray(body.items)) {
    return undefined;
  }
  const failed: string[] = [];
  for (const item of body.items) {
    const [action, result] = Object.entries(asObject(item) ?? {})[0] ?? [];
    const r = asObject(result);
    if (!r || r.error === undefined) {
      continue;
    }
    failed.push(
      `${action} ${typeof r._id === 'string' ? r._id : '(no id)'}${typeof r._index === 'string' ? ` in ${r._index}` : ''} (${String(r.status ?? '')}): ${causeText(r.error)}`
    );
  }
  return {
    failed: failed.length,
    of: body.items.length,
    unit: 'items',
    outcome: 'failed',
    reasons: firstReasons(failed)
  };
}

function msearchErrors(body: JsonObject): PartialFailure | undefined {
  if (!Array.isArray(body.responses)) {
    return undefined;
  }
  const failed = body.responses.flatMap((r, i) => {
    const error = asObject(r)?.error;
    return error === undefined ? [] : [`search ${i + 1}: ${causeText(error)}`];
  });
  return failed.length > 0
    ? {
        failed: failed.length,
        of: body.responses.length,
        unit: 'searches',
        outcome: 'failed',
        reasons: firstReasons(failed)
      }
    : undefined;
}

function mgetDocs(body: JsonObject): PartialFailure[] {
  if (!Array.isArray(body.docs)) {
    return [];
  }
  const docs = body.docs.map(d => asObject(d) ?? {});
  const name = (d: JsonObject) =>
    `${typeof d._id === 'string' ? d._id : '(no id)'}${typeof d._index === 'string' ? ` in ${d._index}` : ''}`;
  const errors = docs
    .filter(d => d.error !== undefined)
    .map(d => `${name(d)}: ${causeText(d.error)}`);
  const missing = docs
    .filter(d => d.error === undefined && d.found === false)
    .map(name);
  const parts: PartialFailure[] = [];
  if (errors.length > 0) {
    parts.push({
      failed: errors.length,
      of: docs.length,
      unit: 'documents',
      outcome: 'failed',
      reasons: firstReasons(errors)
    });
  }
  if (missing.length > 0) {
    parts.push({
      failed: missing.length,
      of: docs.length,
      unit: 'documents',
      outcome: 'not found',
      reasons: firstReasons(missing)
    });
  }
  return parts;
}

/** `_delete_by_query`, `_update_by_query`, `_reindex`: `failures` beside the `total` it worked on. */
function byQueryFailures(body: JsonObject): PartialFailure | undefined {
  if (!Array.isArray(body.failures) || body.failures.length === 0) {
    return undefined;
  }
  const reasons = body.failures.map(f => {
    const failure = asObject(f) ?? {};
    const where =
      typeof failure.id === 'string'
        ? `${failure.id}${typeof failure.index === 'string' ? ` in ${failure.index}` : ''}`
        : typeof failure.index === 'string'
          ? `${failure.index} shard ${String(failure.shard ?? '?')}`
          : 'a document';
    return `${where}: ${causeText(failure.cause ?? failure.reason)}`;
  });
  const total =
    typeof body.total === 'number' ? body.total : body.failures.length;
  return {
    failed: body.failures.length,
    of: Math.max(total, body.failures.length),
    unit: 'documents',
    outcome: 'failed',
    reasons: firstReasons(reasons)
  };
}

/** Shards that failed in one answer (a search, a count, one search of an `_msearch`). */
function shardFailures(answer: JsonObject | undefined): {
  failed: number;
  total: number;
  reasons: string[];
} {
  const shards = asObject(answer?._shards);
  if (!shards || typeof shards.failed !== 'number' || shards.failed === 0) {
    return { failed: 0, total: 0, reasons: [] };
  }
  const reasons = (Array.isArray(shards.failures) ? shards.failures : []).map(
    f => {
      const failure = asObject(f) ?? {};
      return `${typeof failure.index === 'string' ? failure.index : '?'} shard ${String(failure.shard ?? '?')}: ${causeText(failure.reason)}`;
    }
  );
  return {
    failed: shards.failed,
    total: typeof shards.total === 'number' ? shards.total : shards.failed,
    reasons
  };
}

/** Every partial failure of a 2xx answer; empty when the whole request succeeded. */
export function elasticsearchPartialFailures(
  response: EngineResponse
): PartialFailure[] {
  if (response.status >= 300 || response.body.kind !== 'json') {
    return [];
  }
  const body = asObject(response.body.value);
  if (!body) {
    return [];
  }
  const parts: PartialFailure[] = [];
  for (const part of [
    bulkItems(body),
    msearchErrors(body),
    byQueryFailures(body)
  ]) {
    if (part && part.failed > 0) {
      parts.push(part);
    }
  }
  parts.push(...mgetDocs(body));
  const answers = Array.isArray(body.responses)
    ? body.responses.map(r => asObject(r))
    : [body];
  const shards = answers.map(shardFailures).reduce(
    (a, b) => ({
      failed: a.failed + b.failed,
      total: a.total + b.total,
      reasons: [...a.reasons, ...b.reasons]
    }),
    { failed: 0, total: 0, reasons: [] }
  );
  if (shards.failed > 0) {
    parts.push({
      failed: shards.failed,
      of: shards.total,
      unit: 'shards',
      outcome: 'failed',
      reasons: firstReasons(shards.reasons)
    });
  }
  return parts;
}
