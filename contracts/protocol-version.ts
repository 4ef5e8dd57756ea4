/**
 * The `searchbook.grid` comm protocol's version: both halves refuse messages of another.
 * 2: views (filters, sort) on `open`, the view's request and notes on `opened`, `curl` for cells.
 * 3: editing (edit-protocol.ts), row keys and versions on blocks.
 */
export const GRID_PROTOCOL_VERSION = 3;
