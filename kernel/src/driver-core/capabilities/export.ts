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
  pages(): AsyncIterable<ExportPage>;
  /** Frees what the engine holds for the export (a point in time); safe to call twice. */
  close(): Promise<void>;
}

export interface DocumentExport {
  /** Opens a whole-index or whole-collection export; rejects with EngineError, before sending anything when the request is invalid. */
  open(request: ExportRequest, signal: AbortSignal): Promise<ExportStream>;
}
