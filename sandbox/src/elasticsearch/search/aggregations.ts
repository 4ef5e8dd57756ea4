/**
 * Aggregations over the matching documents: terms, range, histogram, date_histogram,
 * filter, nested, reverse_nested (to the root), and the avg/min/max/sum/value_count/cardinality/stats metrics, with
 * sub-aggregations inside buckets.
 */
import {
  esError,
  illegalArgument,
  parsingError,
  shardFailure
} from '../errors';
import { formatWith, parseWithFormat, zoneOffset } from './date-format';
import { resolveDate } from './date-math';
import { compositeAgg } from './composite';
import { isObject, type Json, type JsonObject } from '../json-value';
import type { IndexData } from '../index-data';
import { isNumericType, type ResolvedField } from '../mapping';
import type { EsVersion } from '../version';
import { compileQuery } from './query';
import { NO_MATCH, type Scorer } from './scorer';
import { fielddataError } from './sort';
import { docValues, pathValues, type DocView } from './values';

export interface AggDoc {
  view: DocView;
  index: IndexData;
}

interface AggEnv {
  version: EsVersion;
  /** The searched indices: field types are checked against their mappings even when no document matches. */
  indices: IndexData[];
  buckets: number;
  /** Compiled filters per (aggregation, index): filters are compiled against each mapping. */
  cache: Map<string, Scorer>;
}

const BUCKET_KINDS = new Set([
  'terms',
  'range',
  'histogram',
  'date_histogram',
  'filter',
  'filters',
  'nested',
  'reverse_nested',
  'missing',
  'composite'
]);
/** search.max_buckets' default. */
const MAX_BUCKETS = 65536;
const METRIC_KINDS = new Set([
  'avg',
  'min',
  'max',
  'sum',
  'value_count',
  'cardinality',
  'stats'
]);

export function validateAggs(aggs: Json | undefined): void {
  if (aggs === undefined) {
    return;
  }
  if (!isObject(aggs)) {
    throw parsingError(
      'Expected [START_OBJECT] under [aggregations], but got a [VALUE_STRING]'
    );
  }
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def)) {
      throw parsingError(
        `Expected [START_OBJECT] under [${name}], but got a [VALUE_STRING] in [${name}]`
      );
    }
    const kinds = Object.keys(def).filter(
      k => k !== 'aggs' && k !== 'aggregations' && k !== 'meta'
    );
    const kind = kinds[0];
    if (!kind) {
      throw parsingError(`Missing definition for aggregation [${name}]`);
    }
    if (kinds.length > 1) {
      throw parsingError(
        `Found two aggregation type definitions in [${name}]: [${kinds[0]}] and [${kinds[1]}]`
      );
    }
    if (!BUCKET_KINDS.has(kind) && !METRIC_KINDS.has(kind)) {
      const err = esError(
        400,
        {
          type: 'parsing_exception',
          reason: `Unknown aggregation type [${kind}]`,
          line: 1,
          col: 1
        },
        {
          rootCauses: [
            {
              type: 'parsing_exception',
              reason: `Unknown aggregation type [${kind}]`,
              line: 1,
              col: 1
            }
          ],
          outerExtra: {
            caused_by: {
              type: 'named_object_not_found_exception',
              reason: `[1:1] unknown field [${kind}]`
            }
          }
        }
      );
      err.locate = { key: kind, at: 'value' };
      throw err;
    }
    validateAggs(def['aggs'] ?? def['aggregations']);
  }
}

export function runAggregations(
  aggs: JsonObject,
  docs: AggDoc[],
  version: EsVersion,
  indices: IndexData[]
): JsonObject {
  return level(aggs, docs, { version, cache: new Map(), indices, buckets: 0 });
}

