/** The `METHOD path[?query]` line of a request: method, substitution, safety checks. */
import { HTTP_METHODS, type HttpMethod } from './cell';
import { checkPath, checkQuery, type PathPlace } from './path-check';
import { refuse, withForm } from './refusal';
import { isSqlTarget, looksLikeSql, refuseSql } from './sql-refusal';
import { readVarRef, resolveVarRef, valueText } from './var-ref';
import type { VariableScope } from './variables';

export interface RequestLine {
  method: HttpMethod;
  path: string;
  query: string;
  /** Path and query as outputs show them, when they read the environment (see ConsoleRequest.shown). */
  shown?: string;
}

const METHODS = new Set<string>(HTTP_METHODS);
// Control characters other than tab (a separator) and a trailing CR (CRLF cells).
const LINE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

export function isHttpMethod(word: string): word is HttpMethod {
  return METHODS.has(word);
}

const LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** encodeURIComponent throws on unpaired surrogates; a path is no place to carry them anyway. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** Characters a substituted value may keep in a path: they cannot change which host is addressed. */
function encodePathValue(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/%(2F|2C|3A)/gi, m =>
    decodeURIComponent(m)
  );
}

function encodeQueryValue(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/%(2C|3A)/gi, m =>
    decodeURIComponent(m)
  );
}

/** Typed characters that are not allowed raw in a URL (date math `<logs-{now/d}>`, non-ASCII). */
function encodeRawUnsafe(text: string): string {
  return wellFormed(text).replace(/[<>{}|^"`[\]]|[^\x00-\x7f]/gu, ch =>
    encodeURIComponent(ch)
  );
}

/**
 * Replaces `${name}` and `${env:NAME}` in [from, to) of the cell, each value passed through
 * `encode`; with `keepEnv`, `${env:NAME}` stays as written (for text that outputs show).
 */
export function substitute(
  cell: string,
  from: number,
  to: number,
  scope: VariableScope,
  encode: (text: string) => string,
  keepEnv = false
): string {
  let out = '';
  let at = from;
  // Searched within [at, to) only: a search to the end of the cell, once per request line,
  // made a cell of many requests quadratic (400,000 lines: a minute).
  const region = cell.slice(0, to);
  for (;;) {
    const next = region.indexOf('${', at);
    if (next === -1) {
      break;
    }
    out += cell.slice(at, next);
    const ref = readVarRef(cell, next, to);
    out +=
      keepEnv && ref.kind === 'env'
        ? cell.slice(next, ref.end)
        : encode(
            valueText(resolveVarRef(cell, ref, scope, { allowEnv: true }))
          );
    at = ref.end;
  }
  return out + cell.slice(at, to);
}

/**
 * Parses the request line spanning [lineStart, lineEnd) of `cell`; `lineNo` is its 1-based line.
 * Refuses SQL-looking text, non-method first words, and unsafe paths.
 */
export function parseRequestLine(
  cell: string,
  lineStart: number,
  lineEnd: number,
  lineNo: number,
  scope: VariableScope
): RequestLine {
  const raw = cell.slice(lineStart, lineEnd).replace(/\r$/, '');
  const lead = raw.length - raw.trimStart().length;
  const line = raw.trim();
  const indent = lineStart - (cell.lastIndexOf('\n', lineStart - 1) + 1);
  const startColumn = indent + lead + 1;
  if (LINE_CONTROL.test(raw)) {
    refuse(
      'ControlCharacterRefused',
      `Line ${lineNo} holds a control character.`,
      withForm(
        'Remove it. Control characters cannot be part of a request line.'
      ),
      { line: lineNo, column: startColumn }
    );
  }
  const word = /^\S+/.exec(line)?.[0] ?? '';
  const method = word.toUpperCase();
  if (!isHttpMethod(method)) {
    if (looksLikeSql(line)) {
      refuseSql(lineNo, startColumn);
    }
    refuse(
      'InvalidRequestLine',
      `Line ${lineNo} starts with \`${word.slice(0, 40)}\`, which is not an HTTP method (GET, POST, PUT, PATCH, DELETE or HEAD).`,
      withForm(
        'Start each request with its method and path. Magics start with `%`, comments with `#` or `//`.'
      ),
      { line: lineNo, column: startColumn }
    );
  }
  const rest = line.slice(word.length).trimStart();
  const target = rest.trimEnd();
  const targetColumn = startColumn + (line.length - rest.length);
  if (target === '') {
    refuse(
      'InvalidRequestLine',
      `${method} on line ${lineNo} has no path.`,
      withForm(
        'Add the path after the method, for example `GET /my-index/_search` or `GET /` for the cluster itself.'
      ),
      { line: lineNo, column: startColumn }
    );
  }
  if (isSqlTarget(target)) {
    refuseSql(lineNo, startColumn);
  }
  const question = target.indexOf('?');
  const typedPath = question === -1 ? target : target.slice(0, question);
  if (/\s/.test(typedPath)) {
    if (looksLikeSql(line)) {
      refuseSql(lineNo, startColumn);
    }
    refuse(
      'InvalidRequestLine',
      `The path on line ${lineNo} holds whitespace: a request line is \`METHOD path\` and nothing else.`,
      withForm('Percent-encode spaces in the path as %20.'),
      { line: lineNo, column: targetColumn }
    );
  }
  if (target.includes('#')) {
    refuse(
      'InvalidRequestLine',
      `The path on line ${lineNo} holds \`#\`, which would cut the URL there.`,
      withForm(
        'Write `#` as %23 inside a path or query, or start the line with `#` to make it a comment.'
      ),
      { line: lineNo, column: targetColumn + target.indexOf('#') }
    );
  }
  const pathFrom = lineStart + lead + (line.length - rest.length);
  const pathTo = pathFrom + typedPath.length;
  let path = encodeRawUnsafe(
    substitute(cell, pathFrom, pathTo, scope, encodePathValue)
  );
  if (!path.startsWith('/')) {
    path = `/${path}`;
  }
  const place: PathPlace = {
    line: lineNo,
    column: targetColumn,
    typed: typedPath
  };
  checkPath(path, place);
  let query = '';
  if (question !== -1) {
    query = encodeRawUnsafe(
      substitute(
        cell,
        pathTo + 1,
        pathFrom + target.length,
        scope,
        encodeQueryValue
      )
    ).replace(/[ \t]/g, '%20');
    checkQuery(query, place);
  }
  // Outputs name the request as the cell does where it reads the environment: a key passed
  // in a query string (`x-typesense-api-key=${env:KEY}`) never reaches a status line.
  if (!target.includes('${env:')) {
    return { method, path, query };
  }
  const shownPath = substitute(
    cell,
    pathFrom,
    pathTo,
    scope,
    encodePathValue,
    true
  );
  const shownQuery =
    question === -1
      ? ''
      : substitute(
          cell,
          pathTo + 1,
          pathFrom + target.length,
          scope,
          encodeQueryValue,
          true
        );
  return {
    method,
    path,
    query,
    shown: `${shownPath.startsWith('/') ? '' : '/'}${shownPath}${shownQuery ? `?${shownQuery}` : ''}`
  };
}
