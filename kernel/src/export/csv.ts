/** RFC 4180 CSV: CRLF line ends, fields holding a quote, comma, CR or LF quoted with doubled quotes. */
import type { JsonValue } from '../console/cell';
import { ExactNumber, exactJson } from '../../../contracts/exact-json';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: JsonValue | undefined): string {
  // Strings first: most fields of most documents are.
  if (typeof value === 'string') {
    return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  }
  if (value === null || value === undefined) {
    return '';
  }
  // A number or boolean never needs quotes.
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  // Arrays and objects are written as JSON, as the grid shows them.
  const text =
    typeof value === 'object' && !(value instanceof ExactNumber)
      ? exactJson(value)
      : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: (JsonValue | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The record of `values`, which are cleared for the next line: no array a line. */
export function csvValues(values: (JsonValue | undefined)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) {
      line += ',';
    }
    line += csvField(values[i]);
    values[i] = undefined;
  }
  return `${line}\r\n`;
}
