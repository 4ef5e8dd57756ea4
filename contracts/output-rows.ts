/**
 * The rows of an answer kept in a notebook output: searchbook's "Rows kept in notebook
 * outputs" setting, sent by the panel to each kernel it talks to, else `SEARCHBOOK_MAX_ROWS`
 * in the kernel's environment, else the kernel's default.
 */

/** The setting's upper end: a million rows already make a notebook of hundreds of megabytes. */
export const MAX_OUTPUT_ROWS = 1_000_000;

/** How to keep more rows, for the notices under a grid or table that lost some. */
export const KEEP_MORE_ROWS =
  "raise Rows kept in notebook outputs in searchbook's settings (or SEARCHBOOK_MAX_ROWS)";
