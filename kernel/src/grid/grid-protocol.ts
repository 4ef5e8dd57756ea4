/**
 * The `searchbook.grid` comm protocol between the side panel and the kernel: defined once,
 * here, and imported by both halves. Every request carries the protocol version and a request
 * id; the kernel answers each request exactly once, with its reply or with an `error`.
 *
 * The view (filters, sort) is part of `open` so that the filter bar and engine sorting can
 * arrive without a new message: today only the empty view is accepted.
 */
import { z } from 'zod';
import { ColumnSchema, JsonValueSchema } from '../render/mime-types';
import { AdminReplySchemas, AdminRequestSchemas } from './admin-protocol';
import { GRID_PROTOCOL_VERSION } from './protocol-version';

export type { Column } from '../render/mime-types';

export const GRID_COMM_TARGET = 'searchbook.grid';
export { GRID_PROTOCOL_VERSION };

/** Rows per block when the panel does not ask for another size (drivers.md 8: the default page). */
export const DEFAULT_BLOCK_SIZE = 1000;
export const MAX_BLOCK_SIZE = 10_000;

const Base = { v: z.literal(GRID_PROTOCOL_VERSION), requestId: z.string().min(1) };

/** One filter-bar row (issue 11); sent empty until then. */
export const FilterRowSchema = z.object({ column: z.string(), operator: z.string(), value: JsonValueSchema.optional() });
export const SortKeySchema = z.object({ column: z.string(), direction: z.enum(['asc', 'desc']) });

/** What the grid shows of its target: today always the whole target in the engine's order. */
export const GridViewSchema = z.object({
  filters: z.array(FilterRowSchema).default([]),
  join: z.enum(['all', 'any']).default('all'),
  raw: z.string().default(''),
  sort: z.array(SortKeySchema).default([]),
});
export type GridView = z.infer<typeof GridViewSchema>;

export const GridRequestSchema = z.discriminatedUnion('type', [
  /** The kernel's open connections. */
  z.object({ ...Base, type: z.literal('connections') }),
  /** Saved profiles (names and addresses, never secrets), for a panel with no notebook kernel. */
  z.object({ ...Base, type: z.literal('profiles') }),
  /** Indices or collections of one connection. */
  z.object({ ...Base, type: z.literal('targets'), connection: z.string().min(1) }),
  /** Opens a grid on an index, collection, alias, pattern or data stream; answers with its first block. */
  z.object({
    ...Base,
    type: z.literal('open'),
    connection: z.string().min(1),
    target: z.string().min(1),
    blockSize: z.number().int().min(1).max(MAX_BLOCK_SIZE).default(DEFAULT_BLOCK_SIZE),
    view: GridViewSchema.default({ filters: [], join: 'all', raw: '', sort: [] }),
  }),
  /** One block of rows: rows [block × blockSize, (block + 1) × blockSize). */
  z.object({ ...Base, type: z.literal('read'), gridId: z.string().min(1), block: z.number().int().nonnegative() }),
  /** Reads the target again from the start (new total, new columns, cursors reset). */
  z.object({ ...Base, type: z.literal('refresh'), gridId: z.string().min(1) }),
  /** Releases the grid's cursors (an Elasticsearch point in time). */
  z.object({ ...Base, type: z.literal('close'), gridId: z.string().min(1) }),
  /** API keys and metrics of a connection (admin-protocol.ts). */
  ...AdminRequestSchemas,
]);
export type GridRequest = z.infer<typeof GridRequestSchema>;
export type GridRequestInput = z.input<typeof GridRequestSchema>;

export const ConnectionInfoSchema = z.object({
  name: z.string(),
  engine: z.enum(['elasticsearch', 'typesense']),
  address: z.string(),
  version: z.string(),
  active: z.boolean(),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfoSchema>;

export const ProfileInfoSchema = z.object({ name: z.string(), engine: z.enum(['elasticsearch', 'typesense']), address: z.string() });
export type ProfileInfo = z.infer<typeof ProfileInfoSchema>;

/** An index or collection as the tree lists it. */
export const TargetInfoSchema = z.object({
  name: z.string(),
  /** Documents; null when the engine does not say (a closed index). */
  count: z.number().int().nonnegative().nullable(),
  /** Elasticsearch only. */
  health: z.string().optional(),
  size: z.string().optional(),
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

/** A request the grid sent, for the status line (and, later, "copy as cell"). */
export const SentRequestSchema = z.object({ method: z.string(), path: z.string(), status: z.number().int(), elapsedMs: z.number() });
export type SentRequest = z.infer<typeof SentRequestSchema>;

export const BlockSchema = z.object({
  block: z.number().int().nonnegative(),
  /** Row number of the block's first row. */
  offset: z.number().int().nonnegative(),
  rows: z.array(z.record(z.string(), JsonValueSchema)),
  /** Cells holding a fragment of a longer array or object; rows numbered within the block. */
  cut: z.array(z.object({ row: z.number().int().nonnegative(), column: z.string() })),
  /** Columns of this block, in grid order: the grid adds those it did not have. */
  columns: z.array(ColumnSchema),
  /** The requests this block cost (a far jump walks through several). */
  requests: z.array(SentRequestSchema),
});
export type Block = z.infer<typeof BlockSchema>;

const ReplyBase = { v: z.literal(GRID_PROTOCOL_VERSION), requestId: z.string() };

export const GridReplySchema = z.discriminatedUnion('type', [
  z.object({ ...ReplyBase, type: z.literal('connections'), connections: z.array(ConnectionInfoSchema) }),
  z.object({ ...ReplyBase, type: z.literal('profiles'), profiles: z.array(ProfileInfoSchema), problem: z.string().optional() }),
  z.object({
    ...ReplyBase,
    type: z.literal('targets'),
    connection: z.string(),
    targets: z.array(TargetInfoSchema),
    /** Why the list is empty or partial (a key that may not list collections). */
    note: z.string().optional(),
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
  }),
  z.object({ ...ReplyBase, type: z.literal('block'), gridId: z.string(), total: z.number().int().nonnegative(), block: BlockSchema }),
  z.object({ ...ReplyBase, type: z.literal('closed'), gridId: z.string() }),
  z.object({
    ...ReplyBase,
    /** The request id is null when the message was too broken to carry one. */
    requestId: z.string().nullable(),
    type: z.literal('error'),
    /** What went wrong, with the engine's own reason; never a secret. */
    message: z.string(),
    status: z.number().int().optional(),
  }),
  ...AdminReplySchemas,
]);
export type GridReply = z.infer<typeof GridReplySchema>;
