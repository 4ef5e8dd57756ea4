/**
 * Whole numbers past 2^53 on their way to an engine: typed into a cell or a body, read from an
 * answer. They are ExactNumbers (contracts/exact-json.ts), printed by `exactJson` as the bare
 * number literal with every digit: `"stock": 9007199254740993`, not `"9007199254740993"`
 * (which the engine would store in the document as a string).
 */
import type { JsonValue } from '../../../contracts/json';
import {
  ExactNumber,
  exactJson as exactJsonText,
  holdsExactNumber,
  parseExactJson as parseExact
} from '../../../contracts/exact-json';

const INTEGER = /^-?\d+$/;

/** The value for a whole number typed as text: a plain number while exact, an ExactNumber past 2^53. */
export function exactInteger(digits: bigint): number | ExactNumber {
  const value = Number(digits);
  return Number.isSafeInteger(value)
    ? value
    : new ExactNumber(digits.toString());
}

/** The digits of a whole number past 2^53; undefined for any other value. */
export function literalDigits(value: JsonValue): string | undefined {
  return value instanceof ExactNumber && INTEGER.test(value.text)
    ? value.text
    : undefined;
}

/** Whether a value is a whole number past 2^53. */
export function isIntegerLiteral(value: JsonValue): boolean {
  return literalDigits(value) !== undefined;
}

/** JSON text of a value, each exact number printed as its bare literal. */
export function exactJson(value: JsonValue, indent?: number): string {
  return exactJsonText(value, indent);
}

/** Whether a value holds an exact number anywhere. */
export function holdsIntegerLiteral(value: JsonValue): boolean {
  return holdsExactNumber(value);
}

/** JSON.parse, numbers a double cannot hold kept exact (JSON typed into a cell: `[9007199254740993]`). */
export function parseExactJson(text: string): JsonValue {
  return parseExact(text) as JsonValue;
}
