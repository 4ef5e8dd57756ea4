/**
 * Date formats as mappings and aggregations name them: `||`-separated lists of built-in
 * names (strict_date_optional_time, date_optional_time, epoch_millis, epoch_second, date,
 * strict_date, basic_date, date_time, year_month_day...) and Java patterns built from
 * yyyy yy MM M dd d HH H mm ss SSS, quoted literals and X/Z zone offsets. A value parses
 * with the first format that reads it whole; it prints with the first format of the list.
 */

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

const ISO_NAMES = new Set([
  'strict_date_optional_time',
  'date_optional_time',
  'strict_date_optional_time_nanos',
  'date_time',
  'strict_date_time',
  'date_time_no_millis',
  'strict_date_time_no_millis'
]);
const NAMED_PATTERNS: Record<string, string> = {
  date: 'yyyy-MM-dd',
  strict_date: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month_day: 'yyyy-MM-dd',
  basic_date: 'yyyyMMdd',
  year: 'yyyy',
  strict_year: 'yyyy',
  year_month: 'yyyy-MM',
  strict_year_month: 'yyyy-MM',
  hour_minute_second: 'HH:mm:ss'
};

type Token = { field: string; width: number } | { literal: string };

function tokens(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      out.push({ literal: pattern.slice(i + 1, end < 0 ? undefined : end) });
      i = end < 0 ? pattern.length : end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (pattern[j] === ch) {
        j++;
      }
      out.push({ field: ch, width: j - i });
      i = j;
    } else {
      out.push({ literal: ch });
      i++;
    }
  }
  return out;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function offsetText(minutes: number, withColon = true): string {
  if (minutes === 0) {
    return 'Z';
  }
  const sign = minutes < 0 ? '-' : '+';
  const a = Math.abs(minutes);
  return `${sign}${pad(Math.floor(a / 60), 2)}${withColon ? ':' : ''}${pad(a % 60, 2)}`;
}

function printPattern(
  ms: number,
  pattern: string,
  offsetMinutes: number
): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  return tokens(pattern)
    .map(t => {
      if ('literal' in t) {
        return t.literal;
      }
      switch (t.field) {
        case 'y':
        case 'u':
          return t.width === 2
            ? pad(d.getUTCFullYear() % 100, 2)
            : pad(d.getUTCFullYear(), t.width);
        case 'M':
          return pad(d.getUTCMonth() + 1, t.width);
        case 'd':
          return pad(d.getUTCDate(), t.width);
        case 'H':
          return pad(d.getUTCHours(), t.width);
        case 'm':
          return pad(d.getUTCMinutes(), t.width);
        case 's':
          return pad(d.getUTCSeconds(), t.width);
        case 'S':
          return pad(d.getUTCMilliseconds(), 3).slice(0, t.width);
        case 'X':
        case 'Z':
        case 'x':
          return offsetText(offsetMinutes, t.width !== 2 && t.field !== 'Z');
        default:
          return '';
      }
    })
    .join('');
}

/** Epoch millis, or the index where the text stops fitting the pattern (as Java's DateTimeParseException reports it). */
function parsePattern(
  text: string,
  pattern: string
): number | { failedAt: number } {
  let at = 0;
  const v = { y: 1970, M: 1, d: 1, H: 0, m: 0, s: 0, S: 0, offset: 0 };
  for (const t of tokens(pattern)) {
    if ('literal' in t) {
      if (!text.startsWith(t.literal, at)) {
        return { failedAt: at };
      }
      at += t.literal.length;
      continue;
    }
    if (t.field === 'X' || t.field === 'Z' || t.field === 'x') {
      const m = /^(Z|[+-]\d{2}:?\d{2})/.exec(text.slice(at));
      if (!m) {
        return { failedAt: at };
      }
      const z = m[1] as string;
      v.offset =
        z === 'Z'
          ? 0
          : (z[0] === '-' ? -1 : 1) *
            (Number(z.slice(1, 3)) * 60 + Number(z.slice(-2)));
      at += z.length;
      continue;
    }
    const width = t.width >= 2 || t.field === 'y' ? t.width : 1;
    const m = (t.width >= 2 ? new RegExp(`^\\d{${width}}`) : /^\d{1,2}/).exec(
      text.slice(at)
    );
    if (!m) {
      return { failedAt: at };
    }
    at += m[0].length;
    const n = Number(m[0]);
    if (t.field === 'y' || t.field === 'u') {
      v.y = t.width === 2 ? 2000 + n : n;
    } else if (t.field === 'S') {
      v.S = Number(m[0].padEnd(3, '0').slice(0, 3));
    } else if (t.field in v) {
      (v as Record<string, number>)[t.field] = n;
    }
  }
  if (at !== text.length) {
    return { failedAt: at };
  }
  if (
    v.M < 1 ||
    v.M > 12 ||
    v.d < 1 ||
    v.d > 31 ||
    v.H > 23 ||
    v.m > 59 ||
    v.s > 59
  ) {
    return { failedAt: 0 };
  }
  return Date.UTC(v.y, v.M - 1, v.d, v.H, v.m, v.s, v.S) - v.offset * 60_000;
}

