/**
 * A page of a search sorted by one numeric or date field (then by `_shard_doc`/`_doc` going
 * up, or by nothing), read from the field's order kept per snapshot instead of ranking every
 * match: search_after is a binary search in that order, and the page the next matching
 * documents from there. This is how a sorted grid reads the rows at a far place without the
 * sandbox sorting a million documents each time. Undefined when the sort or the values do not
 * fit (several values to a document, a `missing` or `mode` of its own, search_after values
 * that are not numbers); the search then ranks its matches as before, with the same answer.
 */
import type { IndexData } from '../index-data';
import { isObject, type Json } from '../json-value';
import type { StoredDoc } from '../stored-doc';
import type { IndexedView } from './field-indexes';
import { NO_VALUE, type NumericColumn } from './numeric-column';
import { NO_MATCH, type Scorer } from './scorer';
import { sortedOrder } from './sorted-doc-values';
import {
  compareTuples,
  type BoundSort,
  type SortSpec,
  type SortValue
} from './sort';
import type { DocView } from './values';

/** Field types whose sort values are the column's values as they are. */
const PLAIN_TYPES = new Set([
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'date'
]);

export interface ColumnSortedShard {
  index: IndexData;
  docs: StoredDoc[];
  indexed: IndexedView | undefined;
  sort: BoundSort[];
  /** Global ordinal of the shard's first document. */
  base: number;
}

export interface ColumnSortedPage {
  hits: { pos: number; sort: SortValue[] }[];
  total: number;
}

export function pageInColumnOrder(
  shard: ColumnSortedShard,
  specs: SortSpec[],
  query: {
    json: Json | undefined;
    run: Scorer;
    /** Positions the query matches, ascending; undefined: every document. */
    matched: () => Int32Array | undefined;
  },
  after: SortValue[] | undefined,
  from: number,
  size: number
): ColumnSortedPage | undefined {
  const lead = specs[0];
  const tie = specs[1];
  if (
    !lead ||
    specs.length > 2 ||
    shard.sort[0]?.kind !== 'field' ||
    lead.missing !== '_last' ||
    lead.mode !== undefined ||
    lead.nested !== undefined ||
    lead.unmappedType !== undefined ||
    (tie !== undefined && (shard.sort[1]?.kind !== 'doc' || tie.order !== 1)) ||
    (after !== undefined &&
      !after.every(v => v === null || typeof v === 'number'))
  ) {
    return undefined;
  }
  const field = shard.index.mapping.resolve(lead.name);
  const column = field && shard.indexed?.column(field);
  if (!field || !column || !PLAIN_TYPES.has(field.type)) {
    return undefined;
  }
  const snapshot = shard.indexed as IndexedView;
  const order = sortedOrder(snapshot, column, field, lead.order);
  if (!order) {
    return undefined;
  }
  const seqs = snapshot.seqs();
  const tupleAt = (pos: number): SortValue[] => {
    const value = column.valueOf(seqs[pos] as number);
    const shown = value === NO_VALUE ? null : (value as number);
    return tie ? [shown, shard.base + pos] : [shown];
  };
  let start = 0;
  if (after) {
    // The order is the sort's: the hits after `after` are a suffix of it.
    let hi = order.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (compareTuples(specs, tupleAt(order[mid] as number), after) > 0) {
        hi = mid;
      } else {
        start = mid + 1;
      }
    }
  }
  const within =
    boundOn(query.json, lead.name) &&
    withinBound(order, snapshot, column, query.run);
  let member: Uint8Array | undefined;
  let total = shard.docs.length;
  if (within) {
    total = within.total;
  } else {
    const positions = query.matched();
    if (positions) {
      total = positions.length;
      member = new Uint8Array(shard.docs.length);
      for (let i = 0; i < positions.length; i++) {
        member[positions[i] as number] = 1;
      }
    }
  }
  const hits: ColumnSortedPage['hits'] = [];
  let skip = from;
  for (let i = start; i < order.length && hits.length < size; i++) {
    const pos = order[i] as number;
    if ((member && member[pos] !== 1) || (within && !within.holds(i))) {
      continue;
    }
    if (skip > 0) {
      skip--;
      continue;
    }
    // Sort values as a ranked hit shows them: the bound sort's reading of the document.
    const doc = shard.docs[pos] as StoredDoc;
    const view: DocView = { source: doc.source, id: doc.id, seq: doc.seqNo };
    const read = shard.sort[0]?.value as (view: DocView) => SortValue;
    hits.push({
      pos,
      sort: tie ? [read(view), shard.base + pos] : [read(view)]
    });
  }
  return { hits, total };
}

/**
 * Whether the query is one bound on the sorted field (`range` with one of gt, gte, lt, lte),
 * alone or as a bool's one filter or must_not clause: the rows before or after a place in a
 * sorted grid. Over documents of one value each, its matches among the valued documents are
 * then a run at one end of the field's order.
 */
function boundOn(json: Json | undefined, field: string): boolean {
  let clause = json;
  if (isObject(clause) && isObject(clause['bool'])) {
    const bool = clause['bool'];
    const [kind, list] = Object.entries(bool)[0] ?? [];
    if (
      Object.keys(bool).length !== 1 ||
      (kind !== 'filter' && kind !== 'must_not') ||
      !Array.isArray(list) ||
      list.length !== 1
    ) {
      return false;
    }
    clause = list[0];
  }
  const range = isObject(clause) ? clause['range'] : undefined;
  if (
    !isObject(clause) ||
    Object.keys(clause).length !== 1 ||
    !isObject(range) ||
    Object.keys(range).length !== 1
  ) {
    return false;
  }
  const bounds = range[field];
  if (!isObject(bounds)) {
    return false;
  }
  const keys = Object.keys(bounds).filter(k => k !== 'format');
  return (
    keys.length === 1 && ['gt', 'gte', 'lt', 'lte'].includes(keys[0] as string)
  );
}

/**
 * Where a one-bound query matches along the order, from a few documents asked by binary search:
 * among the valued documents a run at one end (the bound is monotone in the value), among those
 * without a value all or none (the query treats them alike).
 */
function withinBound(
  order: Int32Array,
  snapshot: IndexedView,
  column: NumericColumn,
  run: Scorer
): { total: number; holds: (i: number) => boolean } {
  const seqs = snapshot.seqs();
  const matches = (i: number): boolean =>
    run(snapshot.viewAt(order[i] as number)) !== NO_MATCH;
  // The valued documents come first in the order: find where they end.
  let valued = order.length;
  while (
    valued > 0 &&
    column.valueOf(seqs[order[valued - 1] as number] as number) === NO_VALUE
  ) {
    valued--;
  }
  const missingHeld = valued < order.length && matches(valued);
  let from = 0;
  let to = 0;
  if (valued > 0) {
    const first = matches(0);
    const last = matches(valued - 1);
    if (first && last) {
      to = valued;
    } else if (first || last) {
      // The first position whose answer differs from the first one's.
      let lo = 1;
      let hi = valued - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (matches(mid) === first) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      [from, to] = first ? [0, lo] : [lo, valued];
    }
  }
  const missing = missingHeld ? order.length - valued : 0;
  return {
    total: to - from + missing,
    holds: i => (i < valued ? i >= from && i < to : missingHeld)
  };
}
