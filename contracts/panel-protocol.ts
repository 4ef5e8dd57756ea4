/**
 * The `searchbook.panel` comm protocol between the side panel and the kernel: defined once,
 * here, and imported by both halves. Every request carries the protocol version and a request
 * id; the kernel answers each request exactly once, with its reply or with an `error`.
 *
 * The view (filter bar and engine sort) is part of `open`: a new view opens the grid afresh,
 * so every cursor the kernel keeps belongs to exactly one filter and sort.
 */
import { z } from 'zod';
import { ColumnSchema } from './columns';
import { GridRowSchema } from './mime-types';
import { AdminReplySchemas, AdminRequestSchemas } from './admin-protocol';
import {
  EditReplySchemas,
  EditRequestSchemas,
  RowKeySchema,
  RowVersionSchema
} from './edit-protocol';
import { ExportReplySchemas, ExportRequestSchemas } from './export-protocol';
import { MAX_OUTPUT_ROWS } from './output-rows';
import { PANEL_PROTOCOL_VERSION } from './protocol-version';
import {
  ResourceReplySchemas,
  ResourceRequestSchemas
} from './resource-protocol';
import {
  GridSearchSchema,
  RowHighlightsSchema,
  SearchPreviewSchema
} from './search-preview';

export type { Column } from './columns';

/** The panel's comm: it serves the whole side panel (connections, profiles, grids, edits, export, keys, metrics). */
export const PANEL_COMM_TARGET = 'searchbook.panel';
/** The comm's name before protocol 4: a page loaded before the upgrade still opens it, and is told to reload. */
export const FORMER_COMM_TARGET = 'searchbook.grid';
export { PANEL_PROTOCOL_VERSION };

/** Rows per block when the panel does not ask for another size (the grid's default page). */
export const DEFAULT_BLOCK_SIZE = 1000;
export const MAX_BLOCK_SIZE = 10_000;

const Base = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string().min(1)
};

/** The filter bar's operators, in the order its menu lists them. */
export const FILTER_OPERATORS = [
  'equals',
  'not equals',
  'greater than',
  'greater or equal',
  'less than',
  'less or equal',
  'between',
  'in list',
  'not in list',
  'contains',
  'not contains',
  'starts with',
  'ends with',
  'is null',
  'is not null',
  'is empty',
  'is not empty',
  'matches regex'
] as const;
export const FilterOperatorSchema = z.enum(FILTER_OPERATORS);
export type FilterOperator = z.infer<typeof FilterOperatorSchema>;

/**
 * What a filter operator does on the grid's engine: the name the filter bar shows for it (the
 * operator itself stays the protocol's word), a sentence saying what it matches, and, when the
 * engine has no such filter, why, with what serves instead.
 */
export const OperatorInfoSchema = z.object({
  operator: FilterOperatorSchema,
  label: z.string(),
  does: z.string(),
  unavailable: z.string().optional()
});
export type OperatorInfo = z.infer<typeof OperatorInfoSchema>;

/**
 * One filter-bar row, its value as the user typed it (the kernel types it by the column's
 * mapping or schema): a list for `in list` / `not in list`, two ends for `between`, nothing
 * for the null and empty tests.
 */
export const FilterRowSchema = z.object({
  column: z.string().min(1),
  operator: FilterOperatorSchema,
  value: z.union([z.string(), z.array(z.string())]).default(''),
  /** Rows on leaves of one nested array with the same element label match the same element. */
  element: z.string().optional()
});
export type FilterRow = z.infer<typeof FilterRowSchema>;
export const SortKeySchema = z.object({
  column: z.string().min(1),
  direction: z.enum(['asc', 'desc'])
});
export type SortKey = z.infer<typeof SortKeySchema>;

/** What the grid shows of its target: the filter rows joined by All or Any, the raw row, the sort in click order. */
export const GridViewSchema = z.object({
  filters: z.array(FilterRowSchema).default([]),
  join: z.enum(['all', 'any']).default('all'),
  raw: z.string().default(''),
  sort: z.array(SortKeySchema).default([]),
  /** String operators match case exactly (Elasticsearch only: Typesense always ignores case); off unless asked. */
  matchCase: z.boolean().default(false),
  /** A search query ranking the rows (search-preview.ts), where the engine offers one; none: browsing. */
  search: GridSearchSchema.optional()
});
export type GridView = z.infer<typeof GridViewSchema>;
export const EMPTY_VIEW: GridView = {
  filters: [],
  join: 'all',
  raw: '',
  sort: [],
  matchCase: false
};

/** The request a grid sends for its view, as a console cell and as a curl command line (credential as an environment variable). */
export const ViewRequestSchema = z.object({
  cell: z.string(),
  curl: z.string()
});
export type ViewRequest = z.infer<typeof ViewRequestSchema>;

