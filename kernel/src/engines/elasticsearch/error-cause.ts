/**
 * The reason an Elasticsearch error really happened. The outer error is often only a wrapper
 * (`search_phase_execution_exception: all shards failed`); the cause is in `root_cause`, the
 * deepest `caused_by`, and each failed shard's `reason`.
 */
import type { JsonValue } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';

export interface Cause {
  type?: string;
  reason?: string;
}

function causeOf(value: JsonValue | undefined): Cause | undefined {
  const object = asObject(value);
  if (!object) {
    return undefined;
  }
  const type = typeof object.type === 'string' ? object.type : undefined;
  const reason = typeof object.reason === 'string' ? object.reason : undefined;
  return type || reason
    ? { ...(type ? { type } : {}), ...(reason ? { reason } : {}) }
    : undefined;
}

/** Follows `caused_by` to its end. */
function deepest(value: JsonValue | undefined): Cause | undefined {
  let node = asObject(value);
  let found = causeOf(value);
  for (let depth = 0; node && depth < 20; depth++) {
    const next = asObject(node.caused_by);
    if (!next) {
      break;
    }
    found = causeOf(next) ?? found;
    node = next;
  }
  return found;
}

export const describeCause = (cause: Cause): string =>
  [cause.type, cause.reason].filter(Boolean).join(': ');

/**
 * The causes, most specific first and without repeats, and the outer error when it says
 * something else: `{ causes: [fielddata...], outer: search_phase_execution_exception... }`.
 */
export function errorCauses(error: Record<string, JsonValue> | undefined): {
  causes: Cause[];
  outer?: Cause;
} {
  if (!error) {
    return { causes: [] };
  }
  const outer = causeOf(error);
  const candidates: (Cause | undefined)[] = [];
  // Most specific first: the end of the caused_by chain (`unknown query [matc]` under
  // `[1:30] failed to parse`), each failed shard's own cause, then the root causes as listed.
  if (error.caused_by !== undefined) {
    candidates.push(deepest(error.caused_by));
  }
  for (const shard of Array.isArray(error.failed_shards)
    ? error.failed_shards
    : []) {
    candidates.push(deepest(asObject(shard)?.reason));
  }
  for (const root of Array.isArray(error.root_cause) ? error.root_cause : []) {
    candidates.push(deepest(root));
  }
  const seen = new Set<string>();
  const causes: Cause[] = [];
  for (const cause of candidates) {
    const text = cause && describeCause(cause);
    if (!cause || !text || seen.has(text)) {
      continue;
    }
    seen.add(text);
    causes.push(cause);
  }
  if (causes.length === 0) {
    return outer ? { causes: [outer] } : { causes: [] };
  }
  const wrapper = outer && !seen.has(describeCause(outer)) ? outer : undefined;
  return { causes, ...(wrapper ? { outer: wrapper } : {}) };
}
