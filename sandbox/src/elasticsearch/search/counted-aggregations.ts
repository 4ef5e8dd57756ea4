/**
 * Aggregations answered from doc values instead of each matching document's _source: `filter`
 * and `filters` buckets whose filters can count themselves (a range, term or exists on a
 * numeric or date field), and min, max and value_count of such a field, without
 * sub-aggregations. When the query matches every document they come from sorted doc values
 * (binary searches: how an engine counts the rows before a value in a sorted grid without
 * reading them), otherwise from the column at each matching position. Anything else is
 * undefined here, and aggregated document by document as before; the answer is the same
 * either way.
 */
import type { IndexData } from '../index-data';
import { isObject, type Json, type JsonObject } from '../json-value';
import { isNumericType, type ResolvedField } from '../mapping';
import type { StoredDoc } from '../stored-doc';
import type { EsVersion } from '../version';
import { withDateString } from './aggregations';
import type { IndexedView } from './field-indexes';
import { compileQuery } from './query';
import {
  sortedDocValues,
  summaryAmong,
  type FieldSummary
} from './sorted-doc-values';

/** One searched shard and where its query matched. */
export interface SearchedShard {
  index: IndexData;
  docs: StoredDoc[];
  indexed: IndexedView | undefined;
  /** The matching documents' positions in `docs`, ascending; undefined: all of them. */
  among: Int32Array | undefined;
}

/** Each aggregation's answer, or undefined when one of them needs the documents read. */
export function countedAggregations(
  aggs: JsonObject,
  shards: SearchedShard[],
  version: EsVersion
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def) || Object.keys(def).length !== 1) {
      return undefined;
    }
    const [kind, spec] = Object.entries(def)[0] as [string, Json];
    const answer = counted(kind, spec, shards, version);
    if (answer === undefined) {
      return undefined;
    }
    out[name] = answer;
  }
  return out;
}

function counted(
  kind: string,
  spec: Json,
  shards: SearchedShard[],
  version: EsVersion
): JsonObject | undefined {
  switch (kind) {
    case 'filter': {
      const n = matchCount(spec, shards, version);
      return n === undefined ? undefined : { doc_count: n };
    }
    case 'filters': {
      if (
        !isObject(spec) ||
        Object.keys(spec).length !== 1 ||
        !isObject(spec['filters'])
      ) {
        return undefined;
      }
      const buckets: JsonObject = {};
      for (const [key, filter] of Object.entries(spec['filters'])) {
        const n = matchCount(filter, shards, version);
        if (n === undefined) {
          return undefined;
        }
        buckets[key] = { doc_count: n };
      }
      return { buckets };
    }
    case 'min':
    case 'max':
    case 'value_count':
      return metric(kind, spec, shards);
    default:
      return undefined;
  }
}

/** Documents the filter matches over all shards, each shard counting its own. */
function matchCount(
  filter: Json,
  shards: SearchedShard[],
  version: EsVersion
): number | undefined {
  let total = 0;
  for (const shard of shards) {
    if (shard.docs.length === 0) {
      continue;
    }
    if (!shard.indexed) {
      return undefined;
    }
    const query = compileQuery(filter, {
      index: shard.index,
      major: version.major,
      docs: shard.docs,
      scores: false,
      indexed: shard.indexed
    });
    const n = query.matchAll
      ? (shard.among?.length ?? shard.docs.length)
      : query.run.count?.(shard.indexed, shard.among);
    if (n === undefined) {
      return undefined;
    }
    total += n;
  }
  return total;
}

function metric(
  kind: 'min' | 'max' | 'value_count',
  spec: Json,
  shards: SearchedShard[]
): JsonObject | undefined {
  if (
    !isObject(spec) ||
    Object.keys(spec).length !== 1 ||
    typeof spec['field'] !== 'string'
  ) {
    return undefined;
  }
  const name = spec['field'];
  const found: FieldSummary[] = [];
  // The format is the first searched index's, the type that of the fields holding documents.
  let format: ResolvedField | undefined;
  let type: string | undefined;
  for (const shard of shards) {
    const field = shard.index.mapping.resolve(name);
    if (field && !(isNumericType(field.type) || field.type === 'date')) {
      return undefined;
    }
    format ??= field ?? undefined;
    if (shard.docs.length === 0) {
      continue;
    }
    const column = field && shard.indexed?.column(field);
    if (!field || !column || (type !== undefined && type !== field.type)) {
      return undefined;
    }
    type = field.type;
    const snapshot = shard.indexed as IndexedView;
    found.push(
      shard.among === undefined
        ? sortedDocValues(snapshot, column, field)
        : summaryAmong(snapshot, column, field, shard.among)
    );
  }
  if (kind === 'value_count') {
    return { value: found.reduce((n, sorted) => n + sorted.values, 0) };
  }
  let value: number | null = null;
  for (const sorted of found) {
    const v = kind === 'min' ? sorted.min : sorted.max;
    if (
      v !== null &&
      (value === null || (kind === 'min' ? v < value : v > value))
    ) {
      value = v;
    }
  }
  return withDateString({ value }, 'value', value, type ?? '', format?.format);
}
