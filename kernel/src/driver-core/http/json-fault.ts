/**
 * Where JSON text first goes wrong, for a refusal under a grid cell: V8's JSON.parse errors no
 * longer name a position. A plain recursive-descent walk over JSON's grammar, run only after
 * JSON.parse has refused the text.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

class Fault {
  constructor(
    readonly offset: number,
    readonly what: string
  ) {}
}

/** The offset and a description of the first fault; undefined when the text is valid JSON. */
export function jsonFault(
  text: string
): { offset: number; what: string } | undefined {
  let at = 0;
  const blanks = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) {
      at++;
    }
  };
  const unexpected = (): Fault =>
    new Fault(
      at,
      at >= text.length
        ? 'the text ends before the value does (a bracket or quote is not closed)'
        : `unexpected ${JSON.stringify(text[at])}`
    );
  const token = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) {
      return false;
    }
    at += match[0].length;
    return true;
  };
  const value = (): void => {
    blanks();
    const ch = text[at];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      at++;
      blanks();
      if (text[at] === close) {
        return void at++;
      }
      for (;;) {
        if (ch === '{') {
          blanks();
          if (!token(STRING)) {
            throw unexpected();
          }
          blanks();
          if (text[at] !== ':') {
            throw unexpected();
          }
          at++;
        }
        value();
        blanks();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === close) {
          return void at++;
        }
        throw unexpected();
      }
    }
    if (!token(STRING) && !token(NUMBER) && !token(LITERAL)) {
      throw unexpected();
    }
  };
  try {
    value();
    blanks();
    if (at < text.length) {
      throw unexpected();
    }
    return undefined;
  } catch (err) {
    if (err instanceof Fault) {
      return { offset: err.offset, what: err.what };
    }
    throw err;
  }
}
