/** The `searchbook.grid` comm protocol's version: both halves refuse messages of another. */
export const GRID_PROTOCOL_VERSION = 1;