function parseOne(value: unknown, format: string): number | undefined {
  if (format === 'epoch_millis') {
    if (typeof value === 'number') {
      return Number.isFinite(value) ? Math.trunc(value) : undefined;
    }
    return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
      ? Math.trunc(Number(value))
      : undefined;
  }
  if (format === 'epoch_second') {
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
          ? Number(value)
          : NaN;
    return Number.isFinite(n) ? Math.trunc(n * 1000) : undefined;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  if (ISO_NAMES.has(format)) {
    return /^\d{4}/.test(value) && !/^\d+$/.test(value)
      ? parseDate(value)
      : /^\d{4}$/.test(value)
        ? Date.UTC(Number(value), 0, 1)
        : undefined;
  }
  const parsed = parsePattern(value, NAMED_PATTERNS[format] ?? format);
  return typeof parsed === 'number' ? parsed : undefined;
}

/** Java's message for a text one pattern cannot read: "Text '...' could not be parsed at index N". */
export function patternFailure(value: string, format: string): string {
  const parsed = parsePattern(value, NAMED_PATTERNS[format] ?? format);
  return `Text '${value}' could not be parsed at index ${typeof parsed === 'number' ? 0 : parsed.failedAt}`;
}

/** Epoch millis of a value under a `||` list of formats, or undefined when none reads it. */
export function parseWithFormat(
  value: unknown,
  formats: string = DEFAULT_DATE_FORMAT
): number | undefined {
  for (const f of formats.split('||')) {
    const t = parseOne(value, f.trim());
    if (t !== undefined) {
      return t;
    }
  }
  return undefined;
}

/** A date as the first format of a list prints it, in a zone `offsetMinutes` east of UTC. */
export function formatWith(
  ms: number,
  formats: string = DEFAULT_DATE_FORMAT,
  offsetMinutes = 0
): string {
  const first = (formats.split('||')[0] ?? '').trim();
  if (first === 'epoch_millis') {
    return String(ms);
  }
  if (first === 'epoch_second') {
    return String(Math.trunc(ms / 1000));
  }
  if (ISO_NAMES.has(first)) {
    const text = printPattern(
      ms,
      "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
      offsetMinutes
    );
    // java.time's ISO printers sign a year past 9999 (`+12952-06-08T...`), as the sum of a date field's stats can be.
    return /^\d{5}/.test(text) ? `+${text}` : text;
  }
  return printPattern(ms, NAMED_PATTERNS[first] ?? first, offsetMinutes);
}

/** `time_zone` as a fixed offset in minutes east of UTC: `+01:00`, `-0500`, `Z`, `UTC`; undefined when not one. */
export function zoneOffset(zone: unknown): number | undefined {
  if (zone === undefined || zone === null) {
    return 0;
  }
  const text = String(zone);
  if (text === 'Z' || text === 'UTC' || text === 'GMT' || text === 'Etc/UTC') {
    return 0;
  }
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (!m) {
    return undefined;
  }
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

const DATE_RE =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}(?::\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const SLASH_DATE_RE =
  /^(\d{4})\/(\d{2})\/(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?(?: ?(Z|[+-]\d{2}:?\d{2}))?$/;

/** Parses the date forms the sandbox accepts (ISO-8601 and epoch millis) to epoch millis. */
export function parseDate(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  if (/^-?\d+$/.test(value) && !/^\d{4}$/.test(value)) {
    return Number(value);
  }
  if (DATE_RE.test(value)) {
    const iso =
      value.length === 10
        ? `${value}T00:00:00Z`
        : /Z|[+-]\d{2}:?\d{2}$/.test(value.slice(10))
          ? value
          : `${value}Z`;
    const t = Date.parse(iso);
    return Number.isNaN(t) ? undefined : t;
  }
  const m = SLASH_DATE_RE.exec(value);
  if (m) {
    const t = Date.parse(
      `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? 'Z'}`
    );
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

export function looksLikeDate(s: string): boolean {
  return (DATE_RE.test(s) && s.length >= 10) || SLASH_DATE_RE.test(s);
}
