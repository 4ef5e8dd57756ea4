/**
 * Engine-neutral pieces of the grid's view (filter bar and engine sort): finding a column in
 * the structure, reading typed values, the refusal that names its filter row, and the view's
 * request as a console cell and a curl command. Each driver translates the view itself.
 */
import type { ConsoleRequest, HttpMethod, JsonValue } from '../console/cell';
import type {
  FilterRow,
  GridView,
  ViewRequest
} from '../../../contracts/panel-protocol';
import type { FieldNode, FieldTree } from './field-tree';
import { filterRefusal } from '../console/refusal';
import type { MediaTypes } from './http/request-body';
import {
  ExactNumber,
  exactJson,
  needsExactText
} from '../../../contracts/exact-json';

export type LeafNode = Extract<FieldNode, { kind: 'leaf' }>;

/** A grid column as the structure knows it. */
export type ResolvedColumn =
  /** A value column; `array` when it is the leaf of an array of objects (one entry per element). */
  | {
      kind: 'leaf';
      path: string;
      node: LeafNode;
      array?: { path: string; type: string };
    }
  /** The JSON column of an array of objects: neither sorts nor filters. */
  | { kind: 'array'; path: string; type: string }
  | { kind: 'object'; path: string }
  /** Not in the mapping or schema (only documents hold it, or no structure could be read). */
  | { kind: 'unknown'; path: string };

export function resolveColumn(
  tree: FieldTree | undefined,
  path: string
): ResolvedColumn {
  let level = tree;
  let array: { path: string; type: string } | undefined;
  const parts = path.split('.');
  for (let i = 0; i < parts.length && level; i++) {
    const node = level.get(parts[i] as string);
    if (!node) {
      break;
    }
    const here = parts.slice(0, i + 1).join('.');
    const last = i === parts.length - 1;
    if (node.kind === 'leaf') {
      return last
        ? { kind: 'leaf', path, node, ...(array ? { array } : {}) }
        : { kind: 'unknown', path };
    }
    if (last) {
      return node.kind === 'array'
        ? { kind: 'array', path, type: node.type }
        : { kind: 'object', path };
    }
    if (node.kind === 'array') {
      array ??= { path: here, type: node.type };
    }
    level = node.children;
  }
  return { kind: 'unknown', path };
}

/** No filter and no sort: the whole target in the engine's order. */
export function isEmptyView(view: GridView): boolean {
  return (
    view.filters.length === 0 &&
    view.raw.trim() === '' &&
    view.sort.length === 0
  );
}

/** The row's single value; a list or pair where one value belongs is refused. */
export function singleValue(row: FilterRow, index: number): string {
  if (Array.isArray(row.value)) {
    throw filterRefusal(
      `"${row.operator}" on ${row.column} takes one value, not a list.`,
      index
    );
  }
  if (row.value === '') {
    throw filterRefusal(
      `Write a value for "${row.operator}" on ${row.column}.`,
      index
    );
  }
  return row.value;
}

/** The row's list (`in list`): a list, or one value. */
export function listValue(row: FilterRow, index: number): string[] {
  const values = (Array.isArray(row.value) ? row.value : [row.value]).filter(
    v => v !== ''
  );
  if (values.length === 0) {
    throw filterRefusal(
      `Write at least one value for "${row.operator}" on ${row.column} (a list separated by commas).`,
      index
    );
  }
  return values;
}

/** The two ends of `between`. */
export function pairValue(row: FilterRow, index: number): [string, string] {
  const [low, high, ...rest] = Array.isArray(row.value) ? row.value : [];
  if (
    low === undefined ||
    high === undefined ||
    low === '' ||
    high === '' ||
    rest.length > 0
  ) {
    throw filterRefusal(
      `"between" on ${row.column} takes two values, low and high (write them as low..high).`,
      index
    );
  }
  return [low, high];
}

/**
 * A filter's number as the request carries it: a number a double cannot hold (a long past
 * 2^53, a decimal of many digits) keeps the digits written, so the engine compares with the
 * value the user filtered by, not its nearest double.
 */
export function numberValue(
  text: string,
  column: string,
  type: string,
  integer: boolean,
  index: number
): number | ExactNumber {
  const written = text.trim();
  const value = Number(written);
  if (written === '' || !Number.isFinite(value)) {
    throw filterRefusal(
      `${column} (${type}): "${text}" is not a number; write a number such as 42${integer ? '' : ' or 4.5'}.`,
      index
    );
  }
  const exact = JSON_NUMBER.test(written) && needsExactText(written);
  if (
    integer &&
    (exact ? !/^-?\d+$/.test(written) : !Number.isInteger(value))
  ) {
    throw filterRefusal(
      `${column} (${type}): "${text}" is not a whole number; write one such as 42.`,
      index
    );
  }
  return exact ? new ExactNumber(written) : value;
}

