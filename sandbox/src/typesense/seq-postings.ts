/**
 * The document sequence numbers holding one token, kept sorted so that lists can be merged
 * and intersected in one pass. Loading appends in sequence order, which stays O(1); updates
 * and deletes of older documents are parked and applied in one pass on the next read, so
 * that deleting many documents does not shift a million-entry list once per document.
 */
export class SeqPostings {
  private seqs: Int32Array;
  private length: number;
  /** Invariant: every parked removal is in `seqs`; no parked addition is. */
  private removed: Set<number> | null = null;
  private added: Set<number> | null = null;

  constructor(first: number, second: number) {
    this.seqs = new Int32Array(4);
    this.seqs[0] = Math.min(first, second);
    this.seqs[1] = Math.max(first, second);
    this.length = 2;
  }

  get size(): number {
    return this.length - (this.removed?.size ?? 0) + (this.added?.size ?? 0);
  }

  /** Callers add a sequence number only when it is not already present. */
  add(seq: number): void {
    if (this.removed?.delete(seq)) {
      return;
    }
    if (this.length === 0 || seq > (this.seqs[this.length - 1] as number)) {
      if (this.length === this.seqs.length) {
        this.grow(this.length * 2);
      }
      this.seqs[this.length++] = seq;
      return;
    }
    (this.added ??= new Set()).add(seq);
    this.settleIfLarge();
  }

  /** Callers remove a sequence number only when it is present. */
  remove(seq: number): void {
    if (this.added?.delete(seq)) {
      return;
    }
    if (!this.removed && this.seqs[this.length - 1] === seq) {
      this.length--;
      return;
    }
    (this.removed ??= new Set()).add(seq);
    this.settleIfLarge();
  }

  /** The sorted list; a view that is valid until the next write. */
  sorted(): Int32Array {
    this.settle();
    return this.seqs.subarray(0, this.length);
  }

  private settleIfLarge(): void {
    // Bounds the parked sets while keeping each full pass paid for by many writes.
    const parked = (this.removed?.size ?? 0) + (this.added?.size ?? 0);
    if (parked > 1024 && parked * 4 > this.length) {
      this.settle();
    }
  }

  private settle(): void {
    const removed = this.removed;
    const added = this.added ? Int32Array.from(this.added).sort() : null;
    if (!removed && !added) {
      return;
    }
    this.removed = null;
    this.added = null;
    const out = new Int32Array(Math.max(4, this.size + (added?.length ?? 0)));
    let n = 0;
    let a = 0;
    for (let i = 0; i < this.length; i++) {
      const s = this.seqs[i] as number;
      if (removed?.has(s)) {
        continue;
      }
      while (added && a < added.length && (added[a] as number) < s) {
        out[n++] = added[a++] as number;
      }
      out[n++] = s;
    }
    while (added && a < added.length) {
      out[n++] = added[a++] as number;
    }
    this.seqs = out;
    this.length = n;
  }

  private grow(capacity: number): void {
    const next = new Int32Array(Math.max(4, capacity));
    next.set(this.seqs.subarray(0, this.length));
    this.seqs = next;
  }
}
