/**
 * Exact 64-bit integers: JavaScript numbers hold integers exactly only up to 2^53, while
 * Elasticsearch returns `_source` as it was sent and prints longs digit for digit. Request
 * bodies are parsed with such integers kept as marker strings ("\u0000long:<digits>"), the
 * code that reads values as numbers goes through `numberOf`, and answers print the markers
 * back as bare integers.
 */
const PREFIX = '\u0000long:';
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

export function isLongMarker(v: unknown): v is string {
  return typeof v === 'string' && v.startsWith(PREFIX);
}

export function longMarker(digits: string): string {
  return PREFIX + digits;
}

/** A value as a number: markers give their (rounded) double. */
export function numberOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (isLongMarker(v)) return Number(v.slice(PREFIX.length));
  return typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/** A marker's digits, other values unchanged. */
export function plainText(v: string): string {
  return isLongMarker(v) ? v.slice(PREFIX.length) : v;
}

/** JSON.parse, keeping integers beyond 2^53 exact (as markers). */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const marked = text.replace(TOKEN, (tok) => {
    if (tok.startsWith('"') || /[.eE]/.test(tok) || Number.isSafeInteger(Number(tok))) return tok;
    return JSON.stringify(PREFIX + tok);
  });
  return JSON.parse(marked);
}

/** JSON.stringify, printing markers as the integers they hold. */
export function stringifyJson(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return text.includes('\\u0000long:') ? text.replace(/"\\u0000long:(-?\d+)"/g, '$1') : text;
}
