/**
 * Whole-index export: a point in time read with `search_after` under its tie-breaker sort
 * (`_shard_doc`; OpenSearch's `_doc`; `_id` where the version has no point in time, read by one
 * cursor), pages the size of the index's `max_result_window`, not capped; with
 * `slices=N`, N sliced cursors over the same point in time read in parallel (by default one
 * per shard, up to four, so a many-shard index is read by its shards at once). Lines are
 * `{"_index","_id","_source"}`, the shape elasticdump writes and `_bulk` takes back.
 */
import { setImmediate } from 'node:timers/promises';
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import { hasField } from '../../../../contracts/own-fields';
import { type EngineResponse } from '../../driver-core/driver';
import type { Column } from '../../../../contracts/columns';
import {
  type EngineError,
  InvalidExportError,
  RequestFailedError
} from '../../driver-core/errors';
import type {
  ExportPage,
  ExportRequest,
  ExportStream
} from '../../driver-core/capabilities/export';
import type { FieldTree } from '../../driver-core/field-tree';
import {
  rebuiltSource,
  type StorageByIndex,
  storageOfSettings
} from './index-storage';
import type { GridDocument } from '../../driver-core/grid-columns';
import { mergePages } from '../../driver-core/merge-pages';
import { decoded } from '../../driver-core/http/answer-body';
import type { Transport } from '../../driver-core/http/transport';
import type { ElasticsearchVersion } from './version';
import { elasticsearchFailure } from './failure';
import {
  ELASTICSEARCH_FLAVOUR,
  INDEX_AND_ID_ORDER,
  type Flavour,
  type PointInTimeApi
} from './flavour';
import { queryOfView } from './grid-query';
import { ReusedBuffer } from '../../driver-core/http/reused-buffer';
import {
  guessNextPage,
  HitRanges,
  type RawHitsPage,
  readRawHits,
  type ScanScratch
} from './raw-hits';

/** How long the engine keeps the point in time between two pages. */
const KEEP_ALIVE = '5m';
const DEFAULT_WINDOW = 10_000;
/** Cursors an export opens by itself on a many-shard target (more with slices=N). */
const DEFAULT_MAX_SLICES = 4;
/** Closing the point in time after an interrupt must not hang the cell. */
const CLOSE_TIMEOUT_MS = 5_000;

const LEADING: Column[] = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  },
  {
    name: '_index',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta'
  }
];

const Count = z.object({ count: z.number() }).loose();

/** Keys of a search body an export honours; the rest (size, sort, from, aggs) would change what "whole index" means. */
const BODY_ADVICE =
  'Write an Elasticsearch query on the lines after %export, either a query object such as {"term": {"brand.keyword": "Acme"}} or {"query": {...}} (with "_source" options beside it if needed); the export reads every matching document, so size, sort, from and aggs are left out, and fields=a,b picks the fields.';

type Ctx = {
  transport: Transport;
  signal: AbortSignal;
  product: Flavour['product'];
};

/** Without a point in time (OpenSearch before 2.4) pages follow `_id`, which OpenSearch sorts on. */

async function openPointInTime(
  ctx: Ctx,
  target: string,
  api: PointInTimeApi
): Promise<string> {
  const opened = await send(
    ctx,
    'POST',
    `/${target}${api.openPath}`,
    `keep_alive=${KEEP_ALIVE}`
  );
  const id = z
    .object({ [api.idKey]: z.string() })
    .loose()
    .safeParse(json(opened));
  if (!id.success) {
    throw unexpected(`POST ${api.openPath}`, opened, ctx.product);
  }
  return id.data[api.idKey] as string;
}

