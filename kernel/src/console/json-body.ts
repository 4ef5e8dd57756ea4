/**
 * Request bodies and `%set` values: JSON (or a sequence of JSON values for NDJSON) with
 * comment lines, `${...}` references and `"""triple-quoted"""` strings. Errors carry the line
 * and column within the cell. Plain JSON goes through JSON.parse; the positional parser runs
 * only when templating is present or to locate an error JSON.parse reported.
 */
import type { JsonValue } from './cell';
import type { BlockScan } from './block-scan';
import { isCommentAt, skipBlanks } from './block-scan';
import { refuse, withForm } from './refusal';
import { positionAt } from './text-position';
import {
  readVarRef,
  resolveVarRef,
  valueText,
  type ResolveOptions
} from './var-ref';
import type { VariableScope } from './variables';
import { copyExactJson, ExactNumber } from '../../../contracts/exact-json';
import { parseJsonAsWritten } from '../../../contracts/exact-json';

export interface BodyOptions extends ResolveOptions {
  /** NDJSON: any number of values, one a line. Otherwise at most one value. */
  multi: boolean;
  /** The block starts at a line start, so a comment line may open it. */
  startsAtLineStart: boolean;
  /** What to say when a single-value body holds a second value. */
  singleValueAdvice: string;
  /** Advice for any JSON error, instead of the generic one. */
  errorAdvice?: string;
}

const MAX_DEPTH = 2000;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NON_BLANK = /\S/;

export function parseBody(
  text: string,
  start: number,
  scan: BlockScan,
  scope: VariableScope,
  options: BodyOptions
): JsonValue[] {
  if (!scan.needsTemplating) {
    const fast = tryJsonParse(text, start, scan, options.multi);
    if (fast) {
      return fast;
    }
  }
  return new BodyParser(text, start, scan.end, scope, options).parseAll();
}

function tryJsonParse(
  text: string,
  start: number,
  scan: BlockScan,
  multi: boolean
): JsonValue[] | undefined {
  let source = text.slice(start, scan.end);
  if (scan.comments.length > 0) {
    // Blank comment lines in place so that a fallback error still points at the right column.
    const parts: string[] = [];
    let at = start;
    for (const [from, to] of scan.comments) {
      parts.push(text.slice(at, from), ' '.repeat(to - from));
      at = to;
    }
    parts.push(text.slice(at, scan.end));
    source = parts.join('');
  }
  try {
    if (!multi) {
      return NON_BLANK.test(source)
        ? [parseJsonAsWritten(source) as JsonValue]
        : [];
    }
    const values: JsonValue[] = [];
    for (const line of source.split('\n')) {
      if (line.length > 0 && NON_BLANK.test(line)) {
        values.push(parseJsonAsWritten(line) as JsonValue);
      }
    }
    return values;
  } catch {
    return undefined;
  }
}

function setKey(
  target: { [key: string]: JsonValue },
  key: string,
  value: JsonValue
): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true
    });
  } else {
    target[key] = value;
  }
}

function describeChar(ch: string | undefined): string {
  if (ch === undefined) {
    return 'the end of the body';
  }
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) {
    return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${ch}'`;
}

