import type { JsonValue } from '../console/cell';
import { fieldRecord } from '../../../contracts/own-fields';
import { exactJson } from '../../../contracts/exact-json';

/** Array and object cells longer than this (as JSON text), and strings longer than this, are cut (the grid loads the whole value before it is edited). */
export const CELL_CHARS = 10_000;

export interface CutRows {
  rows: Record<string, JsonValue>[];
  /** Which cells hold a fragment: nothing may save such a cell back to the engine. */
  cut: { row: number; column: string }[];
}

/**
 * Replaces each oversized array or object cell by the first CELL_CHARS characters of its
 * JSON followed by `...`, and each oversized string by its first CELL_CHARS characters and
 * `...` (one hit may hold hundreds of megabytes of text), and records where, so the grid can
 * mark the cell and refuse edits.
 */
export function cutLongCells(rows: Record<string, JsonValue>[]): CutRows {
  const cut: CutRows['cut'] = [];
  const out = rows.map((row, index) => {
    let copy: Record<string, JsonValue> | undefined;
    for (const [column, value] of Object.entries(row)) {
      if (
        value === null ||
        (typeof value !== 'object' && typeof value !== 'string')
      ) {
        continue;
      }
      const text = typeof value === 'string' ? value : exactJson(value);
      if (text.length <= CELL_CHARS) {
        continue;
      }
      copy ??= fieldRecord(row);
      copy[column] = `${text.slice(0, CELL_CHARS)}...`;
      cut.push({ row: index, column });
    }
    return copy ?? row;
  });
  return { rows: out, cut };
}
