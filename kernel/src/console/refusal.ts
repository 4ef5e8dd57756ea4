/**
 * Refusals: input searchbook will not act on, from a console cell, the grid's filter bar or an
 * edited grid cell. Nothing of it is sent; the message says what was wrong and what to write
 * instead. One class for all three, each kind with a stable code, and one way of saying where.
 */
import type { EditRefusal } from '../../../contracts/edit-protocol';
import { SearchbookError } from '../../../contracts/errors';

/** The form every syntax refusal points back to. */
export const REQUEST_FORM_HINT = [
  'Write an HTTP request: a line `METHOD /path`, for example `GET /my-index/_search`,',
  'then an optional JSON body on the following lines:',
  '',
  'GET /my-index/_search',
  '{ "query": { "match": { "title": "shoes" } } }'
].join('\n');

/** Each kind of refusal by the title a cell's error output shows (its `ename`), with its code. */
const REFUSAL_CODES = {
  UnknownMagic: 'SEARCHBOOK_ERR_UNKNOWN_MAGIC',
  InvalidMagic: 'SEARCHBOOK_ERR_INVALID_MAGIC',
  BodyWithoutRequest: 'SEARCHBOOK_ERR_BODY_WITHOUT_REQUEST',
  InvalidJSON: 'SEARCHBOOK_ERR_INVALID_JSON',
  InvalidRequestLine: 'SEARCHBOOK_ERR_INVALID_REQUEST_LINE',
  ControlCharacterRefused: 'SEARCHBOOK_ERR_CONTROL_CHARACTER',
  PathLeavesHost: 'SEARCHBOOK_ERR_PATH_LEAVES_HOST',
  SQLRefused: 'SEARCHBOOK_ERR_SQL_REFUSED',
  SQLEndpointRefused: 'SEARCHBOOK_ERR_SQL_ENDPOINT_REFUSED',
  InvalidVariableReference: 'SEARCHBOOK_ERR_INVALID_VARIABLE_REFERENCE',
  EnvironmentVariableInSet: 'SEARCHBOOK_ERR_ENVIRONMENT_VARIABLE_IN_SET',
  UnsetEnvironmentVariable: 'SEARCHBOOK_ERR_UNSET_ENVIRONMENT_VARIABLE',
  UnknownVariable: 'SEARCHBOOK_ERR_UNKNOWN_VARIABLE',
  /** A `%set` value that is neither JSON nor a JMESPath expression the answer can take. */
  InvalidExpression: 'SEARCHBOOK_ERR_INVALID_EXPRESSION',
  /** A `%set` value larger or deeper than a variable holds, or an expression stopped at its time or memory limit. */
  ValueTooLarge: 'SEARCHBOOK_ERR_VALUE_TOO_LARGE',
  /** A `%set` expression over an answer the kernel does not hold. */
  NoAnswer: 'SEARCHBOOK_ERR_NO_ANSWER',
  QueryStringRefused: 'SEARCHBOOK_ERR_QUERY_STRING_REFUSED',
  /** An endpoint the engine's version no longer serves. */
  RemovedEndpointRefused: 'SEARCHBOOK_ERR_REMOVED_ENDPOINT_REFUSED',
  /** A grid filter the engine cannot take. */
  FilterRefused: 'SEARCHBOOK_ERR_FILTER_REFUSED',
  /** An edited grid value the kernel will not send. */
  ValueRefused: 'SEARCHBOOK_ERR_VALUE_REFUSED'
} as const;

export type RefusalTitle = keyof typeof REFUSAL_CODES;
export type RefusalCode = (typeof REFUSAL_CODES)[RefusalTitle];

/** A 1-based line and column in a text the user wrote. */
export interface TextPlace {
  line: number;
  column: number;
}

/** Where the refused input is, so the message shows next to it. */
export type Where =
  /** In a console cell (or a magic's arguments): its 1-based line, and column when known. */
  | { kind: 'cell'; line: number; column?: number }
  /** In the grid's filter bar: the filter row's index, or the raw filter. */
  | { kind: 'filter'; row: number | 'raw' }
  /** In an edited grid cell: its column, and the place in its JSON text when the text is at fault. */
  | { kind: 'edit'; column: string; text?: TextPlace };

export class Refusal extends SearchbookError {
  override readonly name = 'Refusal';
  override readonly code: RefusalCode;
  /** Advice: what to write instead (a filter's or a value's message says it itself). */
  readonly hint: string | undefined;
  readonly where: Where | undefined;

  constructor(
    /** What a cell's error output shows as its `ename`. Never compare it: compare `code`. */
    readonly ename: RefusalTitle,
    message: string,
    options: { hint?: string; where?: Where } = {}
  ) {
    super(message);
    this.code = REFUSAL_CODES[ename];
    this.hint = options.hint;
    this.where = options.where;
  }
}

/** Refuses a cell, at its line and column when the problem has a place. */
export function refuse(
  ename: RefusalTitle,
  message: string,
  hint: string,
  place?: { line: number; column?: number }
): never {
  throw new Refusal(ename, message, {
    hint,
    ...(place ? { where: { kind: 'cell', ...place } } : {})
  });
}

/** A filter of the grid's view the engine cannot take; the message shows under its row. */
export function filterRefusal(message: string, row: number | 'raw'): Refusal {
  return new Refusal('FilterRefused', message, {
    where: { kind: 'filter', row }
  });
}

/** An edited value the kernel will not send, in `column`; `text` places a fault in its JSON text. */
export function valueRefusal(
  column: string,
  message: string,
  text?: TextPlace
): Refusal {
  return new Refusal('ValueRefused', message, {
    where: { kind: 'edit', column, ...(text ? { text } : {}) }
  });
}

/** A refused edit as the panel's protocol carries it: the change's key, the column, and the place in the value's text. */
export function editRefusal(key: string, refusal: Refusal): EditRefusal {
  const where = refusal.where?.kind === 'edit' ? refusal.where : undefined;
  return {
    key,
    ...(where ? { column: where.column } : {}),
    message: refusal.message,
    ...(where?.text ? { line: where.text.line, col: where.text.column } : {})
  };
}

/** Hint text: specific advice first, then the general request form. */
export function withForm(advice: string): string {
  return `${advice}\n\n${REQUEST_FORM_HINT}`;
}