/** Counts buckets against search.max_buckets, failing as ES does past it. */
function countBuckets(env: AggEnv, n: number): void {
  env.buckets += n;
  if (env.buckets <= MAX_BUCKETS) {
    return;
  }
  const cause = {
    type: 'too_many_buckets_exception',
    reason: `Trying to create too many buckets. Must be less than or equal to: [${MAX_BUCKETS}] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
    max_buckets: MAX_BUCKETS
  };
  // 7.x answers 503 (the shard's failure status), 8.x 400.
  const status = env.version.major === 7 ? 503 : 400;
  throw esError(
    status,
    { type: 'search_phase_execution_exception', reason: '' },
    {
      rootCauses: [],
      outerExtra: {
        phase: 'fetch',
        grouped: true,
        failed_shards: [],
        caused_by: cause
      }
    }
  );
}

/** Numeric metrics refuse fields without numeric doc values, before any document is read. */
function checkNumericField(kind: string, spec: JsonObject, env: AggEnv): void {
  const name = spec['field'];
  if (typeof name !== 'string') {
    return;
  }
  for (const index of env.indices) {
    const f = index.mapping.resolve(name);
    if (!f) {
      continue;
    }
    if (f.type === 'text' || f.type === 'match_only_text') {
      throw fielddataError(env.version, index, name);
    }
    if (!isNumericType(f.type) && f.type !== 'date' && f.type !== 'boolean') {
      throw shardFailure(
        400,
        {
          type: 'illegal_argument_exception',
          reason: `Field [${name}] of type [${f.type}] is not supported for aggregation [${kind}]`
        },
        index
      );
    }
  }
}

/** The first field definition the searched indices give a name, for formats. */
function fieldDef(name: Json | undefined, env: AggEnv): ResolvedField | null {
  if (typeof name !== 'string') {
    return null;
  }
  for (const index of env.indices) {
    const f = index.mapping.resolve(name);
    if (f) {
      return f;
    }
  }
  return null;
}

/** The value a terms order path reads from a bucket's sub-aggregation results: `agg`, `agg.metric`, `agg>sub.metric`. */
function orderValue(bucket: JsonObject, path: string): number | null {
  const [aggPath, metric] = path.includes('.')
    ? [
        path.slice(0, path.lastIndexOf('.')),
        path.slice(path.lastIndexOf('.') + 1)
      ]
    : [path, 'value'];
  let cur: Json | undefined = bucket;
  for (const step of aggPath.split('>')) {
    cur = isObject(cur) ? cur[step] : undefined;
  }
  const v = isObject(cur)
    ? (cur[metric] ?? (metric === 'value' ? cur['doc_count'] : undefined))
    : undefined;
  return typeof v === 'number' ? v : null;
}

/** terms `include` / `exclude`: a list of exact values, or a regular expression the whole value must match. */
function valueFilter(
  include: Json | undefined,
  exclude: Json | undefined
): (v: string | number) => boolean {
  const test = (
    spec: Json | undefined
  ): ((v: string | number) => boolean) | undefined => {
    if (Array.isArray(spec)) {
      const set = new Set(spec.map(String));
      return v => set.has(String(v));
    }
    if (typeof spec === 'string') {
      const re = new RegExp(`^(?:${spec})$`, 's');
      return v => re.test(String(v));
    }
    return undefined;
  };
  const inc = test(include);
  const exc = test(exclude);
  return v => (!inc || inc(v)) && !(exc && exc(v));
}

function level(aggs: JsonObject, docs: AggDoc[], env: AggEnv): JsonObject {
  const out: JsonObject = {};
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def)) {
      continue;
    }
    const kind = Object.keys(def).find(
      k => k !== 'aggs' && k !== 'aggregations' && k !== 'meta'
    ) as string;
    const spec = def[kind];
    const subs = def['aggs'] ?? def['aggregations'];
    const sub = (bucketDocs: AggDoc[]): JsonObject =>
      isObject(subs) ? level(subs, bucketDocs, env) : {};
    out[name] = one(kind, isObject(spec) ? spec : {}, docs, sub, env, name);
  }
  return out;
}

function fieldFor(
  doc: AggDoc,
  name: string,
  env: AggEnv
): ResolvedField | null {
  const f = doc.index.mapping.resolve(name);
  if (f && (f.type === 'text' || f.type === 'match_only_text')) {
    throw fielddataError(env.version, doc.index, name);
  }
  return f;
}

function valuesOf(
  doc: AggDoc,
  spec: JsonObject,
  env: AggEnv
): { field: ResolvedField | null; values: (string | number)[] } {
  const name = spec['field'];
  if (typeof name !== 'string') {
    throw illegalArgument(
      `Required one of fields [field, script], but none were specified.${env.version.major === 7 ? ' ' : ''}`
    );
  }
  const field = fieldFor(doc, name, env);
  const values = field ? docValues(doc.view, field) : [];
  if (
    values.length === 0 &&
    spec['missing'] !== undefined &&
    spec['missing'] !== null
  ) {
    const m = spec['missing'];
    return { field, values: [typeof m === 'number' ? m : String(m)] };
  }
  return { field, values };
}

/** A metric of a date field also prints as a date, beside its number. */
export function withDateString(
  o: JsonObject,
  key: string,
  v: number | null,
  type: string,
  format: string | undefined
): JsonObject {
  if (type === 'date' && v !== null) {
    o[`${key}_as_string`] = formatWith(v, format);
  }
  return o;
}

const fmtDouble = (n: number): string =>
  Number.isInteger(n) ? n.toFixed(1) : String(n);

function one(
  kind: string,
  spec: JsonObject,
  docs: AggDoc[],
  sub: (d: AggDoc[]) => JsonObject,
  env: AggEnv,
  aggName: string
): JsonObject {
  switch (kind) {
    case 'avg':
    case 'min':
    case 'max':
    case 'sum':
    case 'value_count':
    case 'cardinality':
    case 'stats': {
      if (kind !== 'value_count' && kind !== 'cardinality') {
        checkNumericField(kind, spec, env);
      }
      const nums: number[] = [];
      const distinct = new Set<string | number>();
      let type = '';
      for (const d of docs) {
        const { field, values } = valuesOf(d, spec, env);
        if (field) {
          type = field.type;
        }
        for (const v of values) {
          if (kind === 'cardinality') {
            distinct.add(v);
          }
          if (typeof v === 'number') {
            nums.push(v);
          }
        }
      }
      if (kind === 'value_count') {
        return {
          value: docs.reduce(
            (n, d) => n + valuesOf(d, spec, env).values.length,
            0
          )
        };
      }
      if (kind === 'cardinality') {
        return { value: distinct.size };
      }
      const sum = nums.reduce((a, b) => a + b, 0);
      // A loop, not Math.min(...nums): spreading a million values overflows the call stack.
      let min: number | null = null;
      let max: number | null = null;
      for (const v of nums) {
        min = min === null || v < min ? v : min;
        max = max === null || v > max ? v : max;
      }
      const format =
        typeof spec['format'] === 'string'
          ? spec['format']
          : fieldDef(spec['field'], env)?.format;
      const withDate = (
        o: JsonObject,
        key: string,
        v: number | null
      ): JsonObject => withDateString(o, key, v, type, format);
      if (kind === 'sum') {
        return { value: sum };
      }
      if (kind === 'avg') {
        return withDate(
          { value: nums.length ? sum / nums.length : null },
          'value',
          nums.length ? sum / nums.length : null
        );
      }
      if (kind === 'min') {
        return withDate({ value: min }, 'value', min);
      }
      if (kind === 'max') {
        return withDate({ value: max }, 'value', max);
      }
      const stats: JsonObject = {
        count: nums.length,
        min,
        max,
        avg: nums.length ? sum / nums.length : null,
        sum
      };
      // A date field's stats also print as dates, when there are any.
      if (type === 'date' && nums.length > 0) {
        for (const key of ['min', 'max', 'avg', 'sum']) {
          withDate(stats, key, stats[key] as number);
        }
      }
      return stats;
    }
    case 'terms': {
      const size = typeof spec['size'] === 'number' ? spec['size'] : 10;
      const minDocCount =
        typeof spec['min_doc_count'] === 'number' ? spec['min_doc_count'] : 1;
      const groups = new Map<string | number, AggDoc[]>();
      let type = 'keyword';
      const wanted = valueFilter(spec['include'], spec['exclude']);
      for (const d of docs) {
        const { field, values } = valuesOf(d, spec, env);
        if (field) {
          type = field.type;
        }
        for (const v of new Set(values)) {
          if (!wanted(v)) {
            continue;
          }
          let g = groups.get(v);
          if (!g) {
            groups.set(v, (g = []));
          }
          g.push(d);
        }
      }
      const orders = (
        Array.isArray(spec['order'])
          ? spec['order']
          : [isObject(spec['order']) ? spec['order'] : { _count: 'desc' }]
      )
        .filter(isObject)
        .flatMap(o =>
          Object.entries(o).map(([k, d]) => ({
            key: k === '_term' ? '_key' : k,
            dir: String(d) === 'asc' ? 1 : -1
          }))
        );
      const cmpKey = (a: string | number, b: string | number): number =>
        typeof a === 'number' && typeof b === 'number'
          ? a - b
          : String(a) < String(b)
            ? -1
            : String(a) > String(b)
              ? 1
              : 0;
      const bySubAgg = orders.some(o => o.key !== '_key' && o.key !== '_count');
      // Ordering by a sub-aggregation needs every bucket's sub-results before the top ones are picked.
      const entries = [...groups.entries()]
        .filter(([, g]) => g.length >= minDocCount)
        .map(([key, g]) => ({ key, g, subs: bySubAgg ? sub(g) : undefined }));
      entries.sort((a, b) => {
        for (const o of orders) {
          let c: number;
          if (o.key === '_key') {
            c = cmpKey(a.key, b.key);
          } else if (o.key === '_count') {
            c = a.g.length - b.g.length;
          } else {
            const x = orderValue(a.subs as JsonObject, o.key);
            const y = orderValue(b.subs as JsonObject, o.key);
            c = x === y ? 0 : x === null ? 1 : y === null ? -1 : x - y;
            if (x === null || y === null) {
              c = o.dir * c;
            }
          }
          if (c !== 0) {
            return c * o.dir;
          }
        }
        return cmpKey(a.key, b.key);
      });
      const shown = entries.slice(0, size);
      countBuckets(env, shown.length);
      const other = entries.slice(size).reduce((n, e) => n + e.g.length, 0);
      const format =
        typeof spec['format'] === 'string'
          ? spec['format']
          : fieldDef(spec['field'], env)?.format;
      const buckets = shown.map(({ key, g, subs }) => {
        const b: JsonObject = { key };
        if (type === 'boolean') {
          b['key_as_string'] = key === 1 ? 'true' : 'false';
        } else if (type === 'date' && typeof key === 'number') {
          b['key_as_string'] = formatWith(key, format);
        }
        b['doc_count'] = g.length;
        return { ...b, ...(subs ?? sub(g)) };
      });
      return {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: other,
        buckets
      };
    }
    case 'range': {
      const ranges = Array.isArray(spec['ranges'])
        ? spec['ranges'].filter(isObject)
        : [];
      if (ranges.length === 0) {
        throw esError(400, {
          type: 'illegal_argument_exception',
          reason: `No [ranges] specified for the [${aggName}] aggregation`
        });
      }
      const dateField = fieldDef(spec['field'], env);
      const isDate = dateField?.type === 'date';
      const format =
        typeof spec['format'] === 'string' ? spec['format'] : dateField?.format;
      // On a date field the bounds are dates (or date math) and the keys print them in the field's format.
      const edge = (v: Json | undefined): number | undefined =>
        v === undefined || v === null
          ? undefined
          : typeof v === 'number'
            ? v
            : isDate
              ? resolveDate(v, false, Date.now(), format)
              : Number(v);
      const shown = (n: number): string =>
        isDate ? formatWith(n, format) : fmtDouble(n);
      const buckets = ranges.map(r => {
        const from = edge(r['from']);
        const to = edge(r['to']);
        const inBucket = docs.filter(d =>
          valuesOf(d, spec, env).values.some(
            v =>
              typeof v === 'number' &&
              (from === undefined || v >= from) &&
              (to === undefined || v < to)
          )
        );
        const key =
          typeof r['key'] === 'string'
            ? r['key']
            : `${from === undefined ? '*' : shown(from)}-${to === undefined ? '*' : shown(to)}`;
        const b: JsonObject = { key };
        if (from !== undefined) {
          b['from'] = from;
        }
        if (from !== undefined && isDate) {
          b['from_as_string'] = shown(from);
        }
        if (to !== undefined) {
          b['to'] = to;
        }
        if (to !== undefined && isDate) {
          b['to_as_string'] = shown(to);
        }
        b['doc_count'] = inBucket.length;
        return { ...b, ...sub(inBucket) };
      });
      if (spec['keyed'] === true) {
        return {
          buckets: Object.fromEntries(
            buckets.map(b => {
              const { key, ...rest } = b;
              return [String(key), rest];
            })
          )
        };
      }
      return { buckets };
    }
    case 'histogram':
    case 'date_histogram': {
      const date = kind === 'date_histogram';
      const interval = date ? dateInterval(spec) : Number(spec['interval']);
      if (!date && (!Number.isFinite(interval) || interval <= 0)) {
        throw esError(400, {
          type: 'illegal_argument_exception',
          reason: `[interval] must be >0 for histogram aggregation [${aggName}]`
        });
      }
      const offset = typeof spec['offset'] === 'number' ? spec['offset'] : 0;
      const minDocCount =
        typeof spec['min_doc_count'] === 'number' ? spec['min_doc_count'] : 0;
      const keyOf = (v: number): number =>
        date
          ? dateKey(v, spec)
          : Math.floor((v - offset) / interval) * interval + offset;
      const groups = new Map<number, AggDoc[]>();
      for (const d of docs) {
        const keys = new Set(
          valuesOf(d, spec, env)
            .values.filter((v): v is number => typeof v === 'number')
            .map(keyOf)
        );
        for (const k of keys) {
          let g = groups.get(k);
          if (!g) {
            groups.set(k, (g = []));
          }
          g.push(d);
        }
      }
      const keys = [...groups.keys()].sort((a, b) => a - b);
      const bounds = isObject(spec['extended_bounds'])
        ? spec['extended_bounds']
        : undefined;
      const boundKey = (v: Json | undefined): number | undefined => {
        const n = date
          ? v === undefined
            ? undefined
            : parseWithFormat(
                v,
                typeof spec['format'] === 'string'
                  ? `${spec['format']}||strict_date_optional_time||epoch_millis`
                  : undefined
              )
          : typeof v === 'number'
            ? v
            : undefined;
        return n === undefined ? undefined : keyOf(n);
      };
      const low = Math.min(
        ...[keys[0], boundKey(bounds?.['min'])].filter(
          (k): k is number => k !== undefined
        )
      );
      const high = Math.max(
        ...[keys[keys.length - 1], boundKey(bounds?.['max'])].filter(
          (k): k is number => k !== undefined
        )
      );
      const all: number[] = [];
      if (minDocCount === 0 && Number.isFinite(low) && Number.isFinite(high)) {
        // Empty buckets from the first to the last key (or the extended bounds), as ES fills them.
        for (
          let k = low;
          k <= high;
          k = date ? nextDateKey(k, spec) : k + interval
        ) {
          all.push(k);
          if (all.length > MAX_BUCKETS) {
            countBuckets(env, all.length);
          }
        }
      } else {
        all.push(...keys);
      }
      const format =
        typeof spec['format'] === 'string'
          ? spec['format']
          : fieldDef(spec['field'], env)?.format;
      const zoneMinutes = date ? (zoneOffset(spec['time_zone']) ?? 0) : 0;
      const kept = all
        .map(k => ({ k, g: groups.get(k) ?? [] }))
        .filter(({ g }) => g.length >= minDocCount);
      countBuckets(env, kept.length);
      const buckets = kept.map(({ k, g }) => {
        const b: JsonObject = date
          ? {
              key_as_string: formatWith(k, format, zoneMinutes),
              key: k,
              doc_count: g.length
            }
          : { key: k, doc_count: g.length };
        if (!date && typeof spec['format'] === 'string') {
          b['key_as_string'] = String(k);
        }
        return { ...b, ...sub(g) };
      });
      return { buckets };
    }
    case 'filter': {
      const matched = matching(docs, spec, env, aggName);
      return { doc_count: matched.length, ...sub(matched) };
    }
    case 'filters': {
      const filters = isObject(spec['filters']) ? spec['filters'] : {};
      const buckets: JsonObject = {};
      for (const [k, f] of Object.entries(filters)) {
        const matched = matching(docs, f, env, `${aggName}/${k}`);
        buckets[k] = { doc_count: matched.length, ...sub(matched) };
      }
      return { buckets };
    }
    case 'missing': {
      const matched = docs.filter(d => {
        const f =
          typeof spec['field'] === 'string'
            ? d.index.mapping.resolve(spec['field'])
            : null;
        return !f || docValues(d.view, f).length === 0;
      });
      return { doc_count: matched.length, ...sub(matched) };
    }
    case 'composite':
      return compositeAgg(
        spec,
        docs,
        sub,
        (d, source) => valuesOf(d, source, env).values,
        (d, name) => fieldFor(d, name, env)
      );
    case 'nested': {
      const path = String(spec['path'] ?? '');
      const inner: AggDoc[] = [];
      for (const d of docs) {
        for (const obj of pathValues(d.view.source, path.split('.'))) {
          if (isObject(obj)) {
            inner.push({
              index: d.index,
              view: { source: d.view.source, nestedPath: path, nested: obj }
            });
          }
        }
      }
      return { doc_count: inner.length, ...sub(inner) };
    }
    case 'reverse_nested': {
      // Back from nested objects to the documents holding them (the root level only), each once.
      const seen = new Set<JsonObject>();
      const roots: AggDoc[] = [];
      for (const d of docs) {
        if (seen.has(d.view.source)) {
          continue;
        }
        seen.add(d.view.source);
        roots.push({ index: d.index, view: { source: d.view.source } });
      }
      return { doc_count: roots.length, ...sub(roots) };
    }
    default:
      return {};
  }
}

/** The documents a filter matches, its scorer looked up once per index rather than per document. */
function matching(
  docs: AggDoc[],
  spec: Json,
  env: AggEnv,
  key: string
): AggDoc[] {
  const matched: AggDoc[] = [];
  let index: AggDoc['index'] | undefined;
  let scorer: Scorer | undefined;
  for (const d of docs) {
    if (d.index !== index || scorer === undefined) {
      index = d.index;
      scorer = filterFor(spec, d, env, key);
    }
    if (scorer(d.view) !== NO_MATCH) {
      matched.push(d);
    }
  }
  return matched;
}

function filterFor(spec: Json, doc: AggDoc, env: AggEnv, key: string): Scorer {
  const cacheKey = `${key}@${doc.index.uuid}`;
  let s = env.cache.get(cacheKey);
  if (!s) {
    s = compileQuery(spec, {
      index: doc.index,
      major: env.version.major,
      scores: false
    }).run;
    env.cache.set(cacheKey, s);
  }
  return s;
}

const FIXED: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000
};
const CALENDAR_ALIASES: Record<string, string> = {
  minute: '1m',
  hour: '1h',
  day: '1d',
  week: '1w',
  month: '1M',
  quarter: '1q',
  year: '1y'
};

function calendarUnit(spec: JsonObject): string | undefined {
  const c = spec['calendar_interval'] ?? spec['interval'];
  if (typeof c !== 'string') {
    return undefined;
  }
  const u = CALENDAR_ALIASES[c] ?? c;
  return /^1[wMqy]$/.test(u) ? u.slice(1) : undefined;
}

function dateInterval(spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (unit) {
    return 0;
  }
  const raw = String(
    spec['fixed_interval'] ??
      spec['calendar_interval'] ??
      spec['interval'] ??
      ''
  );
  const text = CALENDAR_ALIASES[raw] ?? raw;
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!m) {
    throw esError(400, {
      type: 'illegal_argument_exception',
      reason: `The supplied interval [${raw}] could not be parsed as a calendar interval.`
    });
  }
  return Number(m[1]) * (FIXED[m[2] as string] as number);
}

/** Rounding happens in the request's time zone: shift into it, round, shift back. */
function dateKey(ms: number, spec: JsonObject): number {
  const off = (zoneOffset(spec['time_zone']) ?? 0) * 60_000;
  return utcDateKey(ms + off, spec) - off;
}

function utcDateKey(ms: number, spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (!unit) {
    const step = dateInterval(spec);
    return Math.floor(ms / step) * step;
  }
  const d = new Date(ms);
  if (unit === 'y') {
    return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
  if (unit === 'q') {
    return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
  }
  if (unit === 'M') {
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
}

function nextDateKey(key: number, spec: JsonObject): number {
  const off = (zoneOffset(spec['time_zone']) ?? 0) * 60_000;
  return utcNextDateKey(key + off, spec) - off;
}

function utcNextDateKey(key: number, spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (!unit) {
    return key + dateInterval(spec);
  }
  const d = new Date(key);
  if (unit === 'w') {
    return key + 7 * 86_400_000;
  }
  const months = unit === 'y' ? 12 : unit === 'q' ? 3 : 1;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
}

export { isNumericType };
