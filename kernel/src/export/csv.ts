/** RFC 4180 CSV: CRLF line ends, fields holding a quote, comma, CR or LF quoted with doubled quotes. */
import type { JsonValue } from '../console/cell';
import { ExactNumber, exactJson } from '../../../contracts/exact-json';

export function csvField(value: JsonValue | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  // Arrays and objects are written as JSON, as the grid shows them.
  const text =
    typeof value === 'object' && !(value instanceof ExactNumber)
      ? exactJson(value)
      : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: (JsonValue | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
