/**
 * Exact JSON for both halves. A JavaScript number holds about 15.9 significant digits, so
 * JSON.parse rounds an Elasticsearch `long` or `unsigned_long` past 2^53, a Typesense `int64`,
 * or a decimal with more digits than a double keeps. Such a number is read here as an
 * `ExactNumber` holding its literal text, and printed back as that bare literal, so every
 * reader shows and every writer sends the digits the engine sent.
 *
 * Own code rather than a JSON parser written in JavaScript (lossless-json and the like): the
 * text goes through the engine's own JSON.parse, and an answer that holds no number of 16 or
 * more significant digits (almost every answer) is read by one plain JSON.parse after a
 * regular-expression test, so it costs nothing more than before.
 */

/** A JSON number a JavaScript number cannot hold exactly: its literal text, as the engine wrote it. */
export class ExactNumber {
  readonly text: string;

  constructor(text: string) {
    if (!NUMBER.test(text)) {
      throw new TypeError(`not a JSON number: ${text}`);
    }
    this.text = text;
  }

  /** The nearest JavaScript number, for arithmetic and comparisons. */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /**
   * Where the platform has JSON.rawJSON (browsers), plain JSON.stringify prints the bare
   * literal; elsewhere a mark that exactJson prints as the bare literal.
   */
  toJSON(): unknown {
    if (rawJSON) {
      return rawJSON(this.text);
    }
    marksPrinted++;
    return MARK + this.text;
  }
}

/** Marks JSON.stringify has printed: exactJson looks for marks only when it printed some. */
let marksPrinted = 0;

/** A JSON number literal, whole. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/** A mark no value holds: drawn per process (per page), so no text a user or a document holds can pass for one. */
const MARK = `\u0001${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`;
const PRINTED_MARK_TEXT = JSON.stringify(MARK).slice(1, -1);
const PRINTED_MARK = new RegExp(
  `"${PRINTED_MARK_TEXT.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?[0-9.eE+-]+)"`,
  'g'
);

/** Strings and numbers of JSON text, each whole, so a number is only ever read from its start. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

const isDigitOrPoint = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e;

/** An exponent of three digits: a number past a double's range (`1e400`, `1e-400`) may be one. */
const BIG_EXPONENT = /\d[eE][+-]?\d{3}/;

/**
 * Whether text may hold a number JSON.parse does not read exactly: one of 16 or more
 * significant digits, or one beyond a double's range (JSON.parse makes `1e400` Infinity and
 * `1e-400` 0). Anything else parses exactly with JSON.parse.
 */
export function mayHoldLongNumber(text: string): boolean {
  return mayHoldManyDigits(text) || BIG_EXPONENT.test(text);
}

/**
 * Whether text holds a run of 16 digits and decimal points. Every 16th character is looked
 * at, since any such run covers one of them: a few times faster than a regular expression
 * over a long answer.
 */
function mayHoldManyDigits(text: string): boolean {
  const end = text.length;
  for (let i = 15; i < end; i += 16) {
    if (isDigitOrPoint(text.charCodeAt(i))) {
      let from = i;
      let to = i;
      while (from > 0 && isDigitOrPoint(text.charCodeAt(from - 1))) {
        from--;
      }
      while (to + 1 < end && isDigitOrPoint(text.charCodeAt(to + 1))) {
        to++;
      }
      if (to - from >= 15) {
        return true;
      }
    }
  }
  return false;
}

/** A literal's value as sign, digits without leading or trailing zeros, and exponent. */
function canonical(literal: string): string {
  const negative = literal.startsWith('-');
  const body = negative ? literal.slice(1) : literal;
  const e = body.search(/[eE]/);
  const mantissa = e < 0 ? body : body.slice(0, e);
  let exponent = e < 0 ? 0 : Number(body.slice(e + 1));
  const point = mantissa.indexOf('.');
  let digits = mantissa;
  if (point >= 0) {
    digits = mantissa.slice(0, point) + mantissa.slice(point + 1);
    exponent -= mantissa.length - point - 1;
  }
  digits = digits.replace(/^0+/, '');
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  return trimmed === '' ? '0' : `${negative ? '-' : ''}${trimmed}e${exponent}`;
}

/** Whether a number literal has more significant digits than a double prints back (or lies beyond one). */
export function needsExactText(literal: string): boolean {
  const value = Number(literal);
  return (
    !Number.isFinite(value) || canonical(literal) !== canonical(String(value))
  );
}

