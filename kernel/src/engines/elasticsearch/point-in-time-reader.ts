/**
 * Reads an index, alias, pattern or data stream block by block for the document grid, in one
 * order over one snapshot: a point in time sorted by its tie-breaker (`_shard_doc`; OpenSearch's
 * `_doc`), or without a snapshot where the version has no point in time. Below the target's
 * `max_result_window` a block is one from/size search; past it, `search_after` from a
 * checkpoint. A checkpoint (the sort values of the row before) is kept at every block
 * boundary any read has passed, so a passed block is one request away; a jump ahead walks
 * forward from the nearest checkpoint asking for sort values only (`_source: false`).
 * The end of the order is read from the other side: the last rows (within the window of the
 * end) are one search in the reversed sort, and the rows before a block read that way are one
 * reversed `search_after` from its first row, so Ctrl-End and scrolling up from there never walk.
 * In the index's own order (`_shard_doc`, no sort) over rows the engine shows to be contiguous
 * (shard-doc-places.ts), a far jump is one `search_after` from the value before its first row.
 * Sorted by one number or date field, a far jump counts its way to the row before it
 * (sorted-places.ts) and reads that row's sort values in one search, or walks only the rows
 * of one value too common to count past.
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type { RowKey, RowVersion } from '../../../../contracts/edit-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';
import type {
  DocumentBlock,
  DocumentReader,
  EngineResponse
} from '../../driver-core/driver';
import type { EngineError } from '../../driver-core/errors';
import type { FieldTree } from '../../driver-core/field-tree';
import { documentGrid } from '../../driver-core/grid-columns';
import {
  type GridRequestSpec,
  sendGridRequest,
  targetSegment
} from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { elasticsearchFailure } from './failure';
import { type Flavour, INDEX_AND_ID_ORDER, SHARD_DOC_ORDER } from './flavour';
import { type StorageByIndex, storageOfSettings } from './index-storage';
import { UNSCORED_LEADING } from './present';
import { reversedSort, withMissingStated } from './reverse-sort';
import { contiguousShardDocAfter } from './shard-doc-places';
import {
  isMissingStandIn,
  onlySortField,
  rowsAtStandIn,
  rowsLacking
} from './lacking-value';
import {
  placeRow,
  type RankedSort,
  rowsWithValue,
  type SortedCounts,
  within
} from './sorted-places';

/** Each search renews the point in time for this long; a timer renews it while the grid is idle. */
const KEEP_ALIVE = '5m';
const RENEW_EVERY_MS = 4 * 60_000;
/** Elasticsearch's default `index.max_result_window`, when neither the settings nor the defaults name one. */
const ENGINE_DEFAULT_WINDOW = 10_000;
/**
 * Without a point in time (OpenSearch before 2.4) rows are paged on `_id` after the view's
 * sort: unique, and sortable there (OpenSearch allows sorting on `_id`).
 */

const Hit = z
  .object({
    _id: z.string().optional(),
    _index: z.string().optional(),
    _score: z.number().nullish(),
    _source: z.unknown().optional(),
    sort: z.array(z.unknown()).optional(),
    // Asked for with seq_no_primary_term: a write sends them back so a concurrent change is
    // never overwritten. An index without sequence numbers answers -2 and 0 (index-storage.ts).
    _seq_no: z.number().int().optional(),
    _primary_term: z.number().int().optional()
  })
  .loose();
const SearchAnswer = z
  .object({
    pit_id: z.string().optional(),
    // A walk's filter_path leaves out `hits` when none matched. Hits are checked one by one
    // where they are used: a walk reads only a few of its ten thousand.
    hits: z
      .object({
        total: z
          .union([
            z.number(),
            z.object({ value: z.number(), relation: z.string() })
          ])
          .optional(),
        hits: z.array(z.unknown()).default([])
      })
      .default({ hits: [] })
  })
  .loose();
type HitT = z.infer<typeof Hit>;

