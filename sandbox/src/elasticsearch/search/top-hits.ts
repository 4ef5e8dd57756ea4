/**
 * The first `count` hits of a sort without ranking every match: a bounded heap keeps the best
 * hits seen so far (as Lucene's top-field collector does), so one page of a sort over millions
 * of documents costs one pass over them, not a sort of them all. The order is rank.ts's: the
 * sort's keys, ties by global ordinal; with `after`, only hits that sort after it count.
 */
import { shardOf, type CollectedHits } from './rank';
import {
  compareKey,
  compareTuples,
  type SortSpec,
  type SortValue
} from './sort';

export interface TopHits {
  /** Indices into the collected hits, best first. */
  order: number[];
  /** Each one's sort values, as a hit's `sort` shows them. */
  tuples: SortValue[][];
}

export function topHits(
  hits: CollectedHits,
  specs: SortSpec[],
  kinds: ('score' | 'doc' | 'field')[],
  bases: number[],
  fieldValue: (k: number, i: number) => SortValue,
  after: SortValue[] | undefined,
  count: number
): TopHits {
  const ordinal = (i: number): number =>
    (bases[shardOf(hits, i)] as number) + (hits.pos[i] as number);
  const valueOf = (k: number, i: number): SortValue => {
    const kind = kinds[k];
    return kind === 'score'
      ? (hits.score[i] as number)
      : kind === 'doc'
        ? ordinal(i)
        : fieldValue(k, i);
  };
  const lead = specs[0] as SortSpec;
  // Heap of the kept hits, worst (last in sort order) at the root: slot → hit, and its values.
  const heap: number[] = [];
  const values: SortValue[][] = [];
  const cmp = (a: SortValue[], x: number, b: SortValue[], y: number): number =>
    compareTuples(specs, a, b) || ordinal(x) - ordinal(y);
  const swap = (a: number, b: number): void => {
    const hit = heap[a] as number;
    heap[a] = heap[b] as number;
    heap[b] = hit;
    const tuple = values[a] as SortValue[];
    values[a] = values[b] as SortValue[];
    values[b] = tuple;
  };
  const worse = (a: number, b: number): boolean =>
    cmp(
      values[a] as SortValue[],
      heap[a] as number,
      values[b] as SortValue[],
      heap[b] as number
    ) > 0;
  const siftUp = (at: number): void => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(at, parent)) {
        break;
      }
      swap(at, parent);
      at = parent;
    }
  };
  const siftDown = (at: number): void => {
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) {
        break;
      }
      if (child + 1 < heap.length && worse(child + 1, child)) {
        child++;
      }
      if (!worse(child, at)) {
        break;
      }
      swap(at, child);
      at = child;
    }
  };
  // The candidate's values; an evicted hit's array is reused for the next one.
  let scratch: SortValue[] = new Array<SortValue>(kinds.length);
  for (let i = 0; count > 0 && i < hits.length; i++) {
    // The first key alone settles most hits: before `after`, or after the worst one kept.
    const head = valueOf(0, i);
    if (after && compareKey(lead, head, after[0] ?? null) < 0) {
      continue;
    }
    const full = heap.length >= count;
    if (
      full &&
      compareKey(lead, head, (values[0] as SortValue[])[0] ?? null) > 0
    ) {
      continue;
    }
    scratch[0] = head;
    for (let k = 1; k < kinds.length; k++) {
      scratch[k] = valueOf(k, i);
    }
    if (after && compareTuples(specs, scratch, after) <= 0) {
      continue;
    }
    if (!full) {
      heap.push(i);
      values.push(scratch);
      scratch = new Array<SortValue>(kinds.length);
      siftUp(heap.length - 1);
    } else if (
      cmp(scratch, i, values[0] as SortValue[], heap[0] as number) < 0
    ) {
      const evicted = values[0] as SortValue[];
      heap[0] = i;
      values[0] = scratch;
      scratch = evicted;
      siftDown(0);
    }
  }
  const slots = heap.map((_, slot) => slot);
  slots.sort((a, b) =>
    cmp(
      values[a] as SortValue[],
      heap[a] as number,
      values[b] as SortValue[],
      heap[b] as number
    )
  );
  return {
    order: slots.map(slot => heap[slot] as number),
    tuples: slots.map(slot => values[slot] as SortValue[])
  };
}
