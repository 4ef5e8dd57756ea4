/**
 * The documents holding one term in one text field, with the term's frequency and token
 * positions in each. Documents are named by sequence number, which only grows: a refresh
 * appends the new documents in sequence order, so a list stays sorted without ever being
 * re-sorted, and a replaced or deleted document's entry stays behind (searches skip
 * sequence numbers their snapshot does not hold; the owning index rebuilds when too many
 * are dead).
 */

/**
 * Positions below this fit beside the sequence number in a bare posting. Small, so that
 * bare postings stay small integers (no heap number each) for the first 2^26 documents.
 */
const POSITION_SPAN = 32;

/**
 * A term seen once, at one of the first positions, is stored as the bare number
 * seq * 32 + position: that is most terms of an id-like field, and it saves an object per term.
 */
export type Posting = number | PostingList;

export class PostingList {
  private seqs: Int32Array;
  /** null while every frequency is 1, which saves the array for most terms. */
  private tfs: Int32Array | null = null;
  /** Where each entry's positions start in `positions`; null while every frequency is 1 (entry i at i). */
  private starts: Int32Array | null = null;
  private positions: Int32Array;
  private positionCount = 0;
  length = 0;

  constructor(capacity = 4) {
    this.seqs = new Int32Array(capacity);
    this.positions = new Int32Array(capacity);
  }

  /** Callers append in increasing sequence order; `positions` ascending, `tf` of them. */
  add(seq: number, positions: ArrayLike<number>): void {
    const tf = positions.length;
    if (this.length === this.seqs.length) {
      this.grow();
    }
    if (tf !== 1 && !this.tfs) {
      this.tfs = new Int32Array(this.seqs.length).fill(1);
      this.starts = Int32Array.from({ length: this.seqs.length }, (_, i) => i);
    }
    this.seqs[this.length] = seq;
    if (this.tfs) {
      (this.tfs as Int32Array)[this.length] = tf;
    }
    if (this.starts) {
      this.starts[this.length] = this.positionCount;
    }
    this.reservePositions(tf);
    for (let k = 0; k < tf; k++) {
      this.positions[this.positionCount++] = positions[k] as number;
    }
    this.length++;
  }

  seqAt(i: number): number {
    return this.seqs[i] as number;
  }

  tfAt(i: number): number {
    return this.tfs ? (this.tfs[i] as number) : 1;
  }

  positionsAt(i: number): Int32Array {
    const start = this.starts ? (this.starts[i] as number) : i;
    return this.positions.subarray(start, start + this.tfAt(i));
  }

  /** Entry index of document `seq`, or -1 (binary search). */
  find(seq: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.seqs[mid] as number;
      if (s === seq) {
        return mid;
      }
      if (s < seq) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }

  private grow(): void {
    const capacity = this.seqs.length * 2;
    this.seqs = copied(this.seqs, capacity);
    if (this.tfs) {
      this.tfs = copied(this.tfs, capacity);
    }
    if (this.starts) {
      this.starts = copied(this.starts, capacity);
    }
  }

  private reservePositions(more: number): void {
    if (this.positionCount + more <= this.positions.length) {
      return;
    }
    let capacity = this.positions.length * 2;
    while (capacity < this.positionCount + more) {
      capacity *= 2;
    }
    this.positions = copied(this.positions, capacity);
  }
}

function copied(from: Int32Array, capacity: number): Int32Array {
  const to = new Int32Array(capacity);
  to.set(from);
  return to;
}

/** Appends a document's positions of the term, returning the posting to store (it may change representation). */
export function appendPosting(
  p: Posting | undefined,
  seq: number,
  positions: ArrayLike<number>
): Posting {
  if (
    p === undefined &&
    positions.length === 1 &&
    (positions[0] as number) < POSITION_SPAN
  ) {
    return seq * POSITION_SPAN + (positions[0] as number);
  }
  let list: PostingList;
  if (p === undefined) {
    list = new PostingList(1);
  } else if (typeof p === 'number') {
    list = new PostingList();
    list.add(Math.floor(p / POSITION_SPAN), [p % POSITION_SPAN]);
  } else {
    list = p;
  }
  list.add(seq, positions);
  return list;
}

export function postingTf(p: Posting | undefined, seq: number): number {
  if (p === undefined) {
    return 0;
  }
  if (typeof p === 'number') {
    return Math.floor(p / POSITION_SPAN) === seq ? 1 : 0;
  }
  const i = p.find(seq);
  return i < 0 ? 0 : p.tfAt(i);
}

/** Ascending positions of the term in document `seq` (empty when absent). */
export function postingPositions(
  p: Posting | undefined,
  seq: number
): ArrayLike<number> {
  if (p === undefined) {
    return [];
  }
  if (typeof p === 'number') {
    return Math.floor(p / POSITION_SPAN) === seq ? [p % POSITION_SPAN] : [];
  }
  const i = p.find(seq);
  return i < 0 ? [] : p.positionsAt(i);
}

export function postingLength(p: Posting | undefined): number {
  if (p === undefined) {
    return 0;
  }
  return typeof p === 'number' ? 1 : p.length;
}

/** Calls `each(seq, tf)` in increasing sequence order. */
export function forEachPosting(
  p: Posting | undefined,
  each: (seq: number, tf: number) => void
): void {
  if (p === undefined) {
    return;
  }
  if (typeof p === 'number') {
    each(Math.floor(p / POSITION_SPAN), 1);
    return;
  }
  for (let i = 0; i < p.length; i++) {
    each(p.seqAt(i), p.tfAt(i));
  }
}

/** Reads one posting in increasing sequence order: seeks only forward, so a walk over many documents costs one pass. */
export class PostingCursor {
  private i = 0;

  constructor(private readonly p: Posting | undefined) {}

  /** Moves to document `seq` and says whether it holds the term; later seeks must not go back. */
  seek(seq: number): boolean {
    const p = this.p;
    if (p === undefined) {
      return false;
    }
    if (typeof p === 'number') {
      return Math.floor(p / POSITION_SPAN) === seq;
    }
    let step = 1;
    let hi = this.i;
    while (hi < p.length && p.seqAt(hi) < seq) {
      this.i = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, p.length);
    while (this.i < hi) {
      const mid = (this.i + hi) >>> 1;
      if (p.seqAt(mid) < seq) {
        this.i = mid + 1;
      } else {
        hi = mid;
      }
    }
    return this.i < p.length && p.seqAt(this.i) === seq;
  }

  /** Positions of the term in the document found by the last successful seek. */
  positions(): ArrayLike<number> {
    const p = this.p as Posting;
    return typeof p === 'number' ? [p % POSITION_SPAN] : p.positionsAt(this.i);
  }
}
