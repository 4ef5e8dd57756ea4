/**
 * The export capability: the documents of a whole index or collection, a page at a time, in
 * the engine's own re-importable line shape, for the engine-neutral export files
 * (kernel/src/export/). Exists because each engine reads a whole target its own way (sliced
 * points in time, Typesense's export endpoint).
 */
import type { JsonValue } from '../../console/cell';
import type { GridView } from '../../../../contracts/panel-protocol';
import type { Column } from '../../../../contracts/columns';
import type { FieldTree } from '../field-tree';

export interface ExportRequest {
  /** The index, alias, pattern or collection, as the user wrote it. */
  target: string;
  /** What narrows the export: an Elasticsearch query object, or Typesense `filter_by` / `include_fields` / `exclude_fields`. */
  body?: JsonValue;
  /** Only these document fields (dotted names); undefined for whole documents. */
  fields?: string[];
  /** Parallel sliced cursors (Elasticsearch); 1 or undefined reads one cursor. */
  slices?: number;
  /** A grid's view (the side panel's "Export…" on a grid): its filter narrows the export; its sort is not kept (exports read in index order). */
  view?: GridView;
}

/** One document as a grid reads it: its leading values and its source. */
export interface GridDocument {
  /** Values of the leading columns (`_id`, `_index`, `_score`; Typesense `id`). */
  meta: Record<string, JsonValue>;
  /** The document itself (`_source`); a non-object shows in a `value` column. */
  source: JsonValue;
}

/**
 * One document of a page as the JSON text the engine sent, for a writer that copies values
 * without decoding them (CSV): ranges into the page's bytes, which are valid UTF-8. Valid only
 * during the visit (the object is reused for the next document).
 */
export interface DocumentText {
  readonly bytes: Buffer;
  /** The leading values' JSON text in `bytes`, in the order GridDocument.meta holds them. */
  readonly meta: readonly {
    readonly name: string;
    readonly start: number;
    readonly end: number;
  }[];
  /** The document's JSON text in `bytes` (GridDocument.source); start -1 when the engine sent none (an empty document). */
  readonly start: number;
  readonly end: number;
  /** The same document decoded, for what its text alone does not settle. */
  decoded(): GridDocument;
}

/**
 * One page of exported documents: their JSONL as the engine re-imports it, line by line, and
 * their grid form for CSV. Only what the file's format needs is built (a Typesense JSONL
 * export passes the engine's bytes through without decoding them), and documents are decoded
 * one at a time, so a page never becomes one large string or ten thousand live objects.
 */
export interface ExportPage {
  readonly count: number;
  /**
   * The page's lines, each ending in a newline (and holding none inside). A driver may reuse
   * the buffer for a later page: use it before asking for the page after next.
   */
  jsonl(): string | Buffer;
  /** Calls `visit` with each document's grid form, in order, each decoded only as it is visited. */
  eachDocument(visit: (document: GridDocument) => void): void;
  /**
   * The same documents as their JSON text, in order, where the page's bytes allow it (absent
   * for bytes that are not valid UTF-8, which only decoding turns into text).
   */
  eachDocumentText?: (visit: (document: DocumentText) => void) => void;
  /** The page's file bytes, already made off the kernel's main thread (PageConversion). */
  readonly converted?: ConvertedPage;
}

/**
 * What an engine's cursor needs from a page it did not read itself: plain data, so that it
 * crosses from a worker thread as it is.
 */
export interface ExportPageFacts {
  /** Documents in the page. */
  count: number;
  /** Exact JSON text of where the next page starts (the last document's sort values), when the page says. */
  next: string | undefined;
  /** A new id of the context the cursor reads in (a point in time), when the engine sent one. */
  context: string | undefined;
  /** What the engine reported as not read beside the page (failed shards). */
  failures: string[];
}

/** One page of an engine's answer, read from its bytes: the page, and its facts for the cursor. */
export interface ReadExportPage {
  page: ExportPage;
  facts: ExportPageFacts;
}

/**
 * Reads an engine's export answers from their bytes, on any thread: `cursor()` makes the
 * reader of one cursor's pages (it keeps buffers from one page to the next), which returns
 * undefined for bytes that are not such an answer.
 */
export interface ExportPageReading {
  /** `allocate`: where the page's JSONL lines are made (shared memory on a worker thread). */
  cursor(
    allocate?: (size: number) => Buffer
  ): (bytes: Buffer) => ReadExportPage | undefined;
}

/** A page's file bytes made from the engine's answer elsewhere (a worker thread). */
export interface ConvertedPage {
  /** Undefined when the bytes were not a page the engine's reader reads (the cursor says so). */
  facts: ExportPageFacts | undefined;
  /** The page's bytes in the file's format (JSONL lines for a JSON array). */
  bytes: Buffer;
  /** CSV: document fields met in this page that the header lacks. */
  leftOut: string[];
}

/**
 * Turns a cursor's answers into file bytes off the kernel's main thread, so that the cursors
 * of a sliced export are read on as many cores; undefined when the page is to be read on the
 * main thread as usual (no thread ready yet). Rejects when `signal` aborts.
 */
export interface PageConversion {
  convert(
    cursor: number,
    bytes: Buffer,
    signal: AbortSignal
  ): Promise<ConvertedPage | undefined>;
}

export interface ExportStream {
  /** Documents the export will hold, when the engine said (for progress); may be undefined. */
  readonly total: number | undefined;
  /** The grid's leading columns (`_id`, `_index`; Typesense `id`) and the mapping or schema, for CSV headers. */
  readonly leading: Column[];
  readonly tree: FieldTree | undefined;
  /** What the file's reader should know about the documents it holds (a `_source` the engine rebuilt); said when the export ends. */
  readonly notes?: string[];
  /**
   * Pages in the order they are read. A cursor reads its next page only once the caller asks
   * for it, after writing the previous one (with slices, the other cursors' pages may be in
   * flight meanwhile: one each). Rejects with EngineError on an engine failure.
   */
  pages(conversion?: PageConversion): AsyncIterable<ExportPage>;
  /**
   * Present when the engine's answers can be read on worker threads (its descriptor's
   * `loadExportPages`): the engine's name and how many cursors read at once. `pages` then
   * takes a PageConversion.
   */
  readonly offThread?: { readonly engine: string; readonly cursors: number };
  /** Frees what the engine holds for the export (a point in time); safe to call twice. */
  close(): Promise<void>;
}

export interface DocumentExport {
  /** Opens a whole-index or whole-collection export; rejects with EngineError, before sending anything when the request is invalid. */
  open(request: ExportRequest, signal: AbortSignal): Promise<ExportStream>;
}
