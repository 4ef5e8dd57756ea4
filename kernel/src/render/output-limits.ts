import { z } from 'zod';

/** How much of an answer goes into the notebook. */
export interface OutputLimits {
  /** Rows in the grid payload; the rest are counted in a notice. */
  gridRows: number;
  /** Rows in the text/plain and text/html fallbacks. */
  fallbackRows: number;
  /** Characters of the raw body kept as application/json. */
  rawJsonChars: number;
}

export const DEFAULT_LIMITS: OutputLimits = { gridRows: 1_000, fallbackRows: 50, rawJsonChars: 1_000_000 };

const RowsSetting = z.coerce.number().int().positive();

/** `SEARCHBOOK_MAX_ROWS` in the kernel's environment raises or lowers the grid's row cap. */
export function limitsFromEnv(env: Record<string, string | undefined> = process.env): OutputLimits {
  const rows = env.SEARCHBOOK_MAX_ROWS === undefined ? undefined : RowsSetting.safeParse(env.SEARCHBOOK_MAX_ROWS);
  return rows?.success ? { ...DEFAULT_LIMITS, gridRows: rows.data } : DEFAULT_LIMITS;
}
