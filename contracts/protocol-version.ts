/**
 * The `searchbook.panel` comm protocol's version: both halves refuse messages of another.
 * 2: views (filters, sort) on `open`, the view's request and notes on `opened`, `curl` for cells.
 * 3: editing (edit-protocol.ts), row keys and versions on blocks.
 * 4: the comm renamed `searchbook.panel` (it was `searchbook.grid`), for what it serves.
 */
export const PANEL_PROTOCOL_VERSION = 4;
