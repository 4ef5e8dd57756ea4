import { z } from 'zod';

/** How much of an answer goes into the notebook. */
export interface OutputLimits {
  /** Rows in the grid payload; the rest are counted in a notice. */
  gridRows: number;
  /**
   * Rows each table of the text/plain and text/html fallbacks shows when it has more than
   * `fallbackWholeRows`, as pandas shows ten of a long frame: JupyterLab's table of contents
   * sanitizes every output's HTML when a notebook opens, whatever it shows, so each row there
   * slows the open of a notebook.
   */
  fallbackRows: number;
  /** A table of at most this many rows shows them all in its fallbacks (pandas' `max_rows`). */
  fallbackWholeRows: number;
  /** Characters of rows each fallback table may hold (at least one row), for rows of many or long cells. */
  fallbackChars: number;
  /** Characters of a JSON or text answer its fallbacks keep, so a huge answer's fallbacks stay readable pages. */
  fallbackMaxChars: number;
  /** Bytes of a hits or table answer kept whole in the notebook; a larger one keeps its rows, long cells cut. */
  answerChars: number;
  /** Characters of rows kept instead of an answer too large to keep: the rows past them are left out. */
  storedRowsChars: number;
  /** Characters of any other body kept as application/json. */
  rawJsonChars: number;
  /** Each hits or table bundle also carries its grid's rows under ROWS_MIME (contracts/mime-types.ts). */
  rowsAsValues?: boolean;
  /** Nothing of the answer is shown, only its value read: the text and HTML grids are one summary line. */
  valueOnly?: boolean;
  /** A hits or table answer kept goes as its JSON bytes in a buffer of the message (MessageBuffer), not as a swapped string. */
  answerAsBuffer?: boolean;
}

/**
 * Columns of a grid or table kept in the notebook: an answer whose documents hold a hundred
 * thousand fields would otherwise write every one of them, in every row.
 */
export const MAX_OUTPUT_COLUMNS = 1_000;

export const DEFAULT_LIMITS: OutputLimits = {
  gridRows: 1_000,
  fallbackRows: 10,
  fallbackWholeRows: 60,
  fallbackChars: 8_000,
  fallbackMaxChars: 250_000,
  answerChars: 20_000_000,
  storedRowsChars: 20_000_000,
  rawJsonChars: 1_000_000
};

const RowsSetting = z.coerce.number().int().positive();

/**
 * `SEARCHBOOK_MAX_ROWS` in the kernel's environment raises or lowers the grid's row cap;
 * `SEARCHBOOK_ROWS_AS_VALUES=1` (set by the IPython extension for the kernel it starts) adds the rows
 * that extension cannot rebuild from the output.
 */
export function limitsFromEnv(
  env: Record<string, string | undefined> = process.env
): OutputLimits {
  const rows =
    env.SEARCHBOOK_MAX_ROWS === undefined
      ? undefined
      : RowsSetting.safeParse(env.SEARCHBOOK_MAX_ROWS);
  const limits = rows?.success
    ? { ...DEFAULT_LIMITS, gridRows: rows.data }
    : DEFAULT_LIMITS;
  return env.SEARCHBOOK_ROWS_AS_VALUES === '1'
    ? { ...limits, rowsAsValues: true }
    : limits;
}
