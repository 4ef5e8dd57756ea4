/**
 * `sort` parsing, per-index validation (the text-field and `_id` errors per version, unmapped
 * fields) and the sort values each hit carries, as used by search_after.
 */
import {
  esError,
  illegalArgument,
  parsingError,
  shardFailure,
  type EsError
} from '../errors';
import { isObject, type Json } from '../json-value';
import type { IndexData } from '../index-data';
import type { ResolvedField } from '../mapping';
import { atLeast, type EsVersion } from '../version';
import { longMarker } from '../long-json';
import { NO_VALUE, SEVERAL_VALUES } from './numeric-column';
import { compileQuery } from './query';
import type { QueryEnv } from './query-scorers';
import { NO_MATCH, type Scorer } from './scorer';
import { docValues, pathValues, type DocView } from './values';

export interface SortSpec {
  name: string;
  order: 1 | -1;
  missing: '_last' | '_first' | Json;
  mode?: 'min' | 'max' | 'avg' | 'sum';
  unmappedType?: string;
  nested?: { path: string; filter?: Json };
}

export type SortValue = string | number | null;

export function parseSort(raw: Json | undefined): SortSpec[] {
  if (raw === undefined || raw === null) {
    return [];
  }
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item): SortSpec => {
    if (typeof item === 'string') {
      return {
        name: item,
        order: item === '_score' ? -1 : 1,
        missing: '_last'
      };
    }
    if (!isObject(item)) {
      throw parsingError('[sort] malformed');
    }
    const [name, spec] = Object.entries(item)[0] ?? [];
    if (!name) {
      throw parsingError('[sort] malformed');
    }
    const defaultOrder = name === '_score' ? -1 : 1;
    if (typeof spec === 'string') {
      return { name, order: orderOf(spec, defaultOrder), missing: '_last' };
    }
    if (!isObject(spec)) {
      throw parsingError(`[${name}] sort malformed`);
    }
    const out: SortSpec = {
      name,
      order: orderOf(spec['order'], defaultOrder),
      missing: spec['missing'] ?? '_last'
    };
    if (typeof spec['mode'] === 'string') {
      out.mode = spec['mode'] as SortSpec['mode'] & string;
    }
    if (typeof spec['unmapped_type'] === 'string') {
      out.unmappedType = spec['unmapped_type'];
    }
    const nested = spec['nested'];
    if (isObject(nested) && typeof nested['path'] === 'string') {
      out.nested = { path: nested['path'] };
      if (nested['filter'] !== undefined) {
        out.nested.filter = nested['filter'];
      }
    }
    return out;
  });
}

function orderOf(v: Json | undefined, fallback: 1 | -1): 1 | -1 {
  if (v === undefined || v === null) {
    return fallback;
  }
  const s = String(v).toLowerCase();
  if (s === 'asc') {
    return 1;
  }
  if (s === 'desc') {
    return -1;
  }
  throw illegalArgument(`Unknown SortOrder [${String(v)}]`);
}

/** Parses `sort=field:desc,other` from the query string. */
export function parseSortParam(param: string): SortSpec[] {
  return param
    .split(',')
    .filter(Boolean)
    .map(p => {
      const [name, dir] = p.split(':') as [string, string?];
      return {
        name,
        order: orderOf(dir, name === '_score' ? -1 : 1),
        missing: '_last'
      };
    });
}

/** A sort key bound to one index: how to read a hit's value. */
export interface BoundSort {
  spec: SortSpec;
  kind: 'score' | 'doc' | 'field';
  value?: (view: DocView) => SortValue;
  /**
   * What ES prints in a hit's `sort` for a document without a value, when it is not null:
   * 64-bit integer sorts (long, integer, date...) substitute Long.MAX_VALUE or Long.MIN_VALUE.
   */
  missingShown?: string;
}

const LONG_MAX = longMarker('9223372036854775807');
const LONG_MIN = longMarker('-9223372036854775808');

function missingShown(spec: SortSpec, type: string): string | undefined {
  if (!['long', 'integer', 'short', 'byte', 'date', 'boolean'].includes(type)) {
    return undefined;
  }
  if (spec.missing === '_last') {
    return spec.order === 1 ? LONG_MAX : LONG_MIN;
  }
  if (spec.missing === '_first') {
    return spec.order === 1 ? LONG_MIN : LONG_MAX;
  }
  return undefined;
}

export const ID_FIELDDATA_WARNING =
  '299 Elasticsearch-7.17.0 "Loading the fielddata on the _id field is deprecated and will be removed in future versions. If you require sorting or aggregating on this field you should also include the id in the body of your documents, and map this field as a keyword field that has [doc_values] enabled"';

export function fielddataError(
  version: EsVersion,
  index: IndexData,
  field: string
): EsError {
  const base = `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`;
  const reason = atLeast(version, 8, 5)
    ? `Fielddata is disabled on [${field}] in [${index.name}]. ${base}`
    : base;
  return shardFailure(
    400,
    { type: 'illegal_argument_exception', reason },
    index
  );
}

