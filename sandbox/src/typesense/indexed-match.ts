/**
 * Keyword matching through the field token indexes: the documents holding every query token
 * (the last one as a prefix when prefix search is on), scored as a scan with matchDocument
 * would score them, in sequence order. Only documents with several values in a queried field
 * are rescanned, because their score counts hits per value.
 */
import type { Collection, DocRecord } from './collection';
import type { Predicate } from './filter/parse';
import type { FieldTokenIndex } from './field-token-index';
import type { Ranked } from './sort';
import {
  matchDocument,
  packScore,
  type QueryField,
  type TextScore
} from './text';

/** Per query field and token position: who holds the token exactly, and who by prefix only. */
interface TokenLists {
  exact: Int32Array;
  prefixed: Int32Array | null;
}

function union(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length === 0) {
    return b;
  }
  if (b.length === 0) {
    return a;
  }
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x <= y) {
      i++;
    }
    if (y <= x) {
      j++;
    }
    out[n++] = x <= y ? x : y;
  }
  while (i < a.length) {
    out[n++] = a[i++] as number;
  }
  while (j < b.length) {
    out[n++] = b[j++] as number;
  }
  return out.subarray(0, n);
}

/**
 * First index at or after `from` whose value is >= `value` (sorted list): gallops then
 * bisects, so a short list walks a long one in steps of its own length, not the long one's.
 */
function seek(list: Int32Array, value: number, from: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < list.length && (list[hi] as number) < value) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, list.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(short.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < short.length && j < long.length; i++) {
    const x = short[i] as number;
    j = seek(long, x, j);
    if (long[j] === x) {
      out[n++] = x;
    }
  }
  return out.subarray(0, n);
}

/** Adds one to scores[k] for each candidate k that is in `list` (both sorted). */
function countListed(
  candidates: Int32Array,
  list: Int32Array,
  scores: Int32Array
): void {
  let j = 0;
  for (let k = 0; k < candidates.length && j < list.length; k++) {
    const c = candidates[k] as number;
    j = seek(list, c, j);
    if (list[j] === c) {
      scores[k] = (scores[k] as number) + 1;
    }
  }
}

/**
 * Matches of `tokens` over `fields`, in ascending sequence order, with their text scores.
 * Same answer as matchDocument over every live document that passes `filter`.
 */
export function indexedMatches(
  coll: Collection,
  tokens: string[],
  fields: QueryField[],
  prefix: boolean,
  filter: Predicate | null
): Ranked[] {
  const last = tokens.length - 1;
  const indexes = new Map<string, FieldTokenIndex>();
  for (const f of fields) {
    if (!indexes.has(f.name)) {
      indexes.set(f.name, coll.tokenIndex(f.name));
    }
  }

  const lists = new Map<string, TokenLists[]>();
  for (const [name, index] of indexes) {
    lists.set(
      name,
      tokens.map((t, i) => ({
        exact: index.exact(t),
        prefixed: prefix && i === last ? index.withPrefix(t) : null
      }))
    );
  }

  let candidates: Int32Array | null = null;
  for (let i = 0; i < tokens.length; i++) {
    let holders: Int32Array = new Int32Array(0);
    for (const perToken of lists.values()) {
      const l = perToken[i] as TokenLists;
      holders = union(holders, l.prefixed ?? l.exact);
    }
    candidates = candidates ? intersect(candidates, holders) : holders;
    if (candidates.length === 0) {
      return [];
    }
  }
  if (!candidates) {
    return [];
  }

  // Per field name, as matchDocument counts: 2 for an exact hit of a token, 1 for a
  // prefix-only hit. Exact holders are among the prefix holders, so counting both lists does it.
  const fieldScores = new Map<string, Int32Array>();
  for (const [name, perToken] of lists) {
    const scores = new Int32Array(candidates.length);
    for (const l of perToken) {
      countListed(candidates, l.exact, scores);
      countListed(candidates, l.prefixed ?? l.exact, scores);
    }
    fieldScores.set(name, scores);
  }
  const byName = [...fieldScores.values()];
  const byField = fields.map(f => ({
    weight: f.weight,
    scores: fieldScores.get(f.name) as Int32Array
  }));

  const multi = [...indexes.values()]
    .map(index => index.multiValued)
    .filter(s => s.size > 0);
  const shared = new Map<number, TextScore>();
  const out: Ranked[] = [];
  let from = 0;
  for (let k = 0; k < candidates.length; k++) {
    const seq = candidates[k] as number;
    const found = coll.recordAt(seq, from);
    if (!found) {
      continue;
    }
    from = found.position + 1;
    const rec: DocRecord = found.rec;
    if (filter && !filter(rec.doc)) {
      continue;
    }
    if (multi.some(s => s.has(seq))) {
      const match = matchDocument(rec.doc, tokens, fields, prefix);
      if (match) {
        out.push({ rec, match });
      }
      continue;
    }
    let best = 0;
    let bestWeight = 0;
    let named = 0;
    for (const scores of byName) {
      if (scores[k] !== 0) {
        named++;
      }
    }
    for (const f of byField) {
      const score = f.scores[k] as number;
      if (score === 0) {
        continue;
      }
      if (score > best || (score === best && f.weight > bestWeight)) {
        best = score;
        bestWeight = f.weight;
      }
    }
    // Few distinct scores occur: one shared object each keeps a large match list small.
    const key = (best * 16 + bestWeight) * 8 + Math.min(named, 7);
    let match = shared.get(key);
    if (!match) {
      shared.set(
        key,
        (match = packScore(tokens.length, best, bestWeight, named))
      );
    }
    out.push({ rec, match });
  }
  return out;
}
