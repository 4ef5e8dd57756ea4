/**
 * Puts a search's hits in the order of its sort (ties by global ordinal, as ES's shard
 * document order), once, so that every page of the same search over the same snapshot is a
 * slice: from/size is an offset, and search_after a binary search when the sort values of a
 * key are all of one type (otherwise a scan, keeping exactly the hits that compare after).
 */
import type { Scores } from './scorer';
import { compareTuples, type SortSpec, type SortValue } from './sort';

/** Hits in global ordinal order (shard by shard, positions ascending), with their scores. */
export interface CollectedHits {
  /** null when all come from shard 0. */
  shard: Uint16Array | null;
  pos: Int32Array;
  score: Scores;
  length: number;
}

type KeyKind = 'score' | 'doc' | 'field';
type KeyType = 'number' | 'string' | 'none' | 'mixed';

export interface RankedHits extends CollectedHits {
  kinds: KeyKind[];
  /** Per sort key read from a field, each hit's value in rank order. */
  columns: (SortValue[] | null)[];
  /** Per sort key, the one type its values compare as, or 'mixed' (no binary search then); worked out at the first search_after. */
  types: KeyType[] | null;
  /** Global ordinal of shard i's first document. */
  bases: number[];
  maxScore: number | null;
}

const ORDINAL_BITS = 2 ** 21;

/** The value compareTuples compares in place of a missing one, when `missing` names one. */
function effective(spec: SortSpec, v: SortValue): SortValue {
  const m = spec.missing;
  if (
    v === null &&
    m !== '_last' &&
    m !== '_first' &&
    m !== null &&
    (typeof m === 'string' || typeof m === 'number')
  ) {
    return m;
  }
  return v;
}

function typeOf(values: SortValue[], spec: SortSpec): KeyType {
  let type: KeyType = 'none';
  for (const raw of values) {
    const v = effective(spec, raw);
    if (v === null) {
      continue;
    }
    const t =
      typeof v === 'number'
        ? Number.isFinite(v)
          ? 'number'
          : 'mixed'
        : 'string';
    if (type === 'none') {
      type = t;
    } else if (type !== t) {
      return 'mixed';
    }
  }
  return type;
}

export function shardOf(hits: CollectedHits, i: number): number {
  return hits.shard ? (hits.shard[i] as number) : 0;
}

export function tupleAt(r: RankedHits, i: number): SortValue[] {
  return r.kinds.map((kind, k) =>
    kind === 'score'
      ? (r.score[i] as number)
      : kind === 'doc'
        ? (r.bases[shardOf(r, i)] as number) + (r.pos[i] as number)
        : ((r.columns[k] as SortValue[])[i] ?? null)
  );
}

/**
 * Orders collected hits. `fieldValue(k, i)` reads sort key k of collected hit i (only asked
 * for keys of kind 'field').
 */
export function rankHits(
  hits: CollectedHits,
  specs: SortSpec[],
  kinds: KeyKind[],
  bases: number[],
  fieldValue: (k: number, i: number) => SortValue
): RankedHits {
  const n = hits.length;
  let maxScore: number | null = null;
  for (let i = 0; i < n; i++) {
    const s = hits.score[i] as number;
    if (maxScore === null || s > maxScore) {
      maxScore = s;
    }
  }
  const ordinal = (i: number): number =>
    (bases[shardOf(hits, i)] as number) + (hits.pos[i] as number);
  let order: ArrayLike<number>;
  let columns: (SortValue[] | null)[] = kinds.map(() => null);
  if (specs.length === 1 && kinds[0] === 'score') {
    order = scoreOrder(hits.score, n, (specs[0] as SortSpec).order);
  } else {
    const tuples: SortValue[][] = [];
    for (let i = 0; i < n; i++) {
      tuples.push(
        kinds.map((kind, k) =>
          kind === 'score'
            ? (hits.score[i] as number)
            : kind === 'doc'
              ? ordinal(i)
              : fieldValue(k, i)
        )
      );
    }
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort(
      (x, y) =>
        compareTuples(
          specs,
          tuples[x] as SortValue[],
          tuples[y] as SortValue[]
        ) || ordinal(x) - ordinal(y)
    );
    order = idx;
    columns = kinds.map((kind, k) =>
      kind === 'field'
        ? idx.map(i => (tuples[i] as SortValue[])[k] ?? null)
        : null
    );
  }
  if (order === IN_COLLECTED_ORDER) {
    return { ...hits, kinds, columns, types: null, bases, maxScore };
  }
  const shard = hits.shard ? new Uint16Array(n) : null;
  const pos = new Int32Array(n);
  const score =
    hits.score instanceof Float32Array
      ? new Float32Array(n)
      : new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    if (shard) {
      shard[r] = shardOf(hits, i);
    }
    pos[r] = hits.pos[i] as number;
    score[r] = hits.score[i] as number;
  }
  return {
    shard,
    pos,
    score,
    length: n,
    kinds,
    columns,
    types: null,
    bases,
    maxScore
  };
}