export async function openElasticsearchExport(
  transport: Transport,
  request: ExportRequest,
  tree: (target: string) => Promise<FieldTree | undefined>,
  signal: AbortSignal,
  flavour: Flavour = ELASTICSEARCH_FLAVOUR,
  version?: ElasticsearchVersion,
  /** The indices behind a target whose mapping asks for synthetic `_source`. */
  mappedSynthetic: (target: string) => Promise<string[]> = async () => []
): Promise<ExportStream> {
  const { query: bodyQuery, source: bodySource } = exportBody(request.body);
  if (bodySource !== undefined && request.fields) {
    throw new InvalidExportError(
      'fields= and the body\'s "_source" both choose the fields: write one of them. Nothing was sent.'
    );
  }
  const { product, pointInTime } = flavour;
  if (!pointInTime && request.slices !== undefined && request.slices > 1) {
    throw new InvalidExportError(
      `${product} ${flavour.version} has no point in time (${product} ${flavour.pointInTimeSince} added it), and a sliced read needs one: leave slices= out, and the export reads one cursor.`
    );
  }
  // Versions that leave vectors out of _source are asked for them: an export keeps every field.
  const asked = request.fields ?? bodySource;
  const source = version ? version.searchSource(asked) : asked;
  const ctx: Ctx = { transport, signal, product };
  const target = encodeURIComponent(request.target).replace(/%2C/gi, ',');
  const fields = await tree(target);
  const query = request.view
    ? mergedQuery(bodyQuery, queryOfView(request.view, fields))
    : bodyQuery;
  const { window: size, shards, storage } = await readSettings(ctx, target);
  const rebuilt = rebuiltSource(
    request.target,
    storage,
    await mappedSynthetic(target),
    product
  );
  const total = await countOf(ctx, target, query);
  let pitId = pointInTime
    ? await openPointInTime(ctx, target, pointInTime)
    : undefined;
  let closed = false;
  // A point in time slices by shard first: one cursor a shard reads them side by side.
  const slices = pointInTime
    ? (request.slices ?? Math.min(shards, DEFAULT_MAX_SLICES))
    : 1;

  // Pages still in flight when the export stops early, or is interrupted, are cancelled with it.
  const stopping = new AbortController();
  const interrupted = () => stopping.abort();
  if (signal.aborted) {
    stopping.abort();
  } else {
    signal.addEventListener('abort', interrupted, { once: true });
  }
  const pageSignal = stopping.signal;

  /**
   * A page asked for. Its answer's body stays unread (in the socket, under TCP's flow control)
   * until `read`, which the cursor calls only once the page before it has been written.
   * `cancel` drops it alone (a guessed next page that was wrong).
   */
  interface InFlight {
    read(): Promise<Fetched>;
    buffer: ReusedBuffer;
    after: JsonValue[] | undefined;
    pitId: string | undefined;
    cancel(): void;
  }

  const fetchPage = (
    slice: number | undefined,
    after: JsonValue[] | undefined,
    buffer: ReusedBuffer,
    pit = pitId
  ): InFlight => {
    const body: Record<string, JsonValue> = {
      size,
      ...(pit !== undefined
        ? { pit: { id: pit, keep_alive: KEEP_ALIVE } }
        : {}),
      sort: pointInTime?.tieBreakers ?? INDEX_AND_ID_ORDER,
      track_total_hits: false,
      ...(query ? { query } : {}),
      ...(source !== undefined ? { _source: source } : {}),
      ...(after ? { search_after: after } : {}),
      ...(slice !== undefined ? { slice: { id: slice, max: slices } } : {})
    };
    const own = new AbortController();
    const cancel = () => own.abort();
    if (pageSignal.aborted) {
      own.abort();
    } else {
      pageSignal.addEventListener('abort', cancel, { once: true });
    }
    const response = transport.stream(
      {
        method: 'POST',
        // A point in time names its indices; without one the search names the target.
        path: pit !== undefined ? '/_search' : `/${target}/_search`,
        query: '',
        body: { kind: 'json', value: body }
      },
      own.signal
    );
    // Settled here when the export stops before the page is read (its failure is then moot).
    response.catch(() => undefined);
    let reading: Promise<Fetched> | undefined;
    const read = () =>
      (reading ??= (async (): Promise<Fetched> => {
        try {
          const answer = await response;
          return {
            status: answer.status,
            headers: answer.headers,
            bytes: await buffer.fill(answer.body)
          };
        } finally {
          pageSignal.removeEventListener('abort', cancel);
        }
      })());
    return { read, buffer, after, pitId: pit, cancel };
  };

  const readFetched = (fetched: Fetched, scratch: ScanScratch): RawHitsPage => {
    const raw = () =>
      decoded({ ...fetched, bytes: Buffer.from(fetched.bytes), elapsedMs: 0 });
    if (fetched.status >= 300) {
      throw (
        elasticsearchFailure(raw(), product) ??
        unexpected('POST /_search', raw(), product)
      );
    }
    const page = readRawHits(fetched.bytes, scratch);
    if (!page) {
      throw unexpected('POST /_search', raw(), product);
    }
    if (page.shardFailures.length > 0) {
      throw new RequestFailedError(
        `${product} could not read every shard of ${request.target}: ${page.shardFailures.slice(0, 3).join('; ')}. The export stopped rather than miss their documents.`
      );
    }
    if (page.pitId) {
      pitId = page.pitId;
    }
    return page;
  };

  /**
   * One cursor's pages. The next page is asked for as soon as this one's bytes are in (its
   * start guessed from the answer's last bytes, checked once the page is read), so the engine
   * searches while this page is read and written; its answer is read only after this page is
   * written (the generator resumes when the writer asks for more). A cursor holds at most one
   * answer and one page of lines, in buffers it reuses.
   */
  async function* cursor(
    slice: number | undefined
  ): AsyncGenerator<ExportPage> {
    const scratch = cursorScratch();
    const received = [new ReusedBuffer(), new ReusedBuffer()] as const;
    let current: InFlight | undefined = fetchPage(
      slice,
      undefined,
      received[0]
    );
    let ahead: InFlight | undefined;
    try {
      while (current) {
        const fetched: Fetched = await current.read();
        const spare: ReusedBuffer =
          current.buffer === received[0] ? received[1] : received[0];
        const guess: ReturnType<typeof guessNextPage> =
          fetched.status < 300 ? guessNextPage(fetched.bytes) : undefined;
        ahead = guess
          ? fetchPage(slice, guess.after, spare, guess.pitId ?? pitId)
          : undefined;
        if (ahead) {
          await requestWritten();
        }
        const page = readFetched(fetched, scratch);
        let next: InFlight | undefined;
        if (page.count >= size) {
          const right =
            ahead !== undefined &&
            JSON.stringify(ahead.after) === JSON.stringify(page.lastSort) &&
            (page.pitId === undefined || page.pitId === ahead.pitId);
          if (right) {
            next = ahead;
          } else {
            // A wrong guess is dropped unread: its buffer was never filled.
            ahead?.cancel();
            next = fetchPage(slice, page.lastSort, current.buffer);
          }
        } else {
          ahead?.cancel();
        }
        ahead = undefined;
        current = next;
        if (page.count === 0) {
          return;
        }
        yield pageOf(page);
      }
    } finally {
      current?.cancel();
      ahead?.cancel();
    }
  }

  return {
    total,
    leading: LEADING,
    tree: fields,
    // A JSONL export reads as ready for _bulk: say when what it holds is not what was indexed.
    notes: rebuilt
      ? [
          `${rebuilt} The file holds the documents as rebuilt, and so will a re-import of it.`
        ]
      : [],
    pages: () =>
      slices > 1
        ? mergePages(Array.from({ length: slices }, (_, i) => cursor(i)))
        : cursor(undefined),
    close: async () => {
      if (closed) {
        return;
      }
      closed = true;
      signal.removeEventListener('abort', interrupted);
      stopping.abort();
      // A fresh signal: an interrupted export still frees the point in time it opened.
      const closing = { ...ctx, signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS) };
      if (pointInTime && pitId !== undefined) {
        await send(
          closing,
          'DELETE',
          pointInTime.closePath,
          '',
          pointInTime.closeBody(pitId)
        ).catch(() => undefined);
      }
    }
  };
}