interface ReaderSetup {
  transport: Transport;
  target: string;
  blockSize: number;
  tree: FieldTree | undefined;
  /** The view's filter (none: every document) and sort (before the tie-breaker). */
  query: JsonValue | undefined;
  sort: JsonValue[];
  /** The sort's one clause when rows can be placed in it by counting. */
  rankedBy?: RankedSort;
  /** Which product answers, and its point in time API (none: read without a snapshot). */
  flavour: Flavour;
  /** The `_source` rows are read with (undefined: the engine's default, the whole source). */
  rowSource?: JsonValue | undefined;
}

/**
 * `tree` (the mapping) is read while the settings and the point in time are asked for; the
 * first block holds `firstRows` rows when given (block 0 whole otherwise).
 */
export async function openPointInTimeReader(
  opening: Omit<ReaderSetup, 'tree'> & { tree: Promise<FieldTree | undefined> },
  signal: AbortSignal,
  firstRows?: number
): Promise<{
  reader: DocumentReader;
  first: DocumentBlock;
  notes: string[];
  /** How each index behind the target stores documents, from the same settings answer. */
  storage: StorageByIndex;
}> {
  const sent: SentRequest[] = [];
  const { product, version, pointInTime } = opening.flavour;
  const failure = (response: EngineResponse) =>
    elasticsearchFailure(response, product);
  const segment = targetSegment(opening.target);
  const [settings, opened, tree] = await Promise.all([
    sendGridRequest(
      opening.transport,
      {
        method: 'GET',
        path: `/${segment}/_settings`,
        query: 'include_defaults=true'
      },
      failure,
      sent,
      signal
    ),
    pointInTime
      ? sendGridRequest(
          opening.transport,
          {
            method: 'POST',
            path: `/${segment}${pointInTime.openPath}`,
            query: `keep_alive=${KEEP_ALIVE}`
          },
          failure,
          sent,
          signal
        )
      : undefined,
    opening.tree
  ]);
  const pitId = pointInTime
    ? z
        .object({ [pointInTime.idKey]: z.string() })
        .loose()
        .parse(opened)[pointInTime.idKey]
    : undefined;
  const reader = new PointInTimeReader(
    { ...opening, tree },
    pitId,
    resultWindow(settings)
  );
  const notes = pointInTime
    ? []
    : [
        `${product} ${version} has no point in time (${product} ${opening.flavour.pointInTimeSince} added it): the grid pages with search_after sorted by _index and _id, not over one snapshot, so documents changed meanwhile may move, show twice or be missed.`
      ];
  try {
    const first = await reader.readBlock(0, signal, true, firstRows);
    return {
      reader,
      first: { ...first, requests: [...sent, ...first.requests] },
      notes,
      storage: storageOfSettings(settings)
    };
  } catch (err) {
    await reader.close();
    throw err;
  }
}

/** The smallest `index.max_result_window` of the indices behind the target (set, else default). */
function resultWindow(settings: JsonValue): number {
  const PerIndex = z.record(
    z.string(),
    z
      .object({
        settings: z.unknown().optional(),
        defaults: z.unknown().optional()
      })
      .loose()
  );
  const parsed = PerIndex.safeParse(settings);
  if (!parsed.success) {
    return ENGINE_DEFAULT_WINDOW;
  }
  const windowOf = (group: unknown): number | undefined => {
    const Group = z
      .object({
        index: z
          .object({ max_result_window: z.union([z.string(), z.number()]) })
          .loose()
      })
      .loose();
    const flat = z
      .object({ 'index.max_result_window': z.union([z.string(), z.number()]) })
      .loose()
      .safeParse(group);
    const nested = Group.safeParse(group);
    const raw = flat.success
      ? flat.data['index.max_result_window']
      : nested.success
        ? nested.data.index.max_result_window
        : undefined;
    const value = Number(raw);
    return raw !== undefined && Number.isInteger(value) && value > 0
      ? value
      : undefined;
  };
  const windows = Object.values(parsed.data).map(
    index =>
      windowOf(index.settings) ??
      windowOf(index.defaults) ??
      ENGINE_DEFAULT_WINDOW
  );
  return windows.length ? Math.min(...windows) : ENGINE_DEFAULT_WINDOW;
}

