/**
 * The documents capability: the side panel's grid reading an index or collection block by
 * block, filtered and sorted by the view. Exists because each engine pages, filters and sorts
 * its own way (a point in time, `filter_by`).
 */
import type { JsonValue } from '../../console/cell';
import type {
  GridView,
  OperatorInfo,
  SentRequest,
  ViewRequest
} from '../../../../contracts/panel-protocol';
import type {
  DocumentMeta,
  RowKey,
  RowVersion
} from '../../../../contracts/edit-protocol';
import type { Column } from '../../../../contracts/columns';
import type {
  RowHighlights,
  SearchPreview
} from '../../../../contracts/search-preview';

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
  /** Under a search query: each row's highlighted cells, parallel to `rows`. */
  highlights?: RowHighlights[];
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
  /** Parts of the view the engine cannot do, left out (a dropped sort), and what edits of this target cannot do (detect a concurrent change). */
  notes: string[];
  /** The columns the engine sorts by, in order (the view's sort without those left out). */
  sortedBy: string[];
  /** The search the grid sends, as a console cell and a curl command. */
  request: ViewRequest;
  /** The search preview this target offers (its default fields); absent where the engine has none. */
  searchPreview?: SearchPreview;
}

/** A document as stored now, for the grid's document view (see the `wholeDocument` reply). */
export interface WholeDocument {
  document: JsonValue;
  meta: DocumentMeta[];
  values: Record<string, JsonValue>;
  version?: RowVersion;
}

/** What the grid's filter bar offers on this engine. */
export interface FilterSyntax {
  /** Whether string filters can match case exactly (the filter bar's case control). */
  matchCase: boolean;
  /** What each filter operator does on this engine, and those it has no filter for. */
  operators: OperatorInfo[];
  /** The raw filter row's syntax, as an example (`name:Widget AND price:>10`). */
  rawHint: string;
}

export interface Documents {
  /**
   * Opens a reader filtered and sorted by the view and reads block 0 (which gives the exact
   * total), or only its first `firstRows` rows when given. A filter the engine cannot take
   * rejects with ViewRefusal before anything is sent.
   */
  open(
    target: string,
    blockSize: number,
    view: GridView,
    signal: AbortSignal,
    firstRows?: number
  ): Promise<OpenedGrid>;
  /** A cell's whole value, read from the stored document (a cut cell shows only its start). */
  wholeValue(
    row: RowKey,
    column: string,
    signal: AbortSignal
  ): Promise<JsonValue>;
  /** A row's whole document with its metadata, read from the engine now. */
  wholeDocument(row: RowKey, signal: AbortSignal): Promise<WholeDocument>;
  readonly filters: FilterSyntax;
  /** The engine ranks a grid by a text query (the view's `search`); absent: a view with one is refused. */
  readonly searches?: true;
}