export function bindSort(
  specs: SortSpec[],
  index: IndexData,
  version: EsVersion,
  env: QueryEnv,
  warn: (w: string) => void
): BoundSort[] {
  return specs.map((spec): BoundSort => {
    if (spec.name === '_score') {
      return { spec, kind: 'score' };
    }
    if (spec.name === '_doc' || spec.name === '_shard_doc') {
      return { spec, kind: 'doc' };
    }
    if (spec.name === '_id') {
      if (version.major >= 8) {
        throw shardFailure(
          400,
          {
            type: 'illegal_argument_exception',
            reason:
              'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled'
          },
          index
        );
      }
      warn(ID_FIELDDATA_WARNING);
      return { spec, kind: 'field', value: view => view.id ?? null };
    }
    const field = index.mapping.resolve(spec.name);
    if (!field) {
      if (spec.unmappedType) {
        const shown = missingShown(spec, spec.unmappedType);
        return {
          spec,
          kind: 'field',
          value: () => null,
          ...(shown !== undefined ? { missingShown: shown } : {})
        };
      }
      throw shardFailure(
        400,
        {
          type: 'query_shard_exception',
          reason: `No mapping found for [${spec.name}] in order to sort on`,
          index_uuid: index.uuid,
          index: index.name
        },
        index
      );
    }
    if (field.type === 'text' || field.type === 'match_only_text') {
      throw fielddataError(version, index, spec.name);
    }
    const shown = missingShown(spec, field.type);
    return {
      spec,
      kind: 'field',
      value: fieldValue(spec, field, env),
      ...(shown !== undefined ? { missingShown: shown } : {})
    };
  });
}

function fieldValue(
  spec: SortSpec,
  field: ResolvedField,
  env: QueryEnv
): (view: DocView) => SortValue {
  const mode = spec.mode ?? (spec.order === 1 ? 'min' : 'max');
  const pick = (values: (string | number)[]): SortValue => {
    if (values.length === 0) {
      return null;
    }
    if (typeof values[0] === 'string') {
      const sorted = [...values].sort();
      return (mode === 'max' ? sorted[sorted.length - 1] : sorted[0]) ?? null;
    }
    const nums = values as number[];
    if (mode === 'max') {
      return Math.max(...nums);
    }
    if (mode === 'sum') {
      return nums.reduce((a, b) => a + b, 0);
    }
    if (mode === 'avg') {
      return nums.reduce((a, b) => a + b, 0) / nums.length;
    }
    return Math.min(...nums);
  };
  if (spec.nested) {
    const path = spec.nested.path;
    const segments = path.split('.');
    const filter: Scorer | null =
      spec.nested.filter !== undefined
        ? compileQuery(spec.nested.filter, env).run
        : null;
    return view => {
      const values: (string | number)[] = [];
      for (const obj of pathValues(view.source, segments)) {
        if (!isObject(obj)) {
          continue;
        }
        const nv: DocView = {
          source: view.source,
          nestedPath: path,
          nested: obj
        };
        if (filter && filter(nv) === NO_MATCH) {
          continue;
        }
        values.push(...docValues(nv, field));
      }
      return pick(values);
    };
  }
  const fromSource = (view: DocView): SortValue => pick(docValues(view, field));
  const column = env.indexed?.column(field);
  if (!column) {
    return fromSource;
  }
  return view => {
    if (view.seq === undefined || view.nestedPath !== undefined) {
      return fromSource(view);
    }
    const value = column.valueOf(view.seq);
    if (value === NO_VALUE) {
      return null;
    }
    return value === SEVERAL_VALUES ? fromSource(view) : pick([value]);
  };
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') {
    return a - b;
  }
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compares two values of one sort key (a missing value placed per `missing`). */
export function compareKey(spec: SortSpec, a: SortValue, b: SortValue): number {
  let x = a;
  let y = b;
  if (
    spec.missing !== '_last' &&
    spec.missing !== '_first' &&
    spec.missing !== null &&
    (typeof spec.missing === 'string' || typeof spec.missing === 'number')
  ) {
    if (x === null) {
      x = spec.missing;
    }
    if (y === null) {
      y = spec.missing;
    }
  }
  if (x === null || y === null) {
    if (x === y) {
      return 0;
    }
    const nullFirst = spec.missing === '_first';
    return (x === null) === nullFirst ? -1 : 1;
  }
  return compareValues(x, y) * spec.order;
}

/** Compares two sort tuples under the specs (missing values placed per `missing`). */
export function compareTuples(
  specs: SortSpec[],
  a: SortValue[],
  b: SortValue[]
): number {
  for (let i = 0; i < specs.length; i++) {
    const c = compareKey(specs[i] as SortSpec, a[i] ?? null, b[i] ?? null);
    if (c !== 0) {
      return c;
    }
  }
  return 0;
}

export function checkSearchAfter(
  after: Json[],
  specs: SortSpec[],
  index: IndexData
): void {
  if (after.length !== specs.length) {
    throw shardFailure(
      400,
      {
        type: 'illegal_argument_exception',
        reason: `search_after has ${after.length} value(s) but sort has ${specs.length}.`
      },
      index
    );
  }
}

export function shardDocWithoutPit(): EsError {
  return esError(400, {
    type: 'action_request_validation_exception',
    reason:
      'Validation Failed: 1: [_shard_doc] sort field cannot be used without [point in time];'
  });
}
