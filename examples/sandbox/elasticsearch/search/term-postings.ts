/**
 * The documents holding one term in one text field, with the term's frequency in each.
 * Documents are named by sequence number, which only grows: a refresh appends the new
 * documents in sequence order, so a list stays sorted without ever being re-sorted, and a
 * replaced or deleted document's entry stays behind (searches skip sequence numbers their
 * snapshot does not hold; the owning index rebuilds when too many are dead).
 */

/** A term seen once with frequency 1 is stored as the bare sequence number: most terms of an id-like field. */
export type Posting = number | PostingList;

export class PostingList {
  private seqs: Int32Array;
  /** null while every frequency is 1, which saves the array for most terms. */
  private tfs: Int32Array | null = null;
  length = 0;

  constructor(capacity = 4) {
    this.seqs = new Int32Array(capacity);
  }

  /** Callers append in increasing sequence order. */
  add(seq: number, tf: number): void {
    if (this.length === this.seqs.length) this.grow();
    if (tf !== 1 && !this.tfs) this.tfs = new Int32Array(this.seqs.length).fill(1);
    this.seqs[this.length] = seq;
    if (this.tfs) this.tfs[this.length] = tf;
    this.length++;
  }

  seqAt(i: number): number {
    return this.seqs[i] as number;
  }

  tfAt(i: number): number {
    return this.tfs ? (this.tfs[i] as number) : 1;
  }

  /** Frequency of the term in document `seq`, 0 when absent (binary search). */
  tfOf(seq: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.seqs[mid] as number;
      if (s === seq) return this.tfAt(mid);
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  private grow(): void {
    const capacity = this.seqs.length * 2;
    const seqs = new Int32Array(capacity);
    seqs.set(this.seqs);
    this.seqs = seqs;
    if (this.tfs) {
      const tfs = new Int32Array(capacity);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
  }
}

/** Appends (seq, tf) to a posting, returning the posting to store (it may change representation). */
export function appendPosting(p: Posting | undefined, seq: number, tf: number): Posting {
  if (p === undefined) {
    if (tf === 1) return seq;
    const list = new PostingList(1);
    list.add(seq, tf);
    return list;
  }
  if (typeof p === 'number') {
    const list = new PostingList();
    list.add(p, 1);
    list.add(seq, tf);
    return list;
  }
  p.add(seq, tf);
  return p;
}

export function postingTf(p: Posting | undefined, seq: number): number {
  if (p === undefined) return 0;
  if (typeof p === 'number') return p === seq ? 1 : 0;
  return p.tfOf(seq);
}

export function postingLength(p: Posting | undefined): number {
  if (p === undefined) return 0;
  return typeof p === 'number' ? 1 : p.length;
}

/** Calls `each(seq, tf)` in increasing sequence order. */
export function forEachPosting(p: Posting | undefined, each: (seq: number, tf: number) => void): void {
  if (p === undefined) return;
  if (typeof p === 'number') {
    each(p, 1);
    return;
  }
  for (let i = 0; i < p.length; i++) each(p.seqAt(i), p.tfAt(i));
}
