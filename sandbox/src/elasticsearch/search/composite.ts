/**
 * The `composite` aggregation: buckets keyed by one value per source (terms, histogram,
 * date_histogram), in the order of their keys, `size` at a time, resumed `after` a key.
 */
import { illegalArgument } from '../errors';
import { isObject, type Json, type JsonObject } from '../json-value';
import type { ResolvedField } from '../mapping';

type Key = string | number | null;

interface Source {
  name: string;
  kind: string;
  spec: JsonObject;
  dir: 1 | -1;
  missingBucket: boolean;
}

function readSources(spec: JsonObject): Source[] {
  const raw = spec['sources'];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw illegalArgument('Composite [sources] cannot be null or empty');
  }
  return raw.filter(isObject).map(entry => {
    const [name, def] = Object.entries(entry)[0] as [string, Json];
    const [kind, body] = isObject(def)
      ? (Object.entries(def)[0] as [string, Json])
      : ['terms', {}];
    const s = isObject(body) ? body : {};
    return {
      name,
      kind,
      spec: s,
      dir: s['order'] === 'desc' ? -1 : 1,
      missingBucket: s['missing_bucket'] === true
    };
  });
}

function compareKeys(a: Key, b: Key): number {
  if (a === b) {
    return 0;
  }
  if (a === null) {
    return -1;
  }
  if (b === null) {
    return 1;
  }
  return typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a) < String(b)
      ? -1
      : 1;
}

/** `Doc` is whatever the caller's value readers take: the composite only groups and orders. */
export function compositeAgg<Doc>(
  spec: JsonObject,
  docs: Doc[],
  sub: (docs: Doc[]) => JsonObject,
  valuesOf: (doc: Doc, source: JsonObject) => (string | number)[],
  fieldOf: (doc: Doc, name: string) => ResolvedField | null
): JsonObject {
  const sources = readSources(spec);
  const size = typeof spec['size'] === 'number' ? spec['size'] : 10;
  const keyOf = (source: Source, v: string | number): Key => {
    if (source.kind === 'histogram' && typeof v === 'number') {
      const interval = Number(source.spec['interval']);
      return Math.floor(v / interval) * interval;
    }
    if (source.kind === 'date_histogram' && typeof v === 'number') {
      const raw = String(
        source.spec['fixed_interval'] ??
          source.spec['calendar_interval'] ??
          '1d'
      );
      const m = /^(\d+)(ms|s|m|h|d)$/.exec(raw);
      const step = m
        ? Number(m[1]) *
          { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
            m[2] as 'ms'
          ]
        : 86_400_000;
      return Math.floor(v / step) * step;
    }
    return v;
  };
  const groups = new Map<string, { key: Key[]; docs: Doc[] }>();
  for (const d of docs) {
    let combos: Key[][] = [[]];
    for (const source of sources) {
      const values = [
        ...new Set(valuesOf(d, source.spec).map(v => keyOf(source, v)))
      ];
      if (values.length === 0 && source.missingBucket) {
        values.push(null);
      }
      combos = combos.flatMap(c => values.map(v => [...c, v]));
    }
    for (const key of combos) {
      const id = JSON.stringify(key);
      let g = groups.get(id);
      if (!g) {
        groups.set(id, (g = { key, docs: [] }));
      }
      g.docs.push(d);
    }
  }
  const compare = (a: Key[], b: Key[]): number => {
    for (let i = 0; i < sources.length; i++) {
      const c =
        compareKeys(a[i] ?? null, b[i] ?? null) * (sources[i] as Source).dir;
      if (c !== 0) {
        return c;
      }
    }
    return 0;
  };
  let ordered = [...groups.values()].sort((x, y) => compare(x.key, y.key));
  const after = spec['after'];
  if (isObject(after)) {
    const afterKey = sources.map(s => {
      const v = after[s.name];
      return v === undefined || v === null
        ? null
        : typeof v === 'number'
          ? v
          : String(v);
    });
    ordered = ordered.filter(g => compare(g.key, afterKey) > 0);
  }
  const page = ordered.slice(0, size);
  const asObject = (key: Key[]): JsonObject =>
    Object.fromEntries(sources.map((s, i) => [s.name, key[i] ?? null]));
  const bool = (d: Doc | undefined, s: Source): boolean => {
    const name = s.spec['field'];
    return (
      d !== undefined &&
      typeof name === 'string' &&
      fieldOf(d, name)?.type === 'boolean'
    );
  };
  const buckets = page.map(g => {
    const key = asObject(
      g.key.map((k, i) =>
        bool(g.docs[0], sources[i] as Source) && typeof k === 'number'
          ? k === 1
            ? 'true'
            : 'false'
          : k
      )
    );
    return { key, doc_count: g.docs.length, ...sub(g.docs) };
  });
  const out: JsonObject = {};
  const last = buckets[buckets.length - 1];
  if (last) {
    out['after_key'] = last.key;
  }
  out['buckets'] = buckets;
  return out;
}