/**
 * Resolves once a request just asked for is on the wire. undici writes a request to a kept-alive
 * socket from an immediate of its own, queued when the request is dispatched (a few promise
 * turns after it is asked for) so that the socket's pending events are read first; a page
 * scanned before that immediate held the request back until the page was written, and the
 * engine searched the next page only then, the cursor and the engine taking turns. Two turns
 * of the event loop let it out first: a few microseconds a page.
 */
async function requestWritten(): Promise<void> {
  await setImmediate();
  await setImmediate();
}

/** An answer as received: its bytes are in a buffer the cursor reuses. */
interface Fetched {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/**
 * Where one cursor reads a page's hits into: its offsets, and two buffers its lines alternate
 * in. A page's lines are written to the file before the page after next is read (the file
 * layer waits for each write), so two are enough.
 */
function cursorScratch(): ScanScratch {
  const lines = [new ReusedBuffer(), new ReusedBuffer()];
  let turn = 0;
  return {
    ranges: new HitRanges(),
    output: size => (lines[turn++ % 2] as ReusedBuffer).take(size)
  };
}

export function pageOf(page: RawHitsPage): ExportPage {
  return {
    count: page.count,
    jsonl: () => page.jsonl,
    eachDocument: visit => page.eachHit(hit => visit(hitDocument(hit as Hit))),
    ...(page.eachHitText
      ? {
          eachDocumentText: visit =>
            page.eachHitText?.(visit, hit => hitDocument(hit as Hit))
        }
      : {})
  };
}

type Hit = { _index: string; _id: string; _source?: JsonValue };

/** The grid form of a hit (CSV): what its line holds, a hit without `_source` an empty one. */
function hitDocument(hit: Hit): GridDocument {
  return {
    meta: { _id: hit._id, _index: hit._index },
    source: hitSource(hit)
  };
}

function hitSource(hit: Hit): JsonValue {
  return hasField(hit, '_source') ? (hit._source as JsonValue) : {};
}

function mergedQuery(
  a: JsonValue | undefined,
  b: JsonValue | undefined
): JsonValue | undefined {
  return a === undefined
    ? b
    : b === undefined
      ? a
      : { bool: { filter: [a, b] } };
}

/** The query of an export body: a bare query object, or `{"query": {...}}`; refused before anything is sent otherwise. */
/** A body's query (a query object, or `{"query": ...}`) and its `_source` options. */
function exportBody(body: JsonValue | undefined): {
  query: JsonValue | undefined;
  source: JsonValue | undefined;
} {
  if (body === undefined) {
    return { query: undefined, source: undefined };
  }
  const object = asObject(body);
  if (!object || Object.keys(object).length === 0) {
    throw new InvalidExportError(
      `The export body must be a JSON object. Nothing was sent. ${BODY_ADVICE}`
    );
  }
  if (!('query' in object) && !('_source' in object)) {
    return { query: object, source: undefined };
  }
  const others = Object.keys(object).filter(
    k => k !== 'query' && k !== '_source'
  );
  if (others.length > 0) {
    throw new InvalidExportError(
      `An export body takes only "query" and "_source", not ${others.map(k => `"${k}"`).join(', ')}. Nothing was sent. ${BODY_ADVICE}`
    );
  }
  return { query: object.query, source: object._source };
}

/**
 * The smallest `index.max_result_window` of the target's indices (the engine's default when
 * none sets it) and their primary shards in all.
 */
async function readSettings(
  ctx: Ctx,
  target: string
): Promise<{ window: number; shards: number; storage: StorageByIndex }> {
  // A user allowed to read but not to see index settings gets the engine's default window.
  const response = await ctx.transport.send(
    {
      method: 'GET',
      path: `/${target}/_settings`,
      query: 'flat_settings=true'
    },
    ctx.signal
  );
  if (response.status === 403) {
    return { window: DEFAULT_WINDOW, shards: 1, storage: new Map() };
  }
  throwOnFailure(ctx, response);
  let window = Number.POSITIVE_INFINITY;
  let shards = 0;
  for (const index of Object.values(asObject(json(response)) ?? {})) {
    const settings = asObject(asObject(index)?.settings);
    const setting = (name: string) =>
      settings?.[`index.${name}`] ?? asObject(settings?.index)?.[name];
    const value = Number(setting('max_result_window') ?? DEFAULT_WINDOW);
    if (Number.isInteger(value) && value > 0) {
      window = Math.min(window, value);
    }
    const primaries = Number(setting('number_of_shards') ?? 1);
    shards += Number.isInteger(primaries) && primaries > 0 ? primaries : 1;
  }
  return {
    window: Number.isFinite(window) ? window : DEFAULT_WINDOW,
    shards: Math.max(shards, 1),
    // Set settings only (no defaults): an index mode that rebuilds `_source` is always set.
    storage: storageOfSettings(json(response))
  };
}

async function countOf(
  ctx: Ctx,
  target: string,
  query: JsonValue | undefined
): Promise<number | undefined> {
  // The total only feeds the progress line: a user who may not count still exports. A bad
  // query or a missing index fails here, before a file is opened.
  const response = await ctx.transport.send(
    {
      method: 'POST',
      path: `/${target}/_count`,
      query: '',
      ...(query ? { body: { kind: 'json', value: { query } } } : {})
    },
    ctx.signal
  );
  if (response.status === 403) {
    return undefined;
  }
  throwOnFailure(ctx, response);
  const count = Count.safeParse(json(response));
  return count.success ? count.data.count : undefined;
}

async function send(
  ctx: Ctx,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  query: string,
  body?: JsonValue
): Promise<EngineResponse> {
  const response = await ctx.transport.send(
    {
      method,
      path,
      query,
      ...(body !== undefined ? { body: { kind: 'json', value: body } } : {})
    },
    ctx.signal
  );
  throwOnFailure(ctx, response);
  return response;
}

function throwOnFailure(ctx: Ctx, response: EngineResponse): void {
  const failure = elasticsearchFailure(response, ctx.product);
  if (failure) {
    throw failure;
  }
}

function json(response: EngineResponse): JsonValue | undefined {
  return response.body.kind === 'json' ? response.body.value : undefined;
}

function unexpected(
  what: string,
  response: EngineResponse,
  product: Flavour['product']
): EngineError {
  return new RequestFailedError(
    `${what} answered ${response.status} with a body that is not what ${product} sends; the export stopped.`,
    response.status
  );
}
