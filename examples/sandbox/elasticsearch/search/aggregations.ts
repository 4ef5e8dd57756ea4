/**
 * Aggregations over the matching documents: terms, range, histogram, date_histogram,
 * filter, nested, and the avg/min/max/sum/value_count/cardinality/stats metrics, with
 * sub-aggregations inside buckets.
 */
import { esError, parsingError } from '../errors';
import { isObject, type Json, type JsonObject } from '../exchange';
import type { IndexData } from '../index-data';
import { isNumericType, type ResolvedField } from '../mapping';
import type { EsVersion } from '../version';
import { compileQuery, NO_MATCH, type Scorer } from './query';
import { fielddataError } from './sort';
import { docValues, pathValues, type DocView } from './values';

export interface AggDoc {
  view: DocView;
  index: IndexData;
}

interface AggEnv {
  version: EsVersion;
  /** Compiled filters per (aggregation, index): filters are compiled against each mapping. */
  cache: Map<string, Scorer>;
}

const BUCKET_KINDS = new Set(['terms', 'range', 'histogram', 'date_histogram', 'filter', 'filters', 'nested', 'missing']);
const METRIC_KINDS = new Set(['avg', 'min', 'max', 'sum', 'value_count', 'cardinality', 'stats']);

export function validateAggs(aggs: Json | undefined): void {
  if (aggs === undefined) return;
  if (!isObject(aggs)) throw parsingError('Expected [START_OBJECT] under [aggregations], but got a [VALUE_STRING]');
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def)) throw parsingError(`Expected [START_OBJECT] under [${name}], but got a [VALUE_STRING] in [${name}]`);
    const kinds = Object.keys(def).filter((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta');
    const kind = kinds[0];
    if (!kind) throw parsingError(`Missing definition for aggregation [${name}]`);
    if (kinds.length > 1) throw parsingError(`Found two aggregation type definitions in [${name}]: [${kinds[0]}] and [${kinds[1]}]`);
    if (!BUCKET_KINDS.has(kind) && !METRIC_KINDS.has(kind)) {
      throw esError(400, { type: 'x_content_parse_exception', reason: `[1:1] unknown field [${kind}]` });
    }
    validateAggs(def['aggs'] ?? def['aggregations']);
  }
}

export function runAggregations(aggs: JsonObject, docs: AggDoc[], version: EsVersion): JsonObject {
  return level(aggs, docs, { version, cache: new Map() });
}

function level(aggs: JsonObject, docs: AggDoc[], env: AggEnv): JsonObject {
  const out: JsonObject = {};
  for (const [name, def] of Object.entries(aggs)) {
    if (!isObject(def)) continue;
    const kind = Object.keys(def).find((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta') as string;
    const spec = def[kind];
    const subs = def['aggs'] ?? def['aggregations'];
    const sub = (bucketDocs: AggDoc[]): JsonObject => (isObject(subs) ? level(subs, bucketDocs, env) : {});
    out[name] = one(kind, isObject(spec) ? spec : {}, docs, sub, env, name);
  }
  return out;
}

function fieldFor(doc: AggDoc, name: string, env: AggEnv): ResolvedField | null {
  const f = doc.index.mapping.resolve(name);
  if (f && (f.type === 'text' || f.type === 'match_only_text')) throw fielddataError(env.version, doc.index, name);
  return f;
}

function valuesOf(doc: AggDoc, spec: JsonObject, env: AggEnv): { field: ResolvedField | null; values: (string | number)[] } {
  const name = spec['field'];
  if (typeof name !== 'string') throw parsingError('Required one of fields [field, script], but none were specified. ');
  const field = fieldFor(doc, name, env);
  const values = field ? docValues(doc.view, field) : [];
  if (values.length === 0 && spec['missing'] !== undefined && spec['missing'] !== null) {
    const m = spec['missing'];
    return { field, values: [typeof m === 'number' ? m : String(m)] };
  }
  return { field, values };
}

const fmtDouble = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n));
const isoDate = (ms: number): string => new Date(ms).toISOString();

