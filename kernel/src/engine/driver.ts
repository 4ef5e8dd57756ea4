/**
 * The Driver interface: the only engine surface the rest of the kernel sees. Each engine's
 * folder (elasticsearch/, typesense/) implements it; nothing outside those folders knows
 * an engine's paths, headers or response shapes.
 */
import type { FieldNameOptions } from './field-tree';
import type { EngineError } from './errors';
import type { ConsoleRequest, HttpMethod, JsonValue, Refusal } from '../console/cell';
import type { GridView, OperatorInfo, SentRequest, TargetInfo, ViewRequest } from '../../../contracts/panel-protocol';
import type { ChangeResult, EditRefusal, PlannedRequest, RowChange, RowKey, RowVersion, TargetAction, TargetActionId } from '../../../contracts/edit-protocol';
import type { ExportRequest, ExportStream } from './export-stream';
import type { AdminOffers, KeyInfo, MetricsSnapshot, NewKey } from '../../../contracts/admin-protocol';
import type { AggregationTable, DocumentLayout, PartialFailure } from '../../../contracts/mime-types';
import type { Column } from '../../../contracts/columns';

export type EngineName = 'elasticsearch' | 'typesense';

/** The engine's answer, as read off the socket. */
export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, the JSONL values for JSONL, else the text. */
  body: { kind: 'json'; value: JsonValue; /** The body's UTF-8 bytes as sent (no byte-order mark), kept so the notebook can store the engine's exact answer. */ bytes?: Buffer } | { kind: 'jsonl'; values: JsonValue[] } | { kind: 'text'; text: string } | { kind: 'empty' };
  elapsedMs: number;
  /** How the body was read when it is not what it says it is (invalid JSON, nested too deep), shown under the answer. */
  notice?: string;
}

/** One aggregation or facet table as a driver builds it (the payload's shape, with JSON cells). */
export type AggregationResult = Omit<AggregationTable, 'rows'> & { rows: Record<string, JsonValue>[] };

/** How a console response should be shown; render/ turns it into a MIME bundle. */
export type ConsoleResult =
  | {
      kind: 'hits';
      columns: Column[];
      rows: Record<string, JsonValue>[];
      /** Total matches, and whether it is a lower bound (`≥`). */
      total?: { value: number; relation: 'eq' | 'gte' };
      aggregations?: AggregationResult[];
      /** Where the documents sit in the answer, so the notebook can keep the answer alone and rebuild these rows from it. */
      documents?: DocumentLayout;
    }
  | { kind: 'table'; rows: Record<string, JsonValue>[] }
  /** `fields`: the answer is a mapping or collection schema, listed field by field (dotted names). */
  | { kind: 'json'; value: JsonValue; fields?: { field: string; type: string }[] }
  | { kind: 'text'; text: string };

/** A response as shown: one result, or one per search of a several-search request (`_msearch`, `multi_search`), in order. */
export type PresentedResult = ConsoleResult | { kind: 'searches'; searches: SearchPart[] };

/** One search of several: what it searched (index or collection), its own status and answer. */
export interface SearchPart {
  target: string;
  status: number;
  result: ConsoleResult;
  /** This search's part of the engine's answer. */
  raw: JsonValue;
}

/** An endpoint for completion and inspection: method list, path template, one-line doc. */
export interface EndpointInfo {
  methods: HttpMethod[];
  /** Path template as the engine documents it, e.g. `/{index}/_search`. */
  path: string;
  description: string;
  docUrl?: string;
}


/** What a connection learned about its engine when it connected. */
export interface EngineIdentity {
  version: string;
  /** Things the user should know but that do not stop the connection (an unsupported major). */
  warnings: string[];
}

export interface Driver {
  readonly engine: EngineName;
  /** Checks what answers at the address and that the credentials work. */
  probe(signal: AbortSignal): Promise<EngineIdentity>;
  /** How to write in this engine's requests what a line of SQL asks for (the hint of a SQL refusal). */
  readonly sqlAdvice: string;
  /** Why this engine would misread a request as written (checked before anything is sent), or undefined. */
  refusal(request: ConsoleRequest): Refusal | undefined;
  /** Sends one console request; rejects with EngineError (never with a raw socket error). */
  send(request: ConsoleRequest, signal: AbortSignal): Promise<EngineResponse>;
  /** The request as a curl command line; the credential stays an environment variable reference. */
  curl(request: ConsoleRequest): string;
  /** The error a failed response means (status and the engine's own reason), or undefined. */
  failure(request: ConsoleRequest, response: EngineResponse): EngineError | undefined;
  /** Parts of a 2xx answer that failed (bulk items, searches, shards, import lines); empty when none did. */
  partialFailures(request: ConsoleRequest, response: EngineResponse): PartialFailure[];
  /** Decides how a response is shown (hits grid, table, JSON; one per search of several). */
  present(request: ConsoleRequest, response: EngineResponse): PresentedResult;
  /** Endpoints of this engine, loaded lazily on first use. */
  endpoints(): Promise<EndpointInfo[]>;
  /** Index or collection names for completion (cached by the driver; may be empty). */
  targetNames(signal: AbortSignal): Promise<string[]>;
  /** Field names of one index or collection for completion. */
  fieldNames(target: string, signal: AbortSignal, options?: FieldNameOptions): Promise<string[]>;
  /** The document grid's side of the driver: listing targets and reading them block by block. */
  readonly documents: DocumentSide;
  /** The side panel's administration of the connection: API keys, server metrics. */
  readonly admin: AdminSide;
  close(): Promise<void>;
  /** Opens a whole-index or whole-collection export (issue 13); rejects with EngineError, before sending anything when the request is invalid. */
  exportStream(request: ExportRequest, signal: AbortSignal): Promise<ExportStream>;
}

