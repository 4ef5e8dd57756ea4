import { z } from 'zod';

/**
 * A grid's search preview, where the engine offers one (Typesense): a text query that ranks the
 * rows by text match, as the engine's own dashboards preview a search. Part of the grid's view,
 * so it is sent with `open`, kept across a reload with the filters, and copied with the view.
 */
export const GridSearchSchema = z.object({
  /** The words searched for (Typesense `q`). */
  q: z.string().trim().min(1),
  /** The fields searched, comma-separated as the engine writes them (`query_by`); empty: the fields the grid offered by default. */
  queryBy: z.string().default('')
});
export type GridSearch = z.infer<typeof GridSearchSchema>;

/** What the engine offers a grid for its search preview (the `opened` reply); absent: no preview. */
export const SearchPreviewSchema = z.object({
  /** The fields searched when the view names none (a collection's string fields). */
  queryBy: z.array(z.string()),
  /** The column holding each row's text match score while a query is on. */
  scoreColumn: z.string(),
  /** The column holding each row's highlighted snippets while a query is on. */
  highlightColumn: z.string(),
  /** What the query box searches, for its placeholder and tooltip. */
  hint: z.string()
});
export type SearchPreview = z.infer<typeof SearchPreviewSchema>;

/**
 * A cell's text cut into the parts the engine marked as matching the query and the rest: the
 * kernel has taken the engine's markup apart, so every part is plain text, painted as text.
 */
export const MarkedTextSchema = z.array(
  z.object({ text: z.string(), marked: z.boolean() })
);
export type MarkedText = z.infer<typeof MarkedTextSchema>;

/** One row's highlighted cells, by column. */
export const RowHighlightsSchema = z.array(
  z.object({ column: z.string(), parts: MarkedTextSchema })
);
export type RowHighlights = z.infer<typeof RowHighlightsSchema>;