/** Each row's own index and id (a row found through an alias is written to its index) and its version as read. */
function rowAddresses(hits: HitT[]): Pick<DocumentBlock, 'keys' | 'versions'> {
  const keys: RowKey[] = [];
  const versions: (RowVersion | null)[] = [];
  for (const hit of hits) {
    // Every hit of a search has both; a shape without them cannot be edited, so no keys at all.
    if (hit._index === undefined || hit._id === undefined) {
      return {};
    }
    keys.push({ index: hit._index, id: hit._id });
    versions.push(
      hit._seq_no !== undefined &&
        hit._seq_no >= 0 &&
        hit._primary_term !== undefined &&
        hit._primary_term > 0
        ? { seqNo: hit._seq_no, primaryTerm: hit._primary_term }
        : null
    );
  }
  return { keys, versions };
}

class PointInTimeReader implements DocumentReader {
  total = 0;
  /** Row number → the sort values of the row before it (its `search_after`). */
  private readonly checkpoints = new Map<number, unknown[]>();
  /**
   * Row number → its own sort values as a reversed search gave them: the `search_after` of the
   * reversed search that reads the rows before it.
   */
  private readonly endAnchors = new Map<number, unknown[]>();
  /** Whether `total` was counted exactly (by the first block's read): rows are placed from the end by it. */
  private counted = false;
  /** The sort values of the first and the last row, once a read has reached them. */
  private firstSort: unknown[] | undefined;
  private lastSort: unknown[] | undefined;
  /** Set when a jump found a row not where the first and last rows placed it: walk from then on. */
  private placesDisproved = false;
  /** The field's span over the view's rows, once counted (sortedCounts). */
  private span: ReturnType<SortedCounts['span']> | undefined;
  /** Set when a count failed (a field the engine cannot range on): walk from then on. */
  private countsFailed = false;
  /** The walk under way (searchAfterFor), which the next one waits for. */
  private walks: Promise<unknown> = Promise.resolve();
  private readonly renewTimer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly setup: ReaderSetup,
    /** Undefined: the product's version has no point in time, searches name the target. */
    private pitId: string | undefined,
    /** from + size may not pass this. */
    private readonly window: number
  ) {
    this.renewTimer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.renewTimer.unref();
  }

  /** Block `block`, or only its first `rows` rows. */
  async readBlock(
    block: number,
    signal: AbortSignal,
    countTotal = false,
    rows = this.setup.blockSize
  ): Promise<DocumentBlock> {
    const sent: SentRequest[] = [];
    const offset = block * this.setup.blockSize;
    const hits = await this.readRows(
      offset,
      Math.min(rows, this.setup.blockSize),
      { source: true, countTotal },
      sent,
      signal
    );
    const documents = hits.map(hit => ({
      meta: {
        _id: hit._id ?? null,
        _index: hit._index ?? null
      },
      source: (hit._source ?? {}) as JsonValue
    }));
    const grid = documentGrid({
      tree: this.setup.tree,
      leading: UNSCORED_LEADING,
      documents
    });
    return {
      columns: grid.columns,
      rows: grid.rows,
      ...rowAddresses(hits),
      requests: sent,
      ...(countTotal ? { total: this.total } : {})
    };
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearInterval(this.renewTimer);
    const api = this.setup.flavour.pointInTime;
    if (!api || this.pitId === undefined) {
      return;
    }
    await this.setup.transport
      .send(
        {
          method: 'DELETE',
          path: api.closePath,
          query: '',
          body: { kind: 'json', value: api.closeBody(this.pitId) }
        },
        AbortSignal.timeout(10_000)
      )
      .catch(() => undefined);
  }

  /** Rows [offset, offset + count), in pieces the result window allows. */
  private async readRows(
    offset: number,
    count: number,
    options: { source: boolean; countTotal: boolean },
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<HitT[]> {
    const end = Math.min(offset + count, this.total);
    if (this.readsFromEnd(offset, end)) {
      const rows = await this.readRowsBackward(
        offset,
        end,
        options,
        sent,
        signal
      );
      // Fewer rows than the count placed them by: they cannot be placed, so they are read forward.
      if (rows.length === end - offset) {
        return rows;
      }
    }
    const rows: HitT[] = [];
    let position = offset;
    let after: unknown[] | undefined;
    while (rows.length < count) {
      const wanted = count - rows.length;
      const fromSize = position < this.window;
      const size = fromSize
        ? Math.min(wanted, this.window - position)
        : Math.min(wanted, this.window);
      // The `_shard_doc` the first row must have when `after` was placed, not read.
      let placed: number | undefined;
      if (!fromSize && after === undefined) {
        after = this.checkpoints.get(position);
        if (after === undefined) {
          after = await this.contiguousAfter(position, sent, signal);
          placed = typeof after?.[0] === 'number' ? after[0] + 1 : undefined;
        }
        after ??= await this.searchAfterFor(position, sent, signal);
      }
      const found = await this.search(
        {
          size,
          ...(fromSize ? { from: position } : { search_after: after }),
          ...(placed !== undefined ? { placed } : {})
        },
        { ...options, countTotal: options.countTotal && rows.length === 0 },
        position,
        sent,
        signal
      );
      if (placed !== undefined && this.placesDisproved) {
        // Not where it was placed: walk to it instead.
        after = await this.searchAfterFor(position, sent, signal);
        continue;
      }
      const hits = found.map(hit => Hit.parse(hit));
      for (const hit of hits) {
        rows.push(hit);
      }
      position += hits.length;
      after = hits[hits.length - 1]?.sort;
      if (hits.length < size) {
        break;
      }
    }
    return rows;
  }

  /**
   * Rows past the window with no checkpoint before them, whose end the reversed sort reaches
   * in one search: within the window of the last row, or right before a row read that way.
   */
  private readsFromEnd(offset: number, end: number): boolean {
    return (
      this.counted &&
      offset >= this.window &&
      offset < end &&
      !this.checkpoints.has(offset) &&
      (this.total - end < this.window || this.endAnchors.has(end))
    );
  }

  /**
   * Rows [offset, end) read last first in the reversed sort and put back in order: from/size
   * counted from the end while the window allows, then reversed `search_after` from the
   * earliest row read. Rows are placed by the exact total, over the point in time's snapshot.
   */
  private async readRowsBackward(
    offset: number,
    end: number,
    options: { source: boolean; countTotal: boolean },
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<HitT[]> {
    const backward: HitT[] = [];
    let position = end;
    let after = this.endAnchors.get(end);
    while (position > offset) {
      const wanted = position - offset;
      const fromEnd = this.total - position;
      const fromSize = after === undefined && fromEnd < this.window;
      const size = fromSize
        ? Math.min(wanted, this.window - fromEnd)
        : Math.min(wanted, this.window);
      if (!fromSize && after === undefined) {
        break;
      }
      const hits = (
        await this.search(
          {
            size,
            ...(fromSize ? { from: fromEnd } : { search_after: after }),
            reversed: true
          },
          { ...options, countTotal: false },
          position - 1,
          sent,
          signal
        )
      ).map(hit => Hit.parse(hit));
      backward.push(...hits);
      position -= hits.length;
      after = hits[hits.length - 1]?.sort;
      if (hits.length < size) {
        break;
      }
    }
    return backward.reverse();
  }

  /** The search_after of row `position` (past the window): from a checkpoint, walking if needed. */
  private searchAfterFor(
    position: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[] | undefined> {
    // One walk at a time: blocks asked for together (a jump shows two) would each walk the same
    // way; the one waiting starts from the checkpoints the other left.
    const turn = this.walks.then(() => this.walkTo(position, sent, signal));
    this.walks = turn.catch(() => undefined);
    return turn;
  }

  private async walkTo(
    position: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[] | undefined> {
    const known = this.checkpoints.get(position);
    if (known) {
      return known;
    }
    // Start from the furthest checkpoint before it, or from the last row from/size reaches.
    const nearest = () => {
      let row = this.window;
      for (const at of this.checkpoints.keys()) {
        if (at > row && at < position) {
          row = at;
        }
      }
      return row;
    };
    let start = nearest();
    // More than one walking step away: counting places it in a few requests, or nearer.
    if (position - start > this.window) {
      const placed = await this.sortedAfter(position, sent, signal);
      if (placed) {
        return placed;
      }
      start = nearest();
    }
    let after = this.checkpoints.get(start);
    if (!after) {
      const [last] = await this.search(
        { from: start - 1, size: 1 },
        { source: false, countTotal: false },
        start - 1,
        sent,
        signal
      );
      const sort = last === undefined ? undefined : Hit.parse(last).sort;
      if (!sort) {
        return undefined;
      }
      after = sort;
    }
    // Walk forward, sort values only, recording every block boundary on the way.
    let at = start;
    while (at < position) {
      const size = Math.min(position - at, this.window, ENGINE_DEFAULT_WINDOW);
      const hits = await this.search(
        { size, search_after: after },
        { source: false, countTotal: false },
        at,
        sent,
        signal
      );
      const last =
        hits.length > 0 ? Hit.parse(hits[hits.length - 1]).sort : undefined;
      if (!last) {
        return after;
      }
      after = last;
      at += hits.length;
      if (hits.length < size) {
        break;
      }
    }
    return after;
  }

  /**
   * One search on the point in time; the hits come back unchecked (see SearchAnswer). A
   * reversed one reads the sort backwards, its first hit being row `firstRow`, the next the row
   * before it, and so on.
   */
  private async search(
    page: {
      from?: number;
      size: number;
      search_after?: unknown[] | undefined;
      reversed?: boolean;
      /** The `_shard_doc` the first hit must have; none is taken when it has another (placesDisproved). */
      placed?: number;
      /** The rows searched instead of the view's (a part of them, sorted the same). */
      query?: JsonValue;
      /** The order instead of the view's (the tie-breaker alone); its hits are not remembered. */
      order?: JsonValue[];
    },
    options: { source: boolean; countTotal: boolean },
    firstRow: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[]> {
    // Elasticsearch takes a missing row's sort value back; OpenSearch fails on it (lacking-value.ts).
    const lacking =
      this.setup.flavour.product === 'OpenSearch' && page.order === undefined
        ? this.lackingPart(page.search_after?.[0] as JsonValue | undefined)
        : undefined;
    if (lacking) {
      return this.searchAfterLacking(
        lacking,
        page,
        options,
        firstRow,
        sent,
        signal
      );
    }
    const order = page.order ?? this.order();
    const body: Record<string, JsonValue> = {
      size: page.size,
      ...(page.from !== undefined && page.from > 0 ? { from: page.from } : {}),
      ...(page.search_after
        ? { search_after: page.search_after as JsonValue[] }
        : {}),
      ...(this.pitId !== undefined
        ? { pit: { id: this.pitId, keep_alive: KEEP_ALIVE } }
        : {}),
      ...((page.query ?? this.setup.query) !== undefined
        ? { query: page.query ?? this.setup.query ?? null }
        : {}),
      sort: page.reversed ? reversedSort(order) : order,
      track_total_hits: options.countTotal,
      ...(options.source
        ? {
            seq_no_primary_term: true,
            ...(this.setup.rowSource !== undefined
              ? { _source: this.setup.rowSource }
              : {})
          }
        : { _source: false })
    };
    const spec: GridRequestSpec = {
      method: 'POST',
      // A point in time names its indices; without one the search names the target.
      path:
        this.pitId !== undefined
          ? '/_search'
          : `/${targetSegment(this.setup.target)}/_search`,
      body,
      ...(options.source ? {} : { query: 'filter_path=pit_id,hits.hits.sort' })
    };
    const answer = SearchAnswer.parse(
      await sendGridRequest(
        this.setup.transport,
        spec,
        r => this.failure(r),
        sent,
        signal
      )
    );
    if (answer.pit_id) {
      this.pitId = answer.pit_id;
    }
    if (options.countTotal && answer.hits.total !== undefined) {
      this.total =
        typeof answer.hits.total === 'number'
          ? answer.hits.total
          : answer.hits.total.value;
      // track_total_hits: true counts every match, whatever the relation says of a capped count.
      this.counted =
        typeof answer.hits.total === 'number' ||
        answer.hits.total.relation === 'eq';
    }
    // An engine answering more hits than the search's size asked for: the rows past it belong to
    // no block, and a checkpoint taken from them would place later blocks wrongly.
    const hits =
      answer.hits.hits.length > page.size
        ? answer.hits.hits.slice(0, page.size)
        : answer.hits.hits;
    if (
      page.placed !== undefined &&
      (hits.length === 0 || Hit.parse(hits[0]).sort?.[0] !== page.placed)
    ) {
      this.placesDisproved = true;
      return [];
    }
    if (page.order !== undefined) {
      return hits;
    }
    if (page.reversed) {
      this.rememberFromEnd(firstRow, hits);
    } else {
      this.remember(firstRow, hits);
    }
    return hits;
  }

  /**
   * When `after` is the sort value of a row lacking the sort's one field (null, or a number's
   * stand-in): that value, and the view's rows sorting at it (`atIt`) or not.
   */
  private lackingPart(
    after: JsonValue | undefined
  ): { value: JsonValue; rows: (atIt: boolean) => JsonValue } | undefined {
    const { query, sort, rankedBy } = this.setup;
    const field = onlySortField(sort);
    if (after === null && field !== undefined) {
      return { value: null, rows: atIt => rowsLacking(query, field, atIt) };
    }
    if (rankedBy && isMissingStandIn(after, rankedBy)) {
      return {
        value: after as JsonValue,
        rows: atIt => rowsAtStandIn(query, rankedBy, after as JsonValue, atIt)
      };
    }
    return undefined;
  }

  /**
   * The rows after (or, reversed, before) one lacking the sort's one field, read without sending
   * its sort value back (lacking-value.ts); their sort values are given it again.
   */
  private async searchAfterLacking(
    lacking: { value: JsonValue; rows: (atIt: boolean) => JsonValue },
    page: {
      size: number;
      search_after?: unknown[] | undefined;
      reversed?: boolean;
    },
    options: { source: boolean; countTotal: boolean },
    firstRow: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[]> {
    const tieBreakers = this.order().slice(1);
    const withValue = (hit: unknown): unknown => {
      const parsed = Hit.parse(hit);
      return parsed.sort
        ? { ...parsed, sort: [lacking.value, ...parsed.sort] }
        : hit;
    };
    const hits = (
      await this.search(
        {
          size: page.size,
          search_after: page.search_after?.slice(1),
          reversed: page.reversed ?? false,
          query: lacking.rows(true),
          order: tieBreakers
        },
        options,
        firstRow,
        sent,
        signal
      )
    ).map(withValue);
    if (page.reversed && hits.length < page.size) {
      // Backwards, the rows holding a value come next, from the last of them.
      hits.push(
        ...(await this.search(
          {
            size: page.size - hits.length,
            reversed: true,
            query: lacking.rows(false),
            order: this.order()
          },
          options,
          firstRow - hits.length,
          sent,
          signal
        ))
      );
    }
    if (page.reversed) {
      this.rememberFromEnd(firstRow, hits);
    } else {
      this.remember(firstRow, hits);
    }
    return hits;
  }

  /**
   * The view's sort (each field's missing values placed outright: reverse-sort.ts), then the
   * tie-breaker that makes every row's place unique.
   */
  private order(): JsonValue[] {
    return [
      ...withMissingStated(this.setup.sort),
      ...(this.setup.flavour.pointInTime?.tieBreakers ?? INDEX_AND_ID_ORDER)
    ];
  }

  /** Anchors at every block start these reversed hits (row `lastRow`, then the rows before it) pass. */
  private rememberFromEnd(lastRow: number, hits: unknown[]): void {
    this.rememberEnds(lastRow - hits.length + 1, [...hits].reverse());
    const block = this.setup.blockSize;
    for (let i = 0; i < hits.length; i++) {
      const row = lastRow - i;
      if (row % block === 0 || i === hits.length - 1) {
        const sort = Hit.parse(hits[i]).sort;
        if (sort) {
          this.endAnchors.set(row, sort);
        }
      }
    }
  }

  /** The first and the last row's sort values, when these hits (from row `firstRow`, in order) hold them. */
  private rememberEnds(firstRow: number, hits: unknown[]): void {
    if (hits.length === 0) {
      return;
    }
    if (firstRow === 0) {
      this.firstSort = Hit.parse(hits[0]).sort;
    }
    if (this.counted && firstRow + hits.length === this.total) {
      this.lastSort = Hit.parse(hits[hits.length - 1]).sort;
    }
  }

  /**
   * In a grid sorted by one number or date field, the `search_after` of row `position` found by
   * counting; undefined when counting does not place it, after leaving a checkpoint as near as
   * the counts go (the rows before the one value too common to count past).
   */
  private async sortedAfter(
    position: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[] | undefined> {
    const rank = this.setup.rankedBy;
    // Counts are exact only over the snapshot the rows are read from.
    if (
      !rank ||
      this.pitId === undefined ||
      !this.counted ||
      this.countsFailed
    ) {
      return undefined;
    }
    try {
      const place = await placeRow(
        rank,
        position - 1,
        this.window,
        this.sortedCounts(rank, sent, signal)
      );
      if (place?.kind === 'rest') {
        const [hit] = await this.search(
          {
            size: 1,
            from: place.skip,
            query: within(this.setup.query, place.part, true)
          },
          { source: false, countTotal: false },
          position - 1,
          sent,
          signal
        );
        return hit === undefined ? undefined : Hit.parse(hit).sort;
      }
      if (place?.kind === 'after') {
        const [hit] = await this.search(
          {
            size: 1,
            reversed: true,
            query: within(this.setup.query, place.part, false)
          },
          { source: false, countTotal: false },
          place.rows - 1,
          sent,
          signal
        );
        const sort = hit === undefined ? undefined : Hit.parse(hit).sort;
        if (sort) {
          this.checkpoints.set(place.rows, sort);
        }
      }
      return undefined;
    } catch (err) {
      if (signal.aborted) {
        throw err;
      }
      this.countsFailed = true;
      return undefined;
    }
  }

  /** Counts under the view's filter on the point in time, each one search of `size: 0`. */
  private sortedCounts(
    rank: RankedSort,
    sent: SentRequest[],
    signal: AbortSignal
  ): SortedCounts {
    const aggregate = async (
      aggs: Record<string, JsonValue>
    ): Promise<unknown> => {
      const answer = z
        .object({ pit_id: z.string().optional(), aggregations: z.unknown() })
        .loose()
        .parse(
          await sendGridRequest(
            this.setup.transport,
            {
              method: 'POST',
              path: '/_search',
              query: 'filter_path=pit_id,aggregations',
              body: {
                size: 0,
                track_total_hits: false,
                pit: { id: this.pitId ?? '', keep_alive: KEEP_ALIVE },
                ...(this.setup.query !== undefined
                  ? { query: this.setup.query }
                  : {}),
                aggs
              }
            },
            r => this.failure(r),
            sent,
            signal
          )
        );
      if (answer.pit_id) {
        this.pitId = answer.pit_id;
      }
      return answer.aggregations;
    };
    return {
      count: async parts => {
        const keys = parts.map((_, i) => `p${i}`);
        const buckets = z
          .object({
            parts: z.object({
              buckets: z.record(
                z.string(),
                z.object({ doc_count: z.number().int() }).loose()
              )
            })
          })
          .parse(
            await aggregate({
              parts: {
                filters: {
                  filters: Object.fromEntries(
                    parts.map((part, i) => [keys[i], part])
                  )
                }
              }
            })
          ).parts.buckets;
        return keys.map(key => buckets[key]?.doc_count ?? Number.NaN);
      },
      span: () => {
        this.span ??= aggregate({
          low: { min: { field: rank.field } },
          high: { max: { field: rank.field } },
          present: { filter: rowsWithValue(rank) }
        }).then(found => {
          const Value = z.object({ value: z.number().nullable() }).loose();
          const parsed = z
            .object({
              low: Value,
              high: Value,
              present: z.object({ doc_count: z.number().int() }).loose()
            })
            .parse(found);
          return {
            min: parsed.low.value,
            max: parsed.high.value,
            present: parsed.present.doc_count
          };
        });
        // A failed count is asked again next time, not remembered.
        this.span.catch(() => {
          this.span = undefined;
        });
        return this.span;
      }
    };
  }

  /**
   * In the `_shard_doc` order alone, the `search_after` of row `position` from where the first
   * and the last row place it (one reversed search of the last row's value when none has read
   * it yet); undefined when they do not place it.
   */
  private async contiguousAfter(
    position: number,
    sent: SentRequest[],
    signal: AbortSignal
  ): Promise<unknown[] | undefined> {
    if (
      this.placesDisproved ||
      !this.counted ||
      this.setup.sort.length > 0 ||
      this.setup.flavour.pointInTime?.tieBreakers !== SHARD_DOC_ORDER ||
      this.firstSort === undefined
    ) {
      return undefined;
    }
    if (this.lastSort === undefined) {
      await this.search(
        { size: 1, reversed: true },
        { source: false, countTotal: false },
        this.total - 1,
        sent,
        signal
      );
    }
    return contiguousShardDocAfter(
      this.firstSort[0],
      this.lastSort?.[0],
      this.total,
      position
    );
  }

  /** Checkpoints at every block boundary these hits (starting at row `firstRow`) pass. */
  private remember(firstRow: number, hits: unknown[]): void {
    this.rememberEnds(firstRow, hits);
    const block = this.setup.blockSize;
    // The first hit that ends a block, then every block size on.
    for (
      let i = (block - (firstRow % block) - 1 + block) % block;
      i < hits.length;
      i += block
    ) {
      const sort = Hit.parse(hits[i]).sort;
      if (sort) {
        this.checkpoints.set(firstRow + i + 1, sort);
      }
    }
  }

  private failure(response: EngineResponse): EngineError | undefined {
    return elasticsearchFailure(response, this.setup.flavour.product);
  }

  /** Keeps the point in time alive while the grid stays open without reading. */
  private async renew(): Promise<void> {
    if (this.closed || this.pitId === undefined) {
      return;
    }
    const body = {
      size: 0,
      pit: { id: this.pitId, keep_alive: KEEP_ALIVE },
      track_total_hits: false
    };
    await this.setup.transport
      .send(
        {
          method: 'POST',
          path: '/_search',
          query: '',
          body: { kind: 'json', value: body }
        },
        AbortSignal.timeout(30_000)
      )
      .catch(() => undefined);
  }
}
