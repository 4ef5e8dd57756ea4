import type { StringStream } from '@codemirror/language';

/**
 * Highlighting of an ES|QL query written as the `"query"` string of a `POST /_query` body:
 * source commands, processing commands and operators as keywords, pipes, ES|QL strings,
 * numbers, function calls and `//` comments. The query sits inside a JSON string, so an ES|QL
 * string there is written `\"acme\"` (in a `"""` string, `"acme"`); the JSON string's own
 * closing quote ends the query.
 * https://www.elastic.co/docs/reference/query-languages/esql/esql-syntax
 */

/** Which JSON string holds the query: a `"..."` one, or a `"""..."""` one that may span lines. */
export type EsqlQuoting = 'json' | 'triple';

export interface EsqlState {
  esql: EsqlQuoting | null;
  /** Inside an ES|QL string literal (which a `"""` query may continue on the next line). */
  esqlString: boolean;
  /** Inside a `"""` string, which may span lines (shared with the JSON body's highlighting). */
  triple: boolean;
}

const KEYWORDS = new Set(
  [
    // Source and processing commands.
    'from',
    'row',
    'show',
    'ts',
    'metrics',
    'where',
    'stats',
    'inlinestats',
    'by',
    'eval',
    'keep',
    'drop',
    'sort',
    'limit',
    'rename',
    'as',
    'dissect',
    'grok',
    'enrich',
    'on',
    'with',
    'mv_expand',
    'lookup',
    'join',
    'change_point',
    'fork',
    'completion',
    'sample',
    'rerank',
    'fuse',
    'metadata',
    // Operators and sort options.
    'and',
    'or',
    'not',
    'in',
    'is',
    'like',
    'rlike',
    'asc',
    'desc',
    'nulls',
    'first',
    'last'
  ].map(word => word.toUpperCase())
);
const ATOMS = new Set(['TRUE', 'FALSE', 'NULL']);

const NUMBER = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const WORD = /^[A-Za-z_@][\w.@]*/;
const OPERATOR = /^(?:==|!=|<=|>=|=~|[<>=+\-*/%])/;

/** Whether the query's JSON string closes here (consuming the quote when it does). */
function closes(stream: StringStream, state: EsqlState): boolean {
  if (state.esql === 'triple') {
    if (stream.match('"""')) {
      state.triple = false;
      return true;
    }
    return false;
  }
  return stream.eat('"') !== undefined;
}

/** Ends an ES|QL string literal: `\"` in a JSON string, `"` in a `"""` one (never its closing `"""`). */
function stringEnds(stream: StringStream, state: EsqlState): boolean {
  if (state.esql === 'triple') {
    return !stream.match('"""', false) && stream.eat('"') !== undefined;
  }
  return Boolean(stream.match('\\"'));
}

/** The rest of an ES|QL string literal on this line. */
function literalRest(stream: StringStream, state: EsqlState): string {
  while (!stream.eol()) {
    const atQueryEnd =
      state.esql === 'triple'
        ? stream.match('"""', false)
        : stream.peek() === '"';
    if (atQueryEnd) {
      state.esqlString = false;
      return 'string';
    }
    if (stringEnds(stream, state)) {
      state.esqlString = false;
      return 'string';
    }
    // A JSON escape (`\\`, `\n`) or an ES|QL one inside a `"""` query is one character pair.
    if (stream.next() === '\\') {
      stream.next();
    }
  }
  if (state.esql === 'json') {
    state.esqlString = false;
  }
  return 'string';
}

/** A `//` comment runs to the end of the line, which inside a JSON string is its closing quote. */
function commentRest(stream: StringStream, state: EsqlState): string {
  while (!stream.eol()) {
    if (
      state.esql === 'triple'
        ? stream.match('"""', false)
        : stream.peek() === '"'
    ) {
      break;
    }
    if (stream.next() === '\\') {
      stream.next();
    }
  }
  return 'comment';
}

/** One token of the query; the caller colours `${variables}` first. */
export function esqlToken(
  stream: StringStream,
  state: EsqlState
): string | null {
  const style = esqlTokenOf(stream, state);
  // A JSON string cannot span lines: an unclosed one ends its query at the line's end.
  if (stream.eol() && state.esql === 'json') {
    state.esql = null;
    state.esqlString = false;
  }
  return style;
}

function esqlTokenOf(stream: StringStream, state: EsqlState): string | null {
  if (state.esqlString) {
    return literalRest(stream, state);
  }
  if (closes(stream, state)) {
    state.esql = null;
    return 'string';
  }
  if (stream.eatSpace()) {
    return null;
  }
  if (state.esql === 'json' && stream.match(/^\\[nrt]/)) {
    return null;
  }
  if (
    state.esql === 'json' ? stream.match('\\"') : stream.eat('"') !== undefined
  ) {
    state.esqlString = true;
    return literalRest(stream, state);
  }
  if (stream.match('//')) {
    return commentRest(stream, state);
  }
  if (stream.eat('|')) {
    return 'operator';
  }
  if (stream.match(NUMBER)) {
    return 'number';
  }
  const word = stream.match(WORD);
  if (word && typeof word !== 'boolean') {
    const upper = word[0].toUpperCase();
    if (KEYWORDS.has(upper)) {
      return 'keyword';
    }
    if (ATOMS.has(upper)) {
      return 'atom';
    }
    return stream.match(/^\s*\(/, false) ? 'variableName.function' : null;
  }
  if (stream.match(/^`[^`]*`?/)) {
    return null;
  }
  if (stream.match(OPERATOR)) {
    return 'operator';
  }
  const ch = stream.next();
  return ch === ',' || ch === '(' || ch === ')' ? 'punctuation' : null;
}
