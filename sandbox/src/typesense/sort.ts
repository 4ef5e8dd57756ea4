/**
 * sort_by: at most three `field:asc|desc` clauses over sortable fields, plus the special
 * `_text_match` and `_seq_id`, and geo distance `field(lat, lng):asc`.
 */
import type { Collection, DocRecord } from './collection';
import { ApiError } from './errors';
import { valueAt } from './paths';
import type { TextScore } from './text';

export interface Ranked {
  rec: DocRecord;
  match: TextScore | null;
  /** The query tokens this document matched when it was found through a synonym. */
  tokens?: string[];
  /** Placed by a curation rule or `pinned_hits`. */
  curated?: boolean;
}

type Key = (r: Ranked) => number | string | bigint | undefined;
export interface SortClause {
  name: string;
  desc: boolean;
  key: Key;
}

const MALFORMED = 'Parameter `sort_by` is malformed.';

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let buf = '';
  for (const c of s) {
    if (c === '(') {
      depth++;
    }
    if (c === ')') {
      depth--;
    }
    if (c === ',' && depth === 0) {
      parts.push(buf);
      buf = '';
    } else {
      buf += c;
    }
  }
  if (buf.trim() !== '') {
    parts.push(buf);
  }
  return parts.map(p => p.trim()).filter(p => p !== '');
}

export function parseSortBy(raw: string, coll: Collection): SortClause[] {
  const specs = splitTopLevel(raw).map(part => {
    const colon = part.lastIndexOf(':');
    if (colon <= 0) {
      throw new ApiError(400, MALFORMED);
    }
    const name = part.slice(0, colon).trim();
    const order = part
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (order !== 'asc' && order !== 'desc') {
      throw new ApiError(400, MALFORMED);
    }
    return { name, desc: order === 'desc' };
  });
  if (specs.length > 3) {
    throw new ApiError(400, 'Only upto 3 sort fields are allowed.');
  }
  return specs.map(s => clauseFor(s.name, s.desc, coll));
}

function clauseFor(
  rawName: string,
  desc: boolean,
  coll: Collection
): SortClause {
  if (rawName === '_text_match' || rawName.startsWith('_text_match(')) {
    return { name: '_text_match', desc, key: r => r.match?.score ?? 100n };
  }
  if (rawName === '_seq_id') {
    return { name: rawName, desc, key: r => r.rec.seq };
  }

  const geo =
    /^([^(]+)\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)$/.exec(
      rawName
    );
  const name = geo ? (geo[1] as string).trim() : rawName;
  const field = coll.field(name);
  if (
    !field ||
    !field.sort ||
    !field.index ||
    (geo && field.type !== 'geopoint')
  ) {
    throw new ApiError(
      404,
      `Could not find a field named \`${name}\` in the schema for sorting.`
    );
  }
  if (geo) {
    const lat = Number(geo[2]);
    const lng = Number(geo[3]);
    return {
      name,
      desc,
      key: r => {
        const p = r.rec.doc[name];
        if (!Array.isArray(p)) {
          return undefined;
        }
        return (Number(p[0]) - lat) ** 2 + (Number(p[1]) - lng) ** 2;
      }
    };
  }
  return {
    name,
    desc,
    key: r => {
      const v = valueAt(r.rec.doc, name);
      if (typeof v === 'number' || typeof v === 'string') {
        return v;
      }
      if (typeof v === 'boolean') {
        return v ? 1 : 0;
      }
      return undefined;
    }
  };
}

/** Fills in what the engine adds: text match first for keyword queries, default_sorting_field, then newest first. */
export function effectiveSort(
  explicit: SortClause[],
  coll: Collection,
  wildcard: boolean
): SortClause[] {
  const clauses = [...explicit];
  if (clauses.length === 0) {
    if (!wildcard) {
      clauses.push(clauseFor('_text_match', true, coll));
    }
    if (coll.defaultSortingField !== '') {
      clauses.push(clauseFor(coll.defaultSortingField, true, coll));
    }
  } else if (
    !wildcard &&
    clauses.length < 3 &&
    !clauses.some(c => c.name === '_text_match')
  ) {
    clauses.push(clauseFor('_text_match', true, coll));
  }
  clauses.push({ name: '_seq_id', desc: true, key: r => r.rec.seq });
  return clauses;
}

/** A missing value sorts as the smallest, as the engine's INT64_MIN sentinel does. */
export function compareKeys(
  x: ReturnType<Key>,
  y: ReturnType<Key>,
  desc: boolean
): number {
  if (x === y) {
    return 0;
  }
  const cmp =
    x === undefined ? -1 : y === undefined ? 1 : x < y ? -1 : x > y ? 1 : 0;
  return desc ? -cmp : cmp;
}

export function comparator(
  clauses: SortClause[]
): (a: Ranked, b: Ranked) => number {
  return (a, b) => {
    for (const c of clauses) {
      const cmp = compareKeys(c.key(a), c.key(b), c.desc);
      if (cmp !== 0) {
        return cmp;
      }
    }
    return 0;
  };
}

/**
 * Orders matches given in ascending sequence order (as ranking produces them). The clause
 * list always ends in `_seq_id`, so the order is total and any correct sort gives the same
 * answer; the common shapes skip the comparator, which is slow on large match lists.
 */
export function sortRanked(ranked: Ranked[], clauses: SortClause[]): Ranked[] {
  const [first, second] = clauses;
  if (clauses.length === 1 && first?.name === '_seq_id' && first.desc) {
    return ranked.reverse();
  }
  if (
    clauses.length === 2 &&
    first?.name === '_text_match' &&
    first.desc &&
    second?.name === '_seq_id' &&
    second.desc
  ) {
    return byScoreThenNewest(ranked);
  }
  const keys = clauses.map(c => ranked.map(r => c.key(r)));
  const order = ranked.map((_, i) => i);
  order.sort((a, b) => {
    for (let c = 0; c < clauses.length; c++) {
      const column = keys[c] as ReturnType<Key>[];
      const cmp = compareKeys(
        column[a],
        column[b],
        (clauses[c] as SortClause).desc
      );
      if (cmp !== 0) {
        return cmp;
      }
    }
    return 0;
  });
  return order.map(i => ranked[i] as Ranked);
}

/** Buckets by text match score (few distinct values), newest first within each. */
function byScoreThenNewest(ranked: Ranked[]): Ranked[] {
  const buckets = new Map<bigint, Ranked[]>();
  for (let i = ranked.length - 1; i >= 0; i--) {
    const r = ranked[i] as Ranked;
    const score = r.match?.score ?? 100n;
    let bucket = buckets.get(score);
    if (!bucket) {
      buckets.set(score, (bucket = []));
    }
    bucket.push(r);
  }
  const scores = [...buckets.keys()].sort((a, b) =>
    a > b ? -1 : a < b ? 1 : 0
  );
  return scores.flatMap(s => buckets.get(s) as Ranked[]);
}
