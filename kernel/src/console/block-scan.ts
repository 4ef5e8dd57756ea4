/**
 * Finds where a request body (or a multi-line `%set` value) ends, without parsing it.
 * A body ends at the first line that starts a new request or magic: at bracket depth 0 a line
 * starting with a bare word (other than true/false/null) or `%`; at any depth a `METHOD ` line,
 * so a forgotten `}` gives a JSON error at the body's end instead of swallowing the next request.
 */
import { HTTP_METHODS } from './cell';

export interface BlockScan {
  /** Offset where the block stops (start of the next request line, or text end). */
  end: number;
  /** Open `{`/`[` levels at `end`, outside strings. */
  depth: number;
  /** A `"""` string is still open at `end`. */
  openTriple: boolean;
  /** The block holds `${` or `"""`, so JSON.parse alone cannot read it. */
  needsTemplating: boolean;
  /** [start, end) of comment lines inside the block, to blank them before JSON.parse. */
  comments: Array<[number, number]>;
}

const METHOD_SET = new Set<string>(HTTP_METHODS);

const CH_NL = 10;
const CH_QUOTE = 34;
const CH_BACKSLASH = 92;
const CH_DOLLAR = 36;
const CH_LBRACE = 123;
const CH_RBRACE = 125;
const CH_LBRACKET = 91;
const CH_RBRACKET = 93;

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function wordAt(text: string, at: number): string {
  let end = at;
  while (end < text.length && isLetter(text.charCodeAt(end))) {
    end++;
  }
  return text.slice(at, end);
}

/** Offset of the first non-blank character of the line starting at `at`. */
export function skipBlanks(text: string, at: number): number {
  let i = at;
  while (i < text.length && isBlank(text.charCodeAt(i))) {
    i++;
  }
  return i;
}

/** A line whose first non-blank characters are `#` or `//`. */
export function isCommentAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === 35 || (code === 47 && text.charCodeAt(at + 1) === 47);
}

/** The line (first non-blank at `at`) is `METHOD` followed by a blank or line end. */
export function isMethodLineAt(text: string, at: number): boolean {
  const word = wordAt(text, at);
  if (!METHOD_SET.has(word.toUpperCase())) {
    return false;
  }
  const after = at + word.length;
  return (
    after >= text.length ||
    isBlank(text.charCodeAt(after)) ||
    text.charCodeAt(after) === CH_NL
  );
}

/** At depth 0: does this line start a request or magic rather than continue an NDJSON/JSON body? */
export function startsNewItemAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 37) {
    return true;
  } // %
  if (!isLetter(code)) {
    return false;
  }
  const word = wordAt(text, at);
  return word !== 'true' && word !== 'false' && word !== 'null';
}

/**
 * Scans from `start`. When `atLineStart` is false (a `%set` value after `=`), the block also
 * ends at the first line start reached at depth 0, since a one-line value must not eat the next line.
 */
export function scanBlock(
  text: string,
  start: number,
  atLineStart: boolean,
  endAtDepthZeroLine = false
): BlockScan {
  const n = text.length;
  const comments: Array<[number, number]> = [];
  let depth = 0;
  let inString = false;
  let inTriple = false;
  let needsTemplating = false;
  let lineStart = atLineStart;
  let i = start;
  while (i < n) {
    if (lineStart) {
      lineStart = false;
      if (!inTriple) {
        const first = skipBlanks(text, i);
        if (first < n && text.charCodeAt(first) !== CH_NL) {
          if (isCommentAt(text, first)) {
            const eol = text.indexOf('\n', first);
            const stop = eol === -1 ? n : eol;
            comments.push([i, stop]);
            i = stop;
            continue;
          }
          if (endAtDepthZeroLine && depth === 0) {
            return {
              end: i,
              depth,
              openTriple: false,
              needsTemplating,
              comments
            };
          }
          if (
            depth === 0
              ? startsNewItemAt(text, first)
              : text.charCodeAt(first) === 37 || isMethodLineAt(text, first)
          ) {
            return {
              end: i,
              depth,
              openTriple: false,
              needsTemplating,
              comments
            };
          }
        } else if (endAtDepthZeroLine && depth === 0) {
          return {
            end: i,
            depth,
            openTriple: false,
            needsTemplating,
            comments
          };
        }
        i = first;
        continue;
      }
    }
    const code = text.charCodeAt(i);
    if (inTriple) {
      if (
        code === CH_QUOTE &&
        text.charCodeAt(i + 1) === CH_QUOTE &&
        text.charCodeAt(i + 2) === CH_QUOTE
      ) {
        inTriple = false;
        i += 3;
        continue;
      }
      if (code === CH_NL) {
        lineStart = true;
      }
      i++;
      continue;
    }
    if (inString) {
      if (code === CH_BACKSLASH) {
        // An escape never ends the string, but a backslash at line end must not hide the newline.
        i += text.charCodeAt(i + 1) === CH_NL ? 1 : 2;
        continue;
      }
      if (code === CH_QUOTE) {
        inString = false;
      } else if (code === CH_NL) {
        // JSON strings cannot span lines: close it here so request detection keeps working.
        inString = false;
        lineStart = true;
      } else if (code === CH_DOLLAR && text.charCodeAt(i + 1) === CH_LBRACE) {
        needsTemplating = true;
      }
      i++;
      continue;
    }
    switch (code) {
      case CH_QUOTE:
        if (
          text.charCodeAt(i + 1) === CH_QUOTE &&
          text.charCodeAt(i + 2) === CH_QUOTE
        ) {
          inTriple = true;
          needsTemplating = true;
          i += 3;
          continue;
        }
        inString = true;
        break;
      case CH_LBRACE:
      case CH_LBRACKET:
        depth++;
        break;
      case CH_RBRACE:
      case CH_RBRACKET:
        if (depth > 0) {
          depth--;
        }
        break;
      case CH_NL:
        lineStart = true;
        break;
      case CH_DOLLAR:
        if (text.charCodeAt(i + 1) === CH_LBRACE) {
          needsTemplating = true;
        }
        break;
      default:
        break;
    }
    i++;
  }
  return { end: n, depth, openTriple: inTriple, needsTemplating, comments };
}
