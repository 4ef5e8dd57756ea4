/**
 * What a compiled query is: a per-document scorer, optionally able to list every matching
 * document of an indexed snapshot at once (through the token index) so that a search need
 * not call it on every document. Both must agree exactly: `matches` lists the positions
 * where the scorer does not return NO_MATCH, with the scores it returns there.
 */
import type { IndexedView } from './field-indexes';
import type { DocView } from './values';

export const NO_MATCH = -1;

/** Scores as stored: 32-bit while every score is a float32 value (they all are in practice), else 64-bit. */
export type Scores = Float32Array | Float64Array;

/** Matching documents of one snapshot: ascending positions in its `docs`, and their scores. */
export interface DocMatches {
  positions: Int32Array;
  scores: Scores;
}

export interface Scorer {
  (view: DocView): number;
  /** Set when the matches can be found without scoring every document; given the snapshot the scorer was compiled for. */
  matches?: (snapshot: IndexedView) => DocMatches;
  /**
   * Set when how many documents of the snapshot match can be told from doc values: of all its
   * documents (sorted doc values, none visited), or of those at `among` (ascending positions);
   * undefined from it when they cannot tell after all.
   */
  count?: (snapshot: IndexedView, among?: Int32Array) => number | undefined;
}

export const EMPTY_MATCHES: DocMatches = {
  positions: new Int32Array(0),
  scores: new Float32Array(0)
};

/** `n` copies of one score, in the narrowest array that holds it exactly. */
export function constantScores(n: number, score: number): Scores {
  return (
    Math.fround(score) === score ? new Float32Array(n) : new Float64Array(n)
  ).fill(score);
}

export function withMatches(
  run: (view: DocView) => number,
  matches: ((snapshot: IndexedView) => DocMatches) | undefined
): Scorer {
  const scorer: Scorer = view => run(view);
  if (matches) {
    scorer.matches = matches;
  }
  return scorer;
}

/**
 * Growable (position, score) output in ascending position order. Give it the most it can
 * hold when known: large arrays count as external memory, and allocating some 64 MB of them
 * makes V8 run a full collection of a heap that holds a million documents (~200 ms). For
 * the same reason scores are kept in 32 bits until one needs more.
 */
export class MatchesBuilder {
  private positions: Int32Array;
  private scores: Scores;
  private n = 0;

  constructor(capacity = 64) {
    this.positions = new Int32Array(Math.max(capacity, 1));
    this.scores = new Float32Array(Math.max(capacity, 1));
  }

  /** A score of NO_MATCH is no match, whatever arithmetic produced it: skipped, as searches skip it. */
  push(pos: number, score: number): void {
    if (score === NO_MATCH) {
      return;
    }
    if (this.n === this.positions.length) {
      const positions = new Int32Array(this.n * 2);
      positions.set(this.positions);
      this.positions = positions;
      this.scores = this.widened(
        this.scores instanceof Float64Array,
        this.n * 2
      );
    }
    if (this.scores instanceof Float32Array && Math.fround(score) !== score) {
      this.scores = this.widened(true, this.scores.length);
    }
    this.positions[this.n] = pos;
    this.scores[this.n] = score;
    this.n++;
  }

  build(): DocMatches {
    return {
      positions: this.positions.subarray(0, this.n),
      scores: this.scores.subarray(0, this.n)
    };
  }

  private widened(wide: boolean, capacity: number): Scores {
    const scores = wide
      ? new Float64Array(capacity)
      : new Float32Array(capacity);
    scores.set(this.scores.subarray(0, this.n));
    return scores;
  }
}

/** Ascending positions held by every list. */
export function intersectPositions(lists: Int32Array[]): Int32Array {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let acc = sorted[0] ?? new Int32Array(0);
  for (const other of sorted.slice(1)) {
    const out = new Int32Array(acc.length);
    let n = 0;
    let j = 0;
    for (let i = 0; i < acc.length; i++) {
      const p = acc[i] as number;
      while (j < other.length && (other[j] as number) < p) {
        j++;
      }
      if (j < other.length && other[j] === p) {
        out[n++] = p;
      }
    }
    acc = out.subarray(0, n);
  }
  return acc;
}

/** Ascending positions held by any list, for a snapshot of `size` documents. */
export function unionPositions(lists: Int32Array[], size: number): Int32Array {
  if (lists.length === 1) {
    return lists[0] as Int32Array;
  }
  const seen = new Uint8Array(size);
  let n = 0;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as number;
      if (seen[p] === 0) {
        seen[p] = 1;
        n++;
      }
    }
  }
  const out = new Int32Array(n);
  let k = 0;
  for (let p = 0; p < size; p++) {
    if (seen[p] === 1) {
      out[k++] = p;
    }
  }
  return out;
}

/**
 * Merges per-clause matches, visiting clauses in order for each document as the per-document
 * scorer does, so that sums add in the same order. `fold` gets the running value
 * (NO_MATCH before the first matching clause) and returns the next one; `finish` turns the
 * final value into a score, or NO_MATCH.
 */
export function mergeMatches(
  snapshot: IndexedView,
  parts: DocMatches[],
  fold: (
    acc: number,
    score: number,
    extra: Float64Array,
    pos: number
  ) => number,
  finish: (acc: number, extra: Float64Array, pos: number) => number
): DocMatches {
  const size = snapshot.docs.length;
  const acc = new Float64Array(size).fill(NO_MATCH);
  const extra = new Float64Array(size);
  const seen = new Uint8Array(size);
  for (const part of parts) {
    for (let i = 0; i < part.positions.length; i++) {
      const pos = part.positions[i] as number;
      seen[pos] = 1;
      acc[pos] = fold(acc[pos] as number, part.scores[i] as number, extra, pos);
    }
  }
  const out = new MatchesBuilder(
    Math.min(
      size,
      parts.reduce((n, p) => n + p.positions.length, 0)
    )
  );
  for (let pos = 0; pos < size; pos++) {
    if (seen[pos] === 0) {
      continue;
    }
    const s = finish(acc[pos] as number, extra, pos);
    if (s !== NO_MATCH) {
      out.push(pos, s);
    }
  }
  return out.build();
}
