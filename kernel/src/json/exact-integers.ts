/**
 * Whole numbers past 2^53 on their way to an engine. A JavaScript number holds integers exactly
 * only up to 2^53 and JSON.stringify cannot print digits as a number, so a value typed for a
 * write keeps such an integer as a marked string, and `exactJson` prints each mark as the bare
 * number literal with every digit: `"stock": 9007199254740993`, not `"9007199254740993"`
 * (which the engine would store in the document as a string). The mark holds a nonce drawn
 * per process, so no text a user or a document holds can pass for one.
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../../contracts/json';
import { ownValue, setField } from '../../../contracts/own-fields';

const PREFIX = `\u0001${randomUUID()}:`;
/** A mark as JSON.stringify prints it (the control character escaped), with its digits. */
const PRINTED = new RegExp(
  `"${JSON.stringify(PREFIX).slice(1, -1).replace(/\\/g, '\\\\')}(-?\\d+)"`,
  'g'
);
const PRINTED_PREFIX = JSON.stringify(PREFIX).slice(1, -1);
/** Strings and numbers of JSON text, each whole, so a number is only ever read from its start. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** The value that stands for the whole number `digits` (optional minus, then digits) in a write. */
export function integerLiteral(digits: string): string {
  return PREFIX + digits;
}

/** The value for a whole number typed as text: a plain number while exact, a literal past 2^53. */
export function exactInteger(digits: bigint): number | string {
  const value = Number(digits);
  return Number.isSafeInteger(value)
    ? value
    : integerLiteral(digits.toString());
}

/** The digits an integer literal stands for; undefined for any other value. */
export function literalDigits(value: JsonValue): string | undefined {
  return typeof value === 'string' && value.startsWith(PREFIX)
    ? value.slice(PREFIX.length)
    : undefined;
}

/** Whether a value is an integer literal (a whole number past 2^53). */
export function isIntegerLiteral(value: JsonValue): boolean {
  return literalDigits(value) !== undefined;
}

/** JSON text of a value, each integer literal printed as the bare number it stands for. */
export function exactJson(value: JsonValue, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return text.includes(PRINTED_PREFIX) ? text.replace(PRINTED, '$1') : text;
}

/** Whether a value holds an integer literal anywhere. */
export function holdsIntegerLiteral(value: JsonValue): boolean {
  if (literalDigits(value) !== undefined) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.some(holdsIntegerLiteral);
  }
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).some(holdsIntegerLiteral)
  );
}

/**
 * The value as a JSON reader gets it: each literal the (nearest) number. What a document read
 * back holds, so it compares equal with what was written, and what a grid row shows.
 */
export function readValue(value: JsonValue): JsonValue {
  const digits = literalDigits(value);
  if (digits !== undefined) {
    return Number(digits);
  }
  if (Array.isArray(value)) {
    return value.map(readValue);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value)) {
    setField(out, key, readValue(ownValue(value, key) as JsonValue));
  }
  return out;
}

/** JSON.parse, integers past 2^53 kept as literals (JSON typed into a cell: `[9007199254740993]`). */
export function parseExactJson(text: string): JsonValue {
  // Parsed as typed first: marking turns an invalid number (`09007199254740993`) into a valid string.
  const value = JSON.parse(text) as JsonValue;
  if (!/\d{16}/.test(text)) {
    return value;
  }
  const marked = text.replace(TOKEN, token =>
    token.startsWith('"') ||
    /[.eE]/.test(token) ||
    Number.isSafeInteger(Number(token))
      ? token
      : JSON.stringify(integerLiteral(token))
  );
  return JSON.parse(marked) as JsonValue;
}
