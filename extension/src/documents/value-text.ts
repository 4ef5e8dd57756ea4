import type { CellEdit } from '@searchbook/contracts/edit-protocol';
import { exactJson } from '@searchbook/contracts/exact-json';

/** A stored value as the text a user edits; null for null (an empty cell). */
export function valueText(value: unknown, json: boolean): CellEdit {
  if (value === null || value === undefined) {
    return null;
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return exactJson(value, json ? 2 : undefined);
}