function typesOf(r: RankedHits, specs: SortSpec[]): KeyType[] {
  r.types ??= specs.map((spec, k) => {
    if (r.kinds[k] === 'doc') {
      return 'number';
    }
    if (r.kinds[k] === 'field') {
      return typeOf(r.columns[k] as SortValue[], spec);
    }
    for (let i = 0; i < r.length; i++) {
      if (!Number.isFinite(r.score[i] as number)) {
        return 'mixed';
      }
    }
    return r.length > 0 ? 'number' : 'none';
  });
  return r.types;
}

/** Rank order by score alone, ties by collection (= ordinal) order. */
function scoreOrder(
  scores: Scores,
  n: number,
  direction: 1 | -1
): ArrayLike<number> {
  const first = scores[0] as number;
  let allEqual = true;
  for (let i = 1; i < n && allEqual; i++) {
    allEqual = scores[i] === first;
  }
  if (allEqual) {
    return IN_COLLECTED_ORDER;
  }
  let packable = n <= ORDINAL_BITS;
  for (let i = 0; i < n && packable; i++) {
    const s = scores[i] as number;
    packable = s >= 0 && !Object.is(s, -0) && Math.fround(s) === s;
  }
  if (packable) {
    // Non-negative float32 bit patterns order like the numbers; with the ordinal in the low bits
    // one native numeric sort of doubles does it (exact: at most 32 + 21 bits).
    const f = new Float32Array(1);
    const bits = new Uint32Array(f.buffer);
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      f[0] = scores[i] as number;
      const b = bits[0] as number;
      keys[i] = (direction === -1 ? 0xffffffff - b : b) * ORDINAL_BITS + i;
    }
    keys.sort();
    const out = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      out[r] = (keys[r] as number) % ORDINAL_BITS;
    }
    return out;
  }
  const idx = Array.from({ length: n }, (_, i) => i);
  // Same as compareTuples on [score] (a NaN comparison falls through to the ordinal, too).
  idx.sort(
    (x, y) =>
      ((scores[x] as number) - (scores[y] as number)) * direction || x - y
  );
  return idx;
}

/** Marks an order that is the collected one, so the hit arrays are kept as they are. */
const IN_COLLECTED_ORDER: ArrayLike<number> = { length: -1 };

/**
 * Rank indices of one page: `size` hits from `from`, counting only hits that sort after
 * `after` when it is given.
 */
export function pageOf(
  r: RankedHits,
  specs: SortSpec[],
  after: SortValue[] | undefined,
  from: number,
  size: number
): number[] {
  let start = 0;
  if (after) {
    const types = typesOf(r, specs);
    const fits = specs.every((spec, k) => {
      const v = effective(spec, after[k] ?? null);
      const t = types[k];
      if (v === null || t === 'none') {
        return true;
      }
      return (
        t ===
        (typeof v === 'number'
          ? Number.isFinite(v)
            ? 'number'
            : 'mixed'
          : 'string')
      );
    });
    const isAfter = (i: number): boolean =>
      compareTuples(specs, tupleAt(r, i), after) > 0;
    if (!fits) {
      const out: number[] = [];
      let skip = from;
      for (let i = 0; i < r.length && out.length < size; i++) {
        if (!isAfter(i)) {
          continue;
        }
        if (skip > 0) {
          skip--;
        } else {
          out.push(i);
        }
      }
      return out;
    }
    let lo = 0;
    let hi = r.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAfter(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    start = lo;
  }
  const out: number[] = [];
  for (let i = start + from; i < Math.min(r.length, start + from + size); i++) {
    out.push(i);
  }
  return out;
}