/** The side panel's list of a connection's indices or collections. */
export interface TargetListing {
  targets: TargetInfo[];
  /** Why the list is empty or partial (a key that may not list collections, spec 5.2). */
  note?: string;
}

/** One block of a document grid, with the columns its documents need. */
export interface DocumentBlock {
  columns: Column[];
  rows: Record<string, JsonValue>[];
  /** The requests the block cost, in order (a far jump costs several). */
  requests: SentRequest[];
  /** Exact total when this read learned it. */
  total?: number;
  /** Where each row lives (its own index or collection, its id), parallel to `rows`: edits go there. */
  keys?: RowKey[];
  /** Each row's version as read, parallel to `rows`; null where the engine keeps none. */
  versions?: (RowVersion | null)[];
}

/**
 * A grid's cursor over one target: reads any block, owns the engine-side resources (an
 * Elasticsearch point in time) until closed.
 */
export interface DocumentReader {
  readonly total: number;
  readBlock(block: number, signal: AbortSignal): Promise<DocumentBlock>;
  close(): Promise<void>;
}

/** A grid opened on a view: its reader, its first block, and what became of the view. */
export interface OpenedGrid {
  reader: DocumentReader;
  first: DocumentBlock;
  /** Parts of the view the engine cannot do, left out (a dropped sort). */
  notes: string[];
  /** The columns the engine sorts by, in order (the view's sort without those left out). */
  sortedBy: string[];
  /** The search the grid sends, as a console cell and a curl command. */
  request: ViewRequest;
}

export interface DocumentSide {
  listTargets(signal: AbortSignal): Promise<TargetListing>;
  /**
   * Opens a reader filtered and sorted by the view and reads block 0 (which gives the exact
   * total). A filter the engine cannot take rejects with ViewRefusal before anything is sent.
   */
  open(target: string, blockSize: number, view: GridView, signal: AbortSignal): Promise<OpenedGrid>;
  /** Whether string filters can match case exactly (the filter bar's case control). */
  readonly matchCaseSupported: boolean;
  /** What each filter operator does on this engine, and those it has no filter for. */
  readonly operators: OperatorInfo[];
  /** The raw filter row's syntax, as an example (`name:Widget AND price:>10`). */
  readonly rawFilterHint: string;
  /** Saving the grid's edits, whole values of cut cells, deleting and emptying targets. */
  readonly edits: DocumentEdits;
}

/** The grid an edit comes from: its target, and the columns it has shown (which are read-only, which hold JSON). */
export interface EditedGrid {
  target: string;
  columns: ReadonlyMap<string, Column>;
}

/**
 * The grid's writes (issue 12), each change one request of the engine's own, values typed by
 * the mapping or schema first. A refused value stops the whole save before anything is sent.
 */
export interface DocumentEdits {
  /** The requests a save would send, or the refusals that stop it; nothing is written. */
  plan(grid: EditedGrid, changes: RowChange[], signal: AbortSignal): Promise<{ requests: PlannedRequest[]; refusals: EditRefusal[] }>;
  /** Sends each change (all of them, whatever one answers); no result when refused. */
  save(grid: EditedGrid, changes: RowChange[], signal: AbortSignal): Promise<{ results: ChangeResult[]; refusals: EditRefusal[] }>;
  /** A cell's whole value, read from the stored document (a cut cell shows only its start). */
  wholeValue(row: RowKey, column: string, signal: AbortSignal): Promise<JsonValue>;
  /** What may be done to an index or collection, with the exact requests. */
  targetActions(target: string): TargetAction[];
  /** Runs one; the caller has checked the name the user typed. Rejects with EngineError. */
  runTargetAction(target: string, action: TargetActionId, signal: AbortSignal): Promise<{ request: SentRequest; message: string }>;
}

/** API keys of an engine that has them (Typesense): immutable, the value given once at creation. */
export interface KeyAdmin {
  list(signal: AbortSignal): Promise<KeyInfo[]>;
  /** The listed key and its full value, which the caller must show once and never log. */
  add(key: NewKey, signal: AbortSignal): Promise<{ key: KeyInfo; value: string }>;
  remove(id: string, signal: AbortSignal): Promise<void>;
}

/** What the side panel shows under a connection besides its indices or collections. */
export interface AdminSide {
  readonly offers: AdminOffers;
  readonly keys?: KeyAdmin;
  /** One snapshot of the server's figures (dashboard, cluster overview); rates need two. */
  metrics?(signal: AbortSignal): Promise<MetricsSnapshot>;
}