export const GridRequestSchema = z.discriminatedUnion('type', [
  /** The kernel's open connections. */
  z.object({ ...Base, type: z.literal('connections') }),
  /** Saved profiles (names and addresses, never secrets), for a panel with no notebook kernel. */
  z.object({ ...Base, type: z.literal('profiles') }),
  /** Indices or collections of one connection. */
  z.object({
    ...Base,
    type: z.literal('targets'),
    connection: z.string().min(1)
  }),
  /** Opens a grid on an index, collection, alias, pattern or data stream; answers with its first block. */
  z.object({
    ...Base,
    type: z.literal('open'),
    connection: z.string().min(1),
    target: z.string().min(1),
    blockSize: z
      .number()
      .int()
      .min(1)
      .max(MAX_BLOCK_SIZE)
      .default(DEFAULT_BLOCK_SIZE),
    view: GridViewSchema.default(EMPTY_VIEW),
    /**
     * The answer holds only the first this many rows, what the grid's first screen shows, so
     * they come sooner; the grid reads block 0 whole right after.
     */
    firstRows: z.number().int().min(1).max(MAX_BLOCK_SIZE).optional()
  }),
  /** One block of rows: rows [block × blockSize, (block + 1) × blockSize). */
  z.object({
    ...Base,
    type: z.literal('read'),
    gridId: z.string().min(1),
    block: z.number().int().nonnegative()
  }),
  /** Reads the target again from the start (new total, new columns, cursors reset). */
  z.object({ ...Base, type: z.literal('refresh'), gridId: z.string().min(1) }),
  /**
   * A console cell's requests as curl command lines (the cells' context menu), on the
   * connection the cell would use; credentials and `${env:NAME}` values stay environment
   * variable references.
   */
  z.object({ ...Base, type: z.literal('curl'), cell: z.string() }),
  /**
   * A console cell's requests as Python code for the engine's official client (the cells'
   * context menu, and a grid's request on the grid's `connection`); credentials are read from
   * the environment by their variables' names.
   */
  z.object({
    ...Base,
    type: z.literal('python'),
    cell: z.string(),
    connection: z.string().min(1).optional()
  }),
  /** Releases the grid's cursors (an Elasticsearch point in time). */
  z.object({ ...Base, type: z.literal('close'), gridId: z.string().min(1) }),
  /**
   * Rows of an answer kept in the kernel's notebook outputs from now on (searchbook's
   * settings); null returns to `SEARCHBOOK_MAX_ROWS` or the kernel's default.
   */
  z.object({
    ...Base,
    type: z.literal('outputRows'),
    rows: z.number().int().min(1).max(MAX_OUTPUT_ROWS).nullable()
  }),
  /**
   * Variables of the kernel's environment, set (a string) or removed (null), for `${env:NAME}`
   * in the cells run from now on: searchbook's IPython extension passes on what Python's
   * `os.environ` changed after it started the kernel. Never echoed in a reply.
   */
  z.object({
    ...Base,
    type: z.literal('environment'),
    values: z.record(z.string().min(1), z.string().nullable())
  }),
  /** API keys and metrics of a connection (admin-protocol.ts). */
  ...AdminRequestSchemas,
  /** Saving edits, whole values of cut cells, deleting and emptying targets (edit-protocol.ts). */
  ...EditRequestSchemas,
  /** Exports of a target or a grid's filter, with progress (export-protocol.ts). */
  ...ExportRequestSchemas,
  /** Aliases, synonym and curation sets, presets, stopwords, schemas (resource-protocol.ts). */
  ...ResourceRequestSchemas
]);
export type GridRequest = z.infer<typeof GridRequestSchema>;
export type GridRequestInput = z.input<typeof GridRequestSchema>;

export const ConnectionInfoSchema = z.object({
  name: z.string(),
  /** The engine's registered name; the kernel checks it where it opens the connection. */
  engine: z.string(),
  /** The product that answered (a fork of the engine names itself here), for showing; older kernels leave it out. */
  product: z.string().optional(),
  address: z.string(),
  version: z.string(),
  /** How it authenticates when that needs saying (`auth=aws-sigv4 region=eu-west-1 service=es ...`); never a secret. */
  auth: z.string().optional(),
  active: z.boolean()
});
export type ConnectionInfo = z.infer<typeof ConnectionInfoSchema>;

export const ProfileInfoSchema = z.object({
  name: z.string(),
  engine: z.string(),
  address: z.string()
});
export type ProfileInfo = z.infer<typeof ProfileInfoSchema>;

