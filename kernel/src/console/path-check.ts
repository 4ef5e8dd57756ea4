/**
 * Safety checks on a request path after `${...}` substitution: the request must stay on the
 * connection's host and must not carry control characters into the request line. Checks run
 * on the path as typed and on its percent-decoded forms, since servers and URL builders decode.
 * Messages quote the path as typed in the cell, never the substituted one (it may hold secrets).
 */
import { refuse, withForm } from './refusal';
import { refuseSqlEndpoint } from './sql-refusal';

// C0, DEL, C1 controls and Unicode line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const SCHEME = /[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const LEADING_SCHEME = /^\/?(?:https?|ftp|file|wss?):/i;
const MAX_DECODE_LAYERS = 3;

function percentDecode(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16))
  );
}

export interface PathPlace {
  line: number;
  column: number;
  /** The path as typed, for messages. */
  typed: string;
}

function refuseHost(place: PathPlace): never {
  refuse(
    'PathLeavesHost',
    `The path \`${place.typed}\` on line ${place.line} names a scheme or another host; requests only go to the connection's own host.`,
    withForm(
      'Write a path on the connected cluster, starting at `/`, without `http://`, `//host`, `@` or backslashes.'
    ),
    { line: place.line, column: place.column }
  );
}

function refuseControl(place: PathPlace, what: string): never {
  refuse(
    'ControlCharacterRefused',
    `The ${what} on line ${place.line} holds a control character or line break (possibly percent-encoded or from a variable).`,
    withForm(
      'Remove it. Line breaks and control characters cannot be part of a request line.'
    ),
    { line: place.line, column: place.column }
  );
}

/** Refuses an unsafe path; `path` is already substituted and starts with `/`. */
export function checkPath(path: string, place: PathPlace): void {
  if (LEADING_SCHEME.test(path)) {
    refuseHost(place);
  }
  let layer = path;
  for (let round = 0; round < MAX_DECODE_LAYERS; round++) {
    if (CONTROL.test(layer)) {
      refuseControl(place, 'path');
    }
    if (/\s/.test(layer) && round === 0) {
      refuseControl(place, 'path');
    }
    if (
      layer.startsWith('//') ||
      layer.includes('\\') ||
      layer.includes('@') ||
      SCHEME.test(layer)
    ) {
      refuseHost(place);
    }
    const segments = layer.split('/').map(s => s.toLowerCase());
    const sqlAt = segments.findIndex(
      (s, i) => s === '_sql' || (s === 'sql' && segments[i - 1] === '_xpack')
    );
    if (sqlAt !== -1) {
      refuseSqlEndpoint(place.line, place.column);
    }
    const decoded = percentDecode(layer);
    if (decoded === layer) {
      break;
    }
    layer = decoded;
  }
}

/** The query string stays encoded on the wire, so only raw control characters matter. */
export function checkQuery(query: string, place: PathPlace): void {
  if (CONTROL.test(query)) {
    refuseControl(place, 'query string');
  }
}
