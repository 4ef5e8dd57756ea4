/**
 * How many documents an answer kept in the notebook holds, read off its text without building
 * a value: an output says how many rows it shows as soon as it is drawn, and builds them only
 * when its grid is shown.
 */

import {
  BACKSLASH,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  COMMA,
  COLON
} from './json-char-codes';

const QUOTE = 0x27; // the answer's quotes are swapped: its strings are quoted with '

/** The text is not JSON of the shape expected: the caller reads it the long way. */
class NotThatShape extends Error {}

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  /**
   * The number of elements of the array the path leads to (1 for an object, 0 for anything
   * else), as `documentsOf` counts them once the answer is parsed.
   */
  count(path: readonly (string | number)[]): number {
    this.space();
    for (const step of path) {
      const found =
        typeof step === 'string' ? this.member(step) : this.element(step);
      if (!found) {
        return 0;
      }
    }
    const first = this.text.charCodeAt(this.at);
    if (first === OPEN_OBJECT) {
      return 1;
    }
    if (first !== OPEN_ARRAY) {
      return 0;
    }
    return this.elements();
  }

  /** Past the object here to the value of its last `key` member (JSON.parse keeps the last). */
  private member(key: string): boolean {
    if (this.text.charCodeAt(this.at) !== OPEN_OBJECT) {
      // A key on an array maps over its elements: not a documents array this counts.
      if (this.text.charCodeAt(this.at) === OPEN_ARRAY) {
        throw new NotThatShape();
      }
      return false;
    }
    this.at++;
    this.space();
    let last = -1;
    if (this.text.charCodeAt(this.at) === CLOSE_OBJECT) {
      this.at++;
    } else {
      for (;;) {
        const name = this.key();
        this.space();
        this.expect(COLON);
        this.space();
        if (name === key) {
          last = this.at;
        }
        this.value();
        this.space();
        if (this.separator(CLOSE_OBJECT)) {
          break;
        }
      }
    }
    if (last < 0) {
      return false;
    }
    this.at = last;
    return true;
  }

  /** Into the array here, at its element `index`. */
  private element(index: number): boolean {
    if (this.text.charCodeAt(this.at) !== OPEN_ARRAY) {
      return false;
    }
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === CLOSE_ARRAY) {
      this.at++;
      return false;
    }
    for (let i = 0; ; i++) {
      if (i === index) {
        return true;
      }
      this.value();
      this.space();
      if (this.separator(CLOSE_ARRAY)) {
        return false;
      }
    }
  }

  /** How many elements the array here holds. */
  private elements(): number {
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === CLOSE_ARRAY) {
      return 0;
    }
    for (let n = 1; ; n++) {
      this.value();
      this.space();
      if (this.separator(CLOSE_ARRAY)) {
        return n;
      }
    }
  }

  /** A `,` (false) or the closing bracket (true), stepped over. */
  private separator(close: number): boolean {
    const c = this.text.charCodeAt(this.at);
    this.at++;
    if (c === COMMA) {
      this.space();
      return false;
    }
    if (c === close) {
      return true;
    }
    throw new NotThatShape();
  }

  /** Steps over one value of any kind. */
  private value(): void {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) {
      this.string();
      return;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.nested();
      return;
    }
    const start = this.at;
    while (this.at < this.text.length) {
      const d = this.text.charCodeAt(this.at);
      if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || d <= 0x20) {
        break;
      }
      this.at++;
    }
    if (this.at === start) {
      throw new NotThatShape();
    }
  }

  /** Steps over an object or array, whatever it holds, by its brackets outside strings. */
  private nested(): void {
    // One tight loop over character codes, the whole of an answer's documents mostly: no
    // call per string or value.
    const text = this.text;
    const length = text.length;
    let depth = 0;
    let i = this.at;
    while (i < length) {
      const c = text.charCodeAt(i++);
      if (c === QUOTE) {
        for (;;) {
          if (i >= length) {
            throw new NotThatShape();
          }
          const d = text.charCodeAt(i++);
          if (d === QUOTE) {
            break;
          }
          if (d === BACKSLASH) {
            i++;
          }
        }
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        depth++;
      } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) {
        this.at = i;
        return;
      }
    }
    throw new NotThatShape();
  }

  private string(): void {
    let end = this.text.indexOf("'", this.at + 1);
    while (end >= 0) {
      // Escaped when an odd number of backslashes stands before it.
      let slashes = 0;
      while (this.text.charCodeAt(end - 1 - slashes) === BACKSLASH) {
        slashes++;
      }
      if (slashes % 2 === 0) {
        this.at = end + 1;
        return;
      }
      end = this.text.indexOf("'", end + 1);
    }
    throw new NotThatShape();
  }

  /** A member's name, its escapes read as JSON reads them. */
  private key(): string {
    if (this.text.charCodeAt(this.at) !== QUOTE) {
      throw new NotThatShape();
    }
    const start = this.at;
    this.string();
    const raw = this.text.slice(start + 1, this.at - 1);
    if (!raw.includes('\\') && !raw.includes('"')) {
      return raw;
    }
    // Swapped back: the name's ' were written as ", its \' as an escaped ".
    const swapped = raw.replace(/["']/g, q => (q === '"' ? "'" : '"'));
    return JSON.parse(`"${swapped}"`) as string;
  }

  private expect(code: number): void {
    if (this.text.charCodeAt(this.at) !== code) {
      throw new NotThatShape();
    }
    this.at++;
  }

  private space(): void {
    while (
      this.at < this.text.length &&
      this.text.charCodeAt(this.at) <= 0x20
    ) {
      this.at++;
    }
  }
}

/**
 * The number of documents under `at` in an answer kept with its quotes swapped; undefined when
 * its text is not of a shape this reads (the caller then parses it).
 */
export function documentCountOfText(
  text: string,
  at: readonly (string | number)[]
): number | undefined {
  try {
    return new Scanner(text).count(at);
  } catch (error) {
    if (error instanceof NotThatShape) {
      return undefined;
    }
    throw error;
  }
}