/** An index or collection as the tree lists it. */
export const TargetInfoSchema = z.object({
  name: z.string(),
  /** Documents; null when the engine does not say (a closed index). */
  count: z.number().int().nonnegative().nullable(),
  /** Elasticsearch only. */
  health: z.string().optional(),
  size: z.string().optional()
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

/** A request the grid sent, for the status line (and, later, "copy as cell"). */
export const SentRequestSchema = z.object({
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  elapsedMs: z.number()
});
export type SentRequest = z.infer<typeof SentRequestSchema>;

export const BlockSchema = z.object({
  block: z.number().int().nonnegative(),
  /** Row number of the block's first row. */
  offset: z.number().int().nonnegative(),
  rows: z.array(GridRowSchema),
  /** Cells holding a fragment of a longer array or object; rows numbered within the block. */
  cut: z.array(
    z.object({ row: z.number().int().nonnegative(), column: z.string() })
  ),
  /** Columns of this block, in grid order: the grid adds those it did not have. */
  columns: z.array(ColumnSchema),
  /** The requests this block cost (a far jump walks through several). */
  requests: z.array(SentRequestSchema),
  /** Where each row lives, parallel to `rows`: edits are addressed to these. */
  keys: z.array(RowKeySchema).optional(),
  /** Each row's version as read, parallel to `rows`; null where the engine keeps none (Typesense). */
  versions: z.array(RowVersionSchema.nullable()).optional(),
  /** Under a search query: each row's highlighted cells, parallel to `rows`. */
  highlights: z.array(RowHighlightsSchema).optional()
});
export type Block = z.infer<typeof BlockSchema>;

const ReplyBase = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string()
};

export const GridReplySchema = z.discriminatedUnion('type', [
  z.object({
    ...ReplyBase,
    type: z.literal('connections'),
    connections: z.array(ConnectionInfoSchema)
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('profiles'),
    profiles: z.array(ProfileInfoSchema),
    problem: z.string().optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('targets'),
    connection: z.string(),
    targets: z.array(TargetInfoSchema),
    /** Why the list is empty or partial (a key that may not list collections). */
    note: z.string().optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('opened'),
    gridId: z.string(),
    connection: z.string(),
    target: z.string(),
    blockSize: z.number().int().positive(),
    /** Exact number of documents. */
    total: z.number().int().nonnegative(),
    columns: z.array(ColumnSchema),
    first: BlockSchema,
    /**
     * For the user to see above the rows: what of the view the engine could not do and was left
     * out (a sort dropped), and how the target stores documents where edits depend on it (no
     * sequence numbers to detect concurrent changes, a `_source` the engine rebuilds).
     */
    notes: z.array(z.string()).default([]),
    /** The columns the engine sorts by, in order: the view's sort without those left out. */
    sortedBy: z.array(z.string()).default([]),
    request: ViewRequestSchema,
    /** Case control: false where the engine always ignores case (Typesense). */
    matchCaseSupported: z.boolean(),
    /** Every filter operator as the engine does it, in the bar's order. */
    operators: z.array(OperatorInfoSchema),
    /** The raw filter row's syntax, as an example for its placeholder. */
    rawFilterHint: z.string(),
    /** The engine's search preview for this target; absent where it offers none. */
    searchPreview: SearchPreviewSchema.optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('block'),
    gridId: z.string(),
    total: z.number().int().nonnegative(),
    block: BlockSchema
  }),
  z.object({ ...ReplyBase, type: z.literal('closed'), gridId: z.string() }),
  /** The rows the kernel now keeps in notebook outputs. */
  z.object({
    ...ReplyBase,
    type: z.literal('outputRows'),
    rows: z.number().int().positive()
  }),
  /** The environment variables were set; how many. */
  z.object({
    ...ReplyBase,
    type: z.literal('environment'),
    count: z.number().int().nonnegative()
  }),
  /**
   * Unasked (no request id): the kernel ended a grid because the connection it read was
   * replaced by `%connect` or closed. `message` leads with `connection replaced: reopen` or
   * `connection closed: reopen`; later requests for the grid get it as their error.
   */
  z.object({
    ...ReplyBase,
    requestId: z.null(),
    type: z.literal('ended'),
    gridId: z.string(),
    message: z.string()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('curl'),
    commands: z.array(z.string())
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('python'),
    /** The whole program: imports, one client per connection, each request and its printed answer. */
    code: z.string(),
    /** How many requests it sends. */
    requests: z.number().int().positive()
  }),
  z.object({
    ...ReplyBase,
    /** The request id is null when the message was too broken to carry one. */
    requestId: z.string().nullable(),
    type: z.literal('error'),
    /** What went wrong, with the engine's own reason; never a secret. */
    message: z.string(),
    status: z.number().int().optional(),
    /** A refused filter: the filter row (its index, or `raw`) the message belongs under. Nothing was sent. */
    filterRow: z
      .union([z.number().int().nonnegative(), z.literal('raw')])
      .optional()
  }),
  ...AdminReplySchemas,
  ...EditReplySchemas,
  ...ExportReplySchemas,
  ...ResourceReplySchemas
]);
export type GridReply = z.infer<typeof GridReplySchema>;