/** The value for a number literal: a plain number while a double prints it back, else an ExactNumber. */
export function exactNumber(literal: string): number | ExactNumber {
  return needsExactText(literal) ? new ExactNumber(literal) : Number(literal);
}

/** Whether a value is an ExactNumber. */
export function isExactNumber(value: unknown): value is ExactNumber {
  return value instanceof ExactNumber;
}

/**
 * JSON.parse, each number a double cannot hold kept as an ExactNumber. Throws what JSON.parse
 * throws for text that is not JSON.
 */
export function parseExactJson(text: string): unknown {
  return parseKeeping(text, mayHoldLongNumber(text), needsExactText);
}

/** A literal a double prints otherwise may be in the text: `4.0`, `1.50`, `1e3`, `-0`. */
const MAY_BE_WRITTEN_OTHERWISE = /\.\d*0(?![\d])|\d[eE]|-0(?![.\d])/;

/**
 * JSON.parse for JSON a user typed, to be sent on: every number a double would print
 * otherwise (`4.0`, `1.50`, `1e3`, `-0`, a long past 2^53) kept as an ExactNumber, so the
 * engine gets the literal as written (`4.0` maps a new field as a float, `4` as a long).
 */
export function parseJsonAsWritten(text: string): unknown {
  return parseKeeping(
    text,
    mayHoldLongNumber(text) || MAY_BE_WRITTEN_OTHERWISE.test(text),
    token => String(Number(token)) !== token
  );
}

function parseKeeping(
  text: string,
  mayKeep: boolean,
  keep: (literal: string) => boolean
): unknown {
  // Parsed as written first: marking turns an invalid number (`09007199254740993`) into a valid string.
  const value: unknown = JSON.parse(text);
  if (!mayKeep) {
    return value;
  }
  let marked = false;
  const replaced = text.replace(TOKEN, token => {
    if (token.charCodeAt(0) === 0x22 || !keep(token)) {
      return token;
    }
    marked = true;
    return JSON.stringify(MARK + token);
  });
  return marked ? unmark(JSON.parse(replaced)) : value;
}

/** Turns each marked string of a freshly parsed value into its ExactNumber, in place. */
function unmark(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.startsWith(MARK)
      ? new ExactNumber(value.slice(MARK.length))
      : value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      value[i] = unmark(value[i]);
    }
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      if (typeof inner === 'string' || typeof inner === 'object') {
        // defineProperty, not assignment: a field named `__proto__` stays a field.
        Object.defineProperty(record, key, {
          value: unmark(inner),
          writable: true,
          enumerable: true,
          configurable: true
        });
      }
    }
  }
  return value;
}

/** JSON.stringify, each ExactNumber printed as its bare literal with every digit. */
export function exactJson(value: unknown, indent?: number | string): string {
  const before = marksPrinted;
  const text = JSON.stringify(value, null, indent);
  return text !== undefined && marksPrinted !== before
    ? text.replace(PRINTED_MARK, '$1')
    : text;
}

/** Whether a value holds an ExactNumber anywhere. */
export function holdsExactNumber(value: unknown): boolean {
  if (value instanceof ExactNumber) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.some(holdsExactNumber);
  }
  if (typeof value === 'object' && value !== null) {
    for (const key in value) {
      if (holdsExactNumber((value as Record<string, unknown>)[key])) {
        return true;
      }
    }
  }
  return false;
}

/** The value as a plain JSON reader gets it: each ExactNumber the nearest number. */
export function nearestValue(value: unknown): unknown {
  return copied(value, exact => exact.valueOf());
}

/**
 * A deep copy of a JSON value. Each ExactNumber is shared, not copied: it is never changed in
 * place, and structuredClone would turn it into a plain object holding its text.
 */
export function copyExactJson(value: unknown): unknown {
  return copied(value, exact => exact);
}

/** A deep copy of a JSON value, each ExactNumber replaced by what `exact` makes of it. */
function copied(value: unknown, exact: (n: ExactNumber) => unknown): unknown {
  if (value instanceof ExactNumber) {
    return exact(value);
  }
  if (Array.isArray(value)) {
    return value.map(item => copied(item, exact));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // defineProperty, not assignment: a field named `__proto__` stays a field.
    Object.defineProperty(out, key, {
      value: copied((value as Record<string, unknown>)[key], exact),
      writable: true,
      enumerable: true,
      configurable: true
    });
  }
  return out;
}
