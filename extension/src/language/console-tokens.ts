import type { StreamParser, StringStream } from '@codemirror/language';
import { esqlToken, type EsqlQuoting } from './esql-tokens';

/**
 * Highlighting for searchbook console cells: `METHOD /path?query` lines, JSON bodies
 * (NDJSON and `"""` strings included), `#` and `//` comment lines, `${variables}` and magics,
 * and the ES|QL query of a `POST /_query` body (esql-tokens.ts).
 * It mirrors the kernel's cell grammar (kernel/src/console) closely enough to colour it; the
 * kernel stays the judge of what a cell means.
 */
type Phase = 'line' | 'path' | 'query' | 'magic' | 'body';

export interface ConsoleState {
  phase: Phase;
  /** Inside a `"""` string, which may span lines. */
  triple: boolean;
  /** Inside a JSON string that a `${...}` interrupted. */
  string: boolean;
  /** Open `{` and `[` of the body so far: how deep the next line is indented. */
  depth: number;
  /** The request line's path is ES|QL's (`/_query`, `/_query/async`): its body's `"query"` is ES|QL. */
  esqlPath: boolean;
  /** The last token was the body's top-level `"query"` key (or its colon): the next string is the query. */
  queryKey: boolean;
  /** Inside the ES|QL query string, and which JSON string holds it. */
  esql: EsqlQuoting | null;
  /** Inside an ES|QL string literal of that query. */
  esqlString: boolean;
}

const ESQL_PATH = /^\/_query(?:\/async)?\/?$/;

const METHOD = /^(?:GET|POST|PUT|PATCH|DELETE|HEAD)(?=\s|$)/i;
const VARIABLE = /^\$\{[^}\s]*\}?/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/** The rest of a JSON string, stopping before a `${` so the variable gets its own colour. */
function stringRest(stream: StringStream, state: ConsoleState): string {
  while (!stream.eol()) {
    if (stream.match('${', false)) {
      state.string = true;
      return 'string';
    }
    const ch = stream.next();
    if (ch === '\\') {
      stream.next();
    } else if (ch === '"') {
      state.string = false;
      if (!stream.match(/^\s*:/, false)) {
        return 'string';
      }
      state.queryKey =
        state.esqlPath && state.depth === 1 && stream.current() === '"query"';
      return 'propertyName';
    }
  }
  state.string = false;
  return 'string';
}

function bodyToken(stream: StringStream, state: ConsoleState): string | null {
  const queryValue = state.queryKey;
  state.queryKey = false;
  if (queryValue && (stream.match('"""') || stream.eat('"'))) {
    const triple = stream.current() === '"""';
    state.triple = triple;
    state.esql = triple ? 'triple' : 'json';
    return 'string';
  }
  if (stream.match('"""')) {
    state.triple = true;
    return tripleRest(stream, state);
  }
  if (stream.eat('"')) {
    return stringRest(stream, state);
  }
  if (stream.match(NUMBER)) {
    return 'number';
  }
  if (stream.match(/^(?:true|false|null)\b/)) {
    return 'atom';
  }
  const ch = stream.next();
  if (ch !== undefined && '{}[]'.includes(ch)) {
    state.depth = Math.max(
      0,
      state.depth + (ch === '{' || ch === '[' ? 1 : -1)
    );
    return 'bracket';
  }
  if (ch === ':') {
    state.queryKey = queryValue;
  }
  return ch === ':' || ch === ',' ? 'punctuation' : null;
}

function tripleRest(stream: StringStream, state: ConsoleState): string {
  if (stream.skipTo('"""')) {
    stream.match('"""');
    state.triple = false;
  } else {
    stream.skipToEnd();
  }
  return 'string';
}

/** The first token of a line decides what the line is. */
function lineStart(stream: StringStream, state: ConsoleState): string | null {
  if (stream.match(/^(?:#|\/\/).*/)) {
    return 'comment';
  }
  if (stream.match(METHOD)) {
    state.phase = 'path';
    state.depth = 0;
    state.esqlPath = false;
    return 'keyword';
  }
  if (stream.match(/^%%?[A-Za-z_][\w-]*/)) {
    state.phase = 'magic';
    return 'meta';
  }
  state.phase = 'body';
  return bodyToken(stream, state);
}

export const consoleTokens: StreamParser<ConsoleState> = {
  name: 'searchbook',
  startState: () => ({
    phase: 'line',
    triple: false,
    string: false,
    depth: 0,
    esqlPath: false,
    queryKey: false,
    esql: null,
    esqlString: false
  }),
  copyState: state => ({ ...state }),
  token(stream, state) {
    if (state.esql) {
      return stream.match(VARIABLE)
        ? 'variableName.special'
        : esqlToken(stream, state);
    }
    if (state.triple) {
      return tripleRest(stream, state);
    }
    if (stream.match(VARIABLE)) {
      return 'variableName.special';
    }
    if (state.string) {
      return stringRest(stream, state);
    }
    if (stream.sol() && state.phase !== 'body') {
      state.phase = 'line';
    }
    if (stream.eatSpace()) {
      return null;
    }
    if (
      stream.sol() ||
      state.phase === 'line' ||
      (state.phase === 'body' && stream.column() === stream.indentation())
    ) {
      const isLineStart = stream.column() === stream.indentation();
      if (isLineStart) {
        return lineStart(stream, state);
      }
    }
    switch (state.phase) {
      case 'path':
        if (stream.eat('?')) {
          state.phase = 'query';
          return 'operator';
        }
        if (!stream.match(/^[^\s?$]+/)) {
          stream.next();
        }
        state.esqlPath = ESQL_PATH.test(stream.current());
        return 'url';
      case 'query':
        if (stream.eat('=') || stream.eat('&')) {
          return 'operator';
        }
        if (stream.match(/^[^\s=&$]+(?==)/)) {
          return 'attributeName';
        }
        if (!stream.match(/^[^\s=&$]+/)) {
          stream.next();
        }
        return 'string';
      case 'magic':
        if (stream.match(/^[\w-]+(?==)/)) {
          return 'attributeName';
        }
        if (stream.eat('=')) {
          return 'operator';
        }
        if (!stream.match(/^[^\s=$]+/)) {
          stream.next();
        }
        return null;
      default:
        return bodyToken(stream, state);
    }
  },
  /** Auto-indent of a JSON body: one unit per open bracket, one less on a line that closes one. */
  indent(state, textAfter, context) {
    if (state.triple) {
      return null;
    }
    const closing = /^\s*[}\]]/.test(textAfter) ? 1 : 0;
    return Math.max(0, state.depth - closing) * context.unit;
  },
  blankLine(state) {
    if (state.phase !== 'body') {
      state.phase = 'line';
    }
  },
  // A typed `}` or `]` at a line's start moves it back to its bracket's indentation.
  languageData: { commentTokens: { line: '#' }, indentOnInput: /^\s*[}\]]$/ }
};
