/**
 * What a console cell means once parsed: the contract between the parser (console/) and the
 * executor (execute/). Nothing here knows about engines.
 */
import type { ExportFormatName } from '../../../contracts/export-formats';
import type { JsonValue } from '../../../contracts/json';
import type { Refusal } from './refusal';
import type { VariableOrigin } from './variables';

export const HTTP_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD'
] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type { JsonValue };

export type RequestBody =
  | { kind: 'json'; value: JsonValue }
  /** `_bulk`, `_msearch`, Typesense `documents/import`: one JSON value per line. */
  | { kind: 'ndjson'; values: JsonValue[] };

/** One HTTP request of a cell, ready to send: path and query already substituted and checked. */
export interface ConsoleRequest {
  kind: 'request';
  method: HttpMethod;
  /** Always starts with `/`, never contains a scheme, host, whitespace or control character. */
  path: string;
  /** Raw query string without the leading `?` ('' when none). */
  query: string;
  /** Path and query as outputs name them when they read `${env:NAME}`: the reference, never its value. */
  shown?: string;
  body?: RequestBody;
  /** 1-based line of the `METHOD path` line within the cell, for messages. */
  line: number;
}

/** A `%name args` line. Unknown names are refused by the parser, so `name` is always known. */
export interface ConsoleMagic {
  kind: 'magic';
  name: string;
  /** Text after the magic name, trimmed. */
  args: string;
  line: number;
  /** For `%set`: the variable, its value (already validated, substituted or read from an answer by the parser) and where it came from. */
  set?: { name: string; value: JsonValue; origin: VariableOrigin };
  /** For `%export`: its words and the optional body on the next lines, checked by the parser. */
  export?: ExportArgs & { body?: JsonValue };
}

/** `%export`'s words once checked (console/export-args.ts reads them from the line). */
export interface ExportArgs {
  target: string;
  /** As written: relative names are resolved against the kernel's working directory (the notebook's). */
  file: string;
  format: ExportFormatName;
  fields?: string[];
  slices?: number;
  overwrite: boolean;
}

export type CellItem = ConsoleRequest | ConsoleMagic;

/** Why a cell was refused: nothing of it is sent (see refusal.ts). */
export type { Refusal };

export type ParseResult =
  { ok: true; items: CellItem[] } | { ok: false; refusal: Refusal };
