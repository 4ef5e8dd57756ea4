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

/** Just past the quote closing the string whose text starts at `from`. */
function stringEnd(text: string, from: number): number {
  let end = text.indexOf("'", from);
  while (end >= 0) {
    // Escaped when an odd number of backslashes stands before it.
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) {
      slashes++;
    }
    if (slashes % 2 === 0) {
      return end + 1;
    }
    end = text.indexOf("'", end + 1);
  }
  throw new NotThatShape();
}

/** What walkedInto found: the documents' spans (when asked for) and how many there are. */
interface Walked {
  spans: number[];
  counted: number;
}

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  /**
   * The number of elements of the array the path leads to (1 for an object, 0 for anything
   * else), as `documentsOf` counts them once the answer is parsed.
   */
  count(path: readonly (string | number)[]): number {
    this.documents(path, false);
    return this.counted;
  }

  /** How many documents `documents` found. */
  private counted = 0;

  /**
   * Where each document the path leads to starts and ends in the text, as pairs of offsets
   * (`spans`) or not; their number kept in `counted` (an object: one document).
   */
  documents(path: readonly (string | number)[], spans: boolean): number[] {
    this.counted = 0;
    this.space();
    if (path.length > 0 && path.every(step => typeof step === 'string')) {
      const found = this.walkedInto(path as readonly string[], 0, spans);
      this.counted = found?.counted ?? 0;
      return found?.spans ?? [];
    }
    for (const step of path) {
      const found =
        typeof step === 'string' ? this.member(step) : this.element(step);
      if (!found) {
        return [];
      }
    }
    const first = this.text.charCodeAt(this.at);
    if (first === OPEN_OBJECT) {
      this.counted = 1;
      if (!spans) {
        return [];
      }
      const start = this.at;
      this.value();
      return [start, this.at];
    }
    if (first !== OPEN_ARRAY) {
      return [];
    }
    return this.elements(spans);
  }

  /**
   * The documents under `path` (from step `from`) in the value here, the value stepped over
   * whole in one pass: a member the path names is walked into where it stands, not stepped
   * over first and come back to (three passes over the documents, the first grid of a notebook
   * paying them in unoptimised code). JSON.parse keeps the last member of a name, so a later
   * one is walked into too and its documents replace the earlier one's; a walk into an earlier
   * one that fails only counts if that member is the last, as that member alone is read by the
   * stepwise way. Undefined: nothing at the path.
   */
  private walkedInto(
    path: readonly string[],
    from: number,
    spans: boolean
  ): Walked | undefined {
    const first = this.text.charCodeAt(this.at);
    if (from === path.length) {
      if (first === OPEN_OBJECT) {
        const start = this.at;
        this.value();
        return { spans: spans ? [start, this.at] : [], counted: 1 };
      }
      if (first === OPEN_ARRAY) {
        const found = this.elements(spans);
        return { spans: found, counted: this.counted };
      }
      this.value();
      return { spans: [], counted: 0 };
    }
    if (first !== OPEN_OBJECT) {
      // A key on an array maps over its elements: not a documents array this counts.
      if (first === OPEN_ARRAY) {
        throw new NotThatShape();
      }
      // Inside a member, stepped over as the member's loop steps over any value.
      if (from > 0) {
        this.value();
      }
      return undefined;
    }
    const key = path[from];
    this.at++;
    this.space();
    let last: Walked | { failed: unknown } | undefined;
    if (this.text.charCodeAt(this.at) === CLOSE_OBJECT) {
      this.at++;
    } else {
      for (;;) {
        const name = this.key();
        this.space();
        this.expect(COLON);
        this.space();
        if (name === key) {
          const start = this.at;
          try {
            last = this.walkedInto(path, from + 1, spans);
          } catch (error) {
            // Stepped over as the stepwise way does before it reads the last member: what
            // stops that stops here first.
            this.at = start;
            this.value();
            last = { failed: error };
          }
        } else {
          this.value();
        }
        this.space();
        if (this.separator(CLOSE_OBJECT)) {
          break;
        }
      }
    }
    if (last && 'failed' in last) {
      throw last.failed;
    }
    return last;
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

  /** The elements of the array here: their spans when asked for, their number in `counted`. */
  private elements(spans: boolean): number[] {
    const found: number[] = [];
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === CLOSE_ARRAY) {
      this.at++;
      this.counted = 0;
      return found;
    }
    for (let n = 1; ; n++) {
      const start = this.at;
      this.value();
      if (spans) {
        found.push(start, this.at);
      }
      this.space();
      if (this.separator(CLOSE_ARRAY)) {
        this.counted = n;
        return found;
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
    // One tight loop over the character codes between strings, each string jumped over by
    // indexOf (most of an answer's characters are inside strings): no call per value.
    const text = this.text;
    const length = text.length;
    let depth = 0;
    let i = this.at;
    while (i < length) {
      const c = text.charCodeAt(i++);
      if (c === QUOTE) {
        i = stringEnd(text, i);
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
    this.at = stringEnd(this.text, this.at + 1);
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

/**
 * Where each document under `at` starts and ends in an answer kept with its quotes swapped,
 * as pairs of offsets (start, end) in document order: each slice parses alone to the element
 * `documentsOf` gives once the whole answer is parsed, so a grid reads only the rows it shows.
 * Undefined when the text is not of a shape this reads (the caller then parses it whole).
 */
export function documentSpansOfText(
  text: string,
  at: readonly (string | number)[]
): number[] | undefined {
  try {
    return new Scanner(text).documents(at, true);
  } catch (error) {
    if (error instanceof NotThatShape) {
      return undefined;
    }
    throw error;
  }
}