/** A number as JSON writes it (`Number` also reads `0x10`, `.5` and `+5`). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function booleanValue(
  text: string,
  column: string,
  type: string,
  index: number
): boolean {
  const lower = text.trim().toLowerCase();
  if (lower === 'true') {
    return true;
  }
  if (lower === 'false') {
    return false;
  }
  throw filterRefusal(
    `${column} (${type}): write true or false, not "${text}".`,
    index
  );
}

/** The view's request as a console cell: the request line, then the JSON body. */
export function consoleCell(
  method: HttpMethod,
  pathAndQuery: string,
  body: JsonValue | undefined
): string {
  return body === undefined
    ? `${method} ${pathAndQuery}`
    : `${method} ${pathAndQuery}\n${exactJson(body, 2)}`;
}

/** A POSIX shell word that stays literal. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Where and how curl reaches a connection: its address, its credential by environment variable, the media types it sends, and a note on it. */
export interface CurlTarget {
  baseUrl: string;
  credential: string[];
  insecure: boolean;
  /** The CA file the connection checks certificates against (`ca=`): curl's `--cacert`. */
  caFile?: string;
  /** Versioned media types the connection sends (Elasticsearch's REST compatibility). */
  mediaTypes?: MediaTypes;
  /** Said in a shell comment line above the command (what a placeholder variable stands for). */
  note?: string;
}

/**
 * The view's request as a curl command line. `credential` is curl arguments naming environment
 * variables (`-H "Authorization: ApiKey $ES_API_KEY"`): the value itself is never written.
 */
export function curlCommand(spec: {
  method: HttpMethod;
  url: string;
  body?: JsonValue | { ndjson: string };
  credential: string[];
  insecure: boolean;
  caFile?: string;
  /** Versioned media types the connection sends (Elasticsearch's REST compatibility). */
  mediaTypes?: MediaTypes;
  note?: string;
}): string {
  const types = spec.mediaTypes;
  const parts = [
    'curl',
    '-sS',
    ...(spec.insecure ? ['-k'] : []),
    ...(spec.caFile ? ['--cacert', shellQuote(spec.caFile)] : []),
    '-X',
    spec.method,
    shellQuote(spec.url),
    ...spec.credential,
    ...(types ? ['-H', shellQuote(`Accept: ${types.accept}`)] : [])
  ];
  const body = spec.body;
  if (body !== undefined && isNdjson(body)) {
    parts.push(
      '-H',
      shellQuote(`Content-Type: ${types?.ndjson ?? 'application/x-ndjson'}`),
      '--data-binary',
      shellQuote(body.ndjson)
    );
  } else if (body !== undefined) {
    parts.push(
      '-H',
      shellQuote(`Content-Type: ${types?.json ?? 'application/json'}`),
      '-d',
      shellQuote(exactJson(body))
    );
  }
  const comment = spec.note ? `# ${spec.note.replace(/\n/g, ' ')}\n` : '';
  return comment + parts.join(' ');
}

function isNdjson(
  body: JsonValue | { ndjson: string }
): body is { ndjson: string } {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).length === 1 &&
    typeof (body as { ndjson?: unknown }).ndjson === 'string'
  );
}

/** A console request as curl, against the connection's address with its credential as an environment variable. */
export function curlOfRequest(
  request: ConsoleRequest,
  curl: CurlTarget
): string {
  const url =
    curl.baseUrl.replace(/\/$/, '') +
    request.path +
    (request.query ? `?${request.query}` : '');
  const body =
    request.body === undefined
      ? undefined
      : request.body.kind === 'json'
        ? request.body.value
        : {
            ndjson: request.body.values.map(v => exactJson(v) + '\n').join('')
          };
  return curlCommand({
    method: request.method,
    url,
    ...(body !== undefined ? { body } : {}),
    credential: curl.credential,
    insecure: curl.insecure,
    ...(curl.caFile ? { caFile: curl.caFile } : {}),
    ...(curl.mediaTypes ? { mediaTypes: curl.mediaTypes } : {}),
    ...(curl.note ? { note: curl.note } : {})
  });
}

export function viewRequest(
  method: HttpMethod,
  pathAndQuery: string,
  body: JsonValue | undefined,
  curl: CurlTarget
): ViewRequest {
  return {
    cell: consoleCell(method, pathAndQuery, body),
    curl: curlCommand({
      method,
      url: curl.baseUrl.replace(/\/$/, '') + pathAndQuery,
      ...(body !== undefined ? { body } : {}),
      credential: curl.credential,
      insecure: curl.insecure,
      ...(curl.caFile ? { caFile: curl.caFile } : {}),
      ...(curl.mediaTypes ? { mediaTypes: curl.mediaTypes } : {}),
      ...(curl.note ? { note: curl.note } : {})
    })
  };
}
