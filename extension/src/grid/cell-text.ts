/**
 * How a document value reads in one grid cell. The grid paints text on a canvas, so nothing
 * here is ever markup; line breaks become a visible mark to keep rows one line high.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value.replace(/\r\n|\r|\n/g, ' ⏎ ');
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value);
}

/** The full value for the detail view: pretty JSON for structures, the string itself otherwise. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (typeof value === 'string') {
    return value;
  }
  return JSON.stringify(value, null, 2);
}

/** A value as one TSV field: tabs and line breaks would split the row, so they are escaped. */
export function tsvField(value: unknown): string {
  return cellText(value).replace(/\t/g, '\\t').replace(/ ⏎ /g, '\\n');
}