function one(kind: string, spec: JsonObject, docs: AggDoc[], sub: (d: AggDoc[]) => JsonObject, env: AggEnv, aggName: string): JsonObject {
  switch (kind) {
    case 'avg':
    case 'min':
    case 'max':
    case 'sum':
    case 'value_count':
    case 'cardinality':
    case 'stats': {
      const nums: number[] = [];
      const distinct = new Set<string | number>();
      let type = '';
      for (const d of docs) {
        const { field, values } = valuesOf(d, spec, env);
        if (field) type = field.type;
        for (const v of values) {
          distinct.add(v);
          if (typeof v === 'number') nums.push(v);
        }
      }
      if (kind === 'value_count') return { value: docs.reduce((n, d) => n + valuesOf(d, spec, env).values.length, 0) };
      if (kind === 'cardinality') return { value: distinct.size };
      const sum = nums.reduce((a, b) => a + b, 0);
      const min = nums.length ? Math.min(...nums) : null;
      const max = nums.length ? Math.max(...nums) : null;
      const withDate = (o: JsonObject, key: string, v: number | null): JsonObject => {
        if (type === 'date' && v !== null) o[`${key}_as_string`] = isoDate(v);
        return o;
      };
      if (kind === 'sum') return { value: sum };
      if (kind === 'avg') return withDate({ value: nums.length ? sum / nums.length : null }, 'value', nums.length ? sum / nums.length : null);
      if (kind === 'min') return withDate({ value: min }, 'value', min);
      if (kind === 'max') return withDate({ value: max }, 'value', max);
      return { count: nums.length, min, max, avg: nums.length ? sum / nums.length : null, sum };
    }
    case 'terms': {
      const size = typeof spec['size'] === 'number' ? spec['size'] : 10;
      const minDocCount = typeof spec['min_doc_count'] === 'number' ? spec['min_doc_count'] : 1;
      const groups = new Map<string | number, AggDoc[]>();
      let type = 'keyword';
      for (const d of docs) {
        const { field, values } = valuesOf(d, spec, env);
        if (field) type = field.type;
        for (const v of new Set(values)) {
          let g = groups.get(v);
          if (!g) groups.set(v, (g = []));
          g.push(d);
        }
      }
      const order = isObject(spec['order']) ? spec['order'] : { _count: 'desc' };
      const [orderKey, orderDir] = Object.entries(order)[0] ?? ['_count', 'desc'];
      const dir = String(orderDir) === 'asc' ? 1 : -1;
      const cmpKey = (a: string | number, b: string | number): number => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
      const entries = [...groups.entries()].filter(([, g]) => g.length >= minDocCount);
      entries.sort((a, b) => {
        const c = orderKey === '_key' || orderKey === '_term' ? cmpKey(a[0], b[0]) * dir : (a[1].length - b[1].length) * dir;
        return c !== 0 ? c : cmpKey(a[0], b[0]);
      });
      const shown = entries.slice(0, size);
      const other = entries.slice(size).reduce((n, [, g]) => n + g.length, 0);
      const buckets = shown.map(([key, g]) => {
        const b: JsonObject = { key };
        if (type === 'boolean') b['key_as_string'] = key === 1 ? 'true' : 'false';
        else if (type === 'date' && typeof key === 'number') b['key_as_string'] = isoDate(key);
        b['doc_count'] = g.length;
        return { ...b, ...sub(g) };
      });
      return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets };
    }
    case 'range': {
      const ranges = Array.isArray(spec['ranges']) ? spec['ranges'].filter(isObject) : [];
      if (ranges.length === 0) throw esError(400, { type: 'illegal_argument_exception', reason: `No [ranges] specified for the [${aggName}] aggregation` });
      const buckets = ranges.map((r) => {
        const from = typeof r['from'] === 'number' ? r['from'] : r['from'] != null ? Number(r['from']) : undefined;
        const to = typeof r['to'] === 'number' ? r['to'] : r['to'] != null ? Number(r['to']) : undefined;
        const inBucket = docs.filter((d) => valuesOf(d, spec, env).values.some((v) => typeof v === 'number' && (from === undefined || v >= from) && (to === undefined || v < to)));
        const key = typeof r['key'] === 'string' ? r['key'] : `${from === undefined ? '*' : fmtDouble(from)}-${to === undefined ? '*' : fmtDouble(to)}`;
        const b: JsonObject = { key };
        if (from !== undefined) b['from'] = from;
        if (to !== undefined) b['to'] = to;
        b['doc_count'] = inBucket.length;
        return { ...b, ...sub(inBucket) };
      });
      if (spec['keyed'] === true) return { buckets: Object.fromEntries(buckets.map((b) => { const { key, ...rest } = b; return [String(key), rest]; })) };
      return { buckets };
    }
    case 'histogram':
    case 'date_histogram': {
      const date = kind === 'date_histogram';
      const interval = date ? dateInterval(spec) : Number(spec['interval']);
      if (!date && (!Number.isFinite(interval) || interval <= 0)) throw esError(400, { type: 'illegal_argument_exception', reason: `[interval] must be >0 for histogram aggregation [${aggName}]` });
      const offset = typeof spec['offset'] === 'number' ? spec['offset'] : 0;
      const minDocCount = typeof spec['min_doc_count'] === 'number' ? spec['min_doc_count'] : 0;
      const keyOf = (v: number): number => (date ? dateKey(v, spec) : Math.floor((v - offset) / interval) * interval + offset);
      const groups = new Map<number, AggDoc[]>();
      for (const d of docs) {
        const keys = new Set(valuesOf(d, spec, env).values.filter((v): v is number => typeof v === 'number').map(keyOf));
        for (const k of keys) {
          let g = groups.get(k);
          if (!g) groups.set(k, (g = []));
          g.push(d);
        }
      }
      const keys = [...groups.keys()].sort((a, b) => a - b);
      const all: number[] = [];
      if (minDocCount === 0 && keys.length > 0) {
        // Empty buckets between the first and last key, as ES fills them (bounded).
        for (let k = keys[0] as number; k <= (keys[keys.length - 1] as number) && all.length < 10_000; k = date ? nextDateKey(k, spec) : k + interval) all.push(k);
      } else all.push(...keys);
      const buckets = all
        .map((k) => ({ k, g: groups.get(k) ?? [] }))
        .filter(({ g }) => g.length >= minDocCount)
        .map(({ k, g }) => {
          const b: JsonObject = date ? { key_as_string: isoDate(k), key: k, doc_count: g.length } : { key: k, doc_count: g.length };
          return { ...b, ...sub(g) };
        });
      return { buckets };
    }
    case 'filter': {
      const matched = docs.filter((d) => filterFor(spec, d, env, aggName)(d.view) !== NO_MATCH);
      return { doc_count: matched.length, ...sub(matched) };
    }
    case 'filters': {
      const filters = isObject(spec['filters']) ? spec['filters'] : {};
      const buckets: JsonObject = {};
      for (const [k, f] of Object.entries(filters)) {
        const matched = docs.filter((d) => filterFor(f, d, env, `${aggName}/${k}`)(d.view) !== NO_MATCH);
        buckets[k] = { doc_count: matched.length, ...sub(matched) };
      }
      return { buckets };
    }
    case 'missing': {
      const matched = docs.filter((d) => {
        const f = typeof spec['field'] === 'string' ? d.index.mapping.resolve(spec['field']) : null;
        return !f || docValues(d.view, f).length === 0;
      });
      return { doc_count: matched.length, ...sub(matched) };
    }
    case 'nested': {
      const path = String(spec['path'] ?? '');
      const inner: AggDoc[] = [];
      for (const d of docs) {
        for (const obj of pathValues(d.view.source, path.split('.'))) {
          if (isObject(obj)) inner.push({ index: d.index, view: { source: d.view.source, nestedPath: path, nested: obj } });
        }
      }
      return { doc_count: inner.length, ...sub(inner) };
    }
    default:
      return {};
  }
}

