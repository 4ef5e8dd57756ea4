/**
 * Whether a typed date fits a date field's `format` (alternatives joined by `||`; the default
 * is `strict_date_optional_time||epoch_millis`), checked before a grid edit is sent. Built-in
 * names and Java-style patterns (`yyyy-MM-dd HH:mm:ss`) are checked; a pattern this checker
 * cannot read (text month names, week dates) is left to the engine.
 */

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

const ZONE = '(?:Z|[+-]\\d{2}(?::?\\d{2})?)';
const FRACTION = '(?:[.,]\\d{1,9})';
const DATE = '\\d{4}-\\d{2}-\\d{2}';
const OPTIONAL_TIME = `\\d{4}(?:-\\d{2}(?:-\\d{2}(?:T\\d{2}(?::\\d{2}(?::\\d{2}${FRACTION}?)?)?${ZONE}?)?)?)?`;

/** Built-in format names (and their `strict_` forms) as patterns over the whole text. */
const NAMED: Record<string, string> = {
  date_optional_time: OPTIONAL_TIME,
  date_optional_time_nanos: OPTIONAL_TIME,
  epoch_millis: '-?\\d+(?:\\.\\d+)?',
  epoch_second: '-?\\d+(?:\\.\\d+)?',
  date: DATE,
  year_month_day: DATE,
  year_month: '\\d{4}-\\d{2}',
  year: '\\d{4}',
  date_time: `${DATE}T\\d{2}:\\d{2}:\\d{2}${FRACTION}${ZONE}`,
  date_time_no_millis: `${DATE}T\\d{2}:\\d{2}:\\d{2}${ZONE}`,
  date_hour: `${DATE}T\\d{2}`,
  date_hour_minute: `${DATE}T\\d{2}:\\d{2}`,
  date_hour_minute_second: `${DATE}T\\d{2}:\\d{2}:\\d{2}`,
  date_hour_minute_second_fraction: `${DATE}T\\d{2}:\\d{2}:\\d{2}${FRACTION}`,
  date_hour_minute_second_millis: `${DATE}T\\d{2}:\\d{2}:\\d{2}${FRACTION}`,
  basic_date: '\\d{8}',
  basic_date_time: `\\d{8}T\\d{6}${FRACTION}${ZONE}`,
  basic_date_time_no_millis: `\\d{8}T\\d{6}${ZONE}`,
  hour_minute: '\\d{2}:\\d{2}',
  hour_minute_second: '\\d{2}:\\d{2}:\\d{2}',
  time: `\\d{2}:\\d{2}:\\d{2}${FRACTION}${ZONE}`,
  time_no_millis: `\\d{2}:\\d{2}:\\d{2}${ZONE}`
};

/** Java date pattern letters this checker reads, by run length. */
function letterPattern(letter: string, count: number): string | undefined {
  switch (letter) {
    case 'y':
    case 'u':
      return count === 2 ? '\\d{2}' : '\\d{4}';
    case 'M':
    case 'd':
    case 'H':
    case 'h':
    case 'm':
    case 's':
      return count >= 3 ? undefined : count === 2 ? '\\d{2}' : '\\d{1,2}';
    case 'S':
      return `\\d{${count}}`;
    case 'D':
      return '\\d{1,3}';
    case 'a':
      return '(?:AM|PM|am|pm)';
    case 'X':
    case 'x':
    case 'Z':
      return ZONE;
    default:
      return undefined;
  }
}

/** A Java-style pattern as a regular expression, or undefined when it uses letters not read here. */
function customPattern(format: string): string | undefined {
  let out = '';
  for (let i = 0; i < format.length;) {
    const ch = format[i] as string;
    if (ch === "'") {
      const end = format.indexOf("'", i + 1);
      if (end < 0) {
        return undefined;
      }
      out += end === i + 1 ? "'" : escape(format.slice(i + 1, end));
      i = end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (format[i + count] === ch) {
        count++;
      }
      const part = letterPattern(ch, count);
      if (part === undefined) {
        return undefined;
      }
      out += part;
      i += count;
    } else if (ch === '[' || ch === ']') {
      // Optional sections: rare in grid edits; leave them to the engine.
      return undefined;
    } else {
      out += escape(ch);
      i++;
    }
  }
  return out;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern of one alternative; undefined when it cannot be checked here. */
function alternativePattern(alternative: string): string | undefined {
  const name = alternative.trim();
  const named = NAMED[name.replace(/^strict_/, '')];
  return named ?? customPattern(name);
}

/** A calendar date that does not exist (2024-02-30, month 13) in an ISO-shaped text. */
function impossibleDate(text: string): boolean {
  const match =
    /^(\d{4})-?(\d{2})-?(\d{2})?(?:T(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?/.exec(
      text
    );
  if (!match) {
    return false;
  }
  const [, y, mo, d, h, mi, s] = match.map(v =>
    v === undefined ? undefined : Number(v)
  );
  if (mo !== undefined && (mo < 1 || mo > 12)) {
    return true;
  }
  if (d !== undefined && y !== undefined && mo !== undefined) {
    const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    if (d < 1 || d > days) {
      return true;
    }
  }
  return (
    (h !== undefined && h > 23) ||
    (mi !== undefined && mi > 59) ||
    (s !== undefined && s > 59)
  );
}

/** Undefined when the text fits one alternative (or one cannot be checked here); else the formats it misses. */
export function dateMisfit(
  text: string,
  format: string | undefined
): string | undefined {
  const formats = format ?? DEFAULT_DATE_FORMAT;
  const alternatives = formats.split('||');
  for (const alternative of alternatives) {
    const pattern = alternativePattern(alternative);
    if (pattern === undefined) {
      return undefined;
    }
    if (
      new RegExp(`^${pattern}$`).test(text) &&
      !(
        /^\d{4}/.test(text) &&
        !/^epoch_/.test(alternative.trim()) &&
        impossibleDate(text)
      )
    ) {
      return undefined;
    }
  }
  return formats;
}