class BodyParser {
  private i: number;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly end: number,
    private readonly scope: VariableScope,
    private readonly options: BodyOptions
  ) {
    this.i = start;
  }

  parseAll(): JsonValue[] {
    const values: JsonValue[] = [];
    this.skipSpace();
    while (this.i < this.end) {
      values.push(this.value());
      this.skipSpace();
      if (!this.options.multi && this.i < this.end) {
        this.fail(
          `unexpected ${describeChar(this.text[this.i])} after the JSON value`,
          this.options.singleValueAdvice
        );
      }
    }
    return values;
  }

  private fail(problem: string, advice?: string, at = this.i): never {
    const { line, column } = positionAt(this.text, at);
    const hint =
      advice ??
      this.options.errorAdvice ??
      withForm('Fix the JSON body of the request.');
    refuse(
      'InvalidJSON',
      `Invalid JSON at line ${line}, column ${column}: ${problem}`,
      hint,
      { line, column }
    );
  }

  private failUnexpected(expected: string): never {
    if (this.i < this.end) {
      this.fail(
        `expected ${expected}, found ${describeChar(this.text[this.i])}`
      );
    }
    // Point just after the last thing typed, not at the start of the next request's line.
    let at = this.end;
    while (at > this.start && /\s/.test(this.text[at - 1] as string)) {
      at--;
    }
    this.fail(
      `expected ${expected}, found ${describeChar(undefined)}`,
      undefined,
      at
    );
  }

  private skipSpace(): void {
    const { text, end } = this;
    let i = this.i;
    if (i === this.start && this.options.startsAtLineStart) {
      i = this.skipCommentLine(i);
    }
    while (i < end) {
      const code = text.charCodeAt(i);
      if (code === 32 || code === 9 || code === 13) {
        i++;
      } else if (code === 10) {
        i = this.skipCommentLine(i + 1);
      } else {
        break;
      }
    }
    this.i = i;
  }

  private skipCommentLine(lineStart: number): number {
    const first = skipBlanks(this.text, lineStart);
    if (first < this.end && isCommentAt(this.text, first)) {
      const eol = this.text.indexOf('\n', first);
      return eol === -1 || eol > this.end ? this.end : eol;
    }
    return lineStart;
  }

  private value(): JsonValue {
    const code = this.i < this.end ? this.text.charCodeAt(this.i) : -1;
    switch (code) {
      case 123:
        return this.object();
      case 91:
        return this.array();
      case 34:
        return this.string();
      case 36:
        return this.reference();
      case 116:
        return this.literal('true', true);
      case 102:
        return this.literal('false', false);
      case 110:
        return this.literal('null', null);
      default:
        if (code === 45 || (code >= 48 && code <= 57)) {
          return this.number();
        }
        if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
          return this.failUnexpected(
            'a JSON value (strings need double quotes)'
          );
        }
        return this.failUnexpected('a JSON value');
    }
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) {
      this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    }
  }

  private object(): JsonValue {
    this.enter();
    this.i++;
    const result: { [key: string]: JsonValue } = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.i) === 125 && this.i < this.end) {
      this.i++;
      this.depth--;
      return result;
    }
    for (;;) {
      if (this.i >= this.end || this.text.charCodeAt(this.i) !== 34) {
        this.failUnexpected('a string key in double quotes');
      }
      const key = this.string();
      this.skipSpace();
      if (this.i >= this.end || this.text.charCodeAt(this.i) !== 58) {
        this.failUnexpected("':'");
      }
      this.i++;
      this.skipSpace();
      setKey(result, key, this.value());
      if (this.closesAfterItem(125, "',' or '}'")) {
        return result;
      }
    }
  }

  private array(): JsonValue {
    this.enter();
    this.i++;
    const result: JsonValue[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.i) === 93 && this.i < this.end) {
      this.i++;
      this.depth--;
      return result;
    }
    for (;;) {
      result.push(this.value());
      if (this.closesAfterItem(93, "',' or ']'")) {
        return result;
      }
    }
  }

  /** After a member or element: a comma continues (false), the closing bracket ends (true). */
  private closesAfterItem(close: number, expected: string): boolean {
    this.skipSpace();
    const code = this.i < this.end ? this.text.charCodeAt(this.i) : -1;
    if (code === 44) {
      const comma = this.i;
      this.i++;
      this.skipSpace();
      if (this.i < this.end && this.text.charCodeAt(this.i) === close) {
        const bracket = String.fromCharCode(close);
        // The fix is plain, so the general request form would only bury it.
        this.fail(
          `a trailing comma before '${bracket}'`,
          `Remove the comma after the last ${close === 125 ? 'member' : 'element'}: JSON allows no comma before '${bracket}'.`,
          comma
        );
      }
      return false;
    }
    if (code === close) {
      this.i++;
      this.depth--;
      return true;
    }
    return this.failUnexpected(expected);
  }

  private literal(word: string, value: boolean | null): JsonValue {
    if (
      this.text.startsWith(word, this.i) &&
      this.i + word.length <= this.end
    ) {
      this.i += word.length;
      return value;
    }
    return this.failUnexpected('a JSON value (strings need double quotes)');
  }

  private number(): JsonValue {
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (!match || NUMBER.lastIndex > this.end) {
      return this.failUnexpected('a number');
    }
    this.i = NUMBER.lastIndex;
    // Sent as written where a double would print it otherwise: `4.0` maps a new field as a
    // float where `4` maps it as a long, and a long past 2^53 keeps its digits.
    const literal = match[0];
    const value = Number(literal);
    return String(value) === literal ? value : new ExactNumber(literal);
  }

  private reference(): JsonValue {
    if (this.text.charCodeAt(this.i + 1) !== 123) {
      return this.failUnexpected('a JSON value');
    }
    const ref = readVarRef(this.text, this.i, this.end);
    const value = resolveVarRef(this.text, ref, this.scope, this.options);
    this.i = ref.end;
    // A copy, so a body built from it never changes the variable.
    return copyExactJson(value) as JsonValue;
  }

  private string(): string {
    const { text, end } = this;
    if (
      text.charCodeAt(this.i + 1) === 34 &&
      text.charCodeAt(this.i + 2) === 34
    ) {
      return this.tripleQuoted();
    }
    let i = this.i + 1;
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= end) {
        this.fail(
          'unterminated string: a JSON string must close on its line',
          undefined,
          this.i
        );
      }
      const code = text.charCodeAt(i);
      if (code === 34) {
        out += text.slice(chunk, i);
        this.i = i + 1;
        return out;
      }
      if (code === 92) {
        out += text.slice(chunk, i);
        i = this.escape(i, s => (out += s));
        chunk = i;
        continue;
      }
      if (code === 36 && text.charCodeAt(i + 1) === 123) {
        out += text.slice(chunk, i);
        const ref = readVarRef(text, i, end);
        out += valueText(resolveVarRef(text, ref, this.scope, this.options));
        i = ref.end;
        chunk = i;
        continue;
      }
      if (code === 10) {
        this.fail(
          'unterminated string: a JSON string must close on its line (use """triple quotes""" for text over several lines)',
          undefined,
          this.i
        );
      }
      if (code < 0x20) {
        this.fail(
          `${describeChar(text[i])} inside a string; write it as an escape such as \\t or \\n`,
          undefined,
          i
        );
      }
      i++;
    }
  }

  private escape(at: number, emit: (s: string) => void): number {
    const ch = this.text[at + 1];
    switch (ch) {
      case '"':
      case '\\':
      case '/':
        emit(ch);
        return at + 2;
      case 'b':
        emit('\b');
        return at + 2;
      case 'f':
        emit('\f');
        return at + 2;
      case 'n':
        emit('\n');
        return at + 2;
      case 'r':
        emit('\r');
        return at + 2;
      case 't':
        emit('\t');
        return at + 2;
      case 'u': {
        const hex = this.text.slice(at + 2, at + 6);
        if (at + 6 <= this.end && /^[0-9a-fA-F]{4}$/.test(hex)) {
          emit(String.fromCharCode(parseInt(hex, 16)));
          return at + 6;
        }
        return this.fail(
          '\\u must be followed by four hex digits',
          undefined,
          at
        );
      }
      default:
        return this.fail(
          `invalid escape \\${ch === undefined || ch === '\n' ? '' : ch} in a string`,
          undefined,
          at
        );
    }
  }

  /** Kibana console convention: verbatim text, may span lines, no escapes, no substitution. */
  private tripleQuoted(): string {
    const open = this.i;
    const close = this.text.indexOf('"""', open + 3);
    if (close === -1 || close + 3 > this.end) {
      this.fail(
        'unterminated """triple-quoted""" string',
        withForm('Close the text with """.'),
        open
      );
    }
    this.i = close + 3;
    return this.text.slice(open + 3, close);
  }
}