function filterFor(spec: Json, doc: AggDoc, env: AggEnv, key: string): Scorer {
  const cacheKey = `${key}@${doc.index.uuid}`;
  let s = env.cache.get(cacheKey);
  if (!s) {
    s = compileQuery(spec, { index: doc.index, major: env.version.major, scores: false }).run;
    env.cache.set(cacheKey, s);
  }
  return s;
}

const FIXED: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const CALENDAR_ALIASES: Record<string, string> = { minute: '1m', hour: '1h', day: '1d', week: '1w', month: '1M', quarter: '1q', year: '1y' };

function calendarUnit(spec: JsonObject): string | undefined {
  const c = spec['calendar_interval'] ?? spec['interval'];
  if (typeof c !== 'string') return undefined;
  const u = CALENDAR_ALIASES[c] ?? c;
  return /^1[wMqy]$/.test(u) ? u.slice(1) : undefined;
}

function dateInterval(spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (unit) return 0;
  const raw = String(spec['fixed_interval'] ?? spec['calendar_interval'] ?? spec['interval'] ?? '');
  const text = CALENDAR_ALIASES[raw] ?? raw;
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!m) throw esError(400, { type: 'illegal_argument_exception', reason: `The supplied interval [${raw}] could not be parsed as a calendar interval.` });
  return Number(m[1]) * (FIXED[m[2] as string] as number);
}

function dateKey(ms: number, spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (!unit) {
    const step = dateInterval(spec);
    return Math.floor(ms / step) * step;
  }
  const d = new Date(ms);
  if (unit === 'y') return Date.UTC(d.getUTCFullYear(), 0, 1);
  if (unit === 'q') return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
  if (unit === 'M') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
}

function nextDateKey(key: number, spec: JsonObject): number {
  const unit = calendarUnit(spec);
  if (!unit) return key + dateInterval(spec);
  const d = new Date(key);
  if (unit === 'w') return key + 7 * 86_400_000;
  const months = unit === 'y' ? 12 : unit === 'q' ? 3 : 1;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
}

export { isNumericType };
