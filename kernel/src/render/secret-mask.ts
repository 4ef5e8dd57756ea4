/**
 * Secrets masked in a cell's outputs, as CI systems mask theirs: every value the kernel put
 * into a request from `${env:NAME}`, a profile, the OS keyring or the password prompt is
 * remembered, and wherever it shows up in an output (an engine echoing it in a 404's `_id`, an
 * error text) it is replaced by the form the cell wrote, `${env:NAME}`, or by `***`.
 */
import { EncodedString } from '../protocol/encoded-string';
import { swapQuotes } from '../../../contracts/answer-rows';
import { escapeHtml } from './text-table';

/**
 * Shorter values are not masked: replacing every `a`, `10` or `true` in an answer would make
 * it unreadable, and a secret that short is guessed in a moment anyway. Four characters also
 * keeps the words a JSON answer is made of (`null`, `true`) out of reach of one-letter secrets.
 */
export const MIN_MASKED_LENGTH = 4;

/** The text shown instead of a secret that has no `${env:NAME}` form. */
export const HIDDEN = '***';

export class SecretMask {
  /** Each secret's written forms (raw, JSON-escaped, quote-swapped, HTML-escaped), longest first, with their replacement. */
  private forms: [form: string, shown: string][] = [];
  private readonly known = new Set<string>();
  /**
   * Each form as the bytes of a JSON string literal hold it, for answers kept already encoded:
   * most hold no secret, and finding none in the bytes spares decoding hundreds of kilobytes a
   * cell. Only printable ASCII is written the same way by every encoder (wider characters may be
   * `\u` escapes), so a secret with other characters is always looked for in the decoded text.
   */
  private literalForms: Buffer[] | undefined = [];

  /** Remembers `secret`, shown as `shown` from now on; the first form given for a value stays. */
  add(secret: string, shown: string): void {
    if (secret.length < MIN_MASKED_LENGTH || this.known.has(secret)) {
      return;
    }
    this.known.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    // The notebook keeps answers as JSON text with their quotes swapped (render/swapped-answer.ts).
    const written = new Set([secret, escaped, swapQuotes(escaped)]);
    for (const form of [...written]) {
      written.add(escapeHtml(form));
    }
    for (const form of written) {
      this.forms.push([form, shown]);
      if (this.literalForms && /^[\x20-\x7e]+$/.test(form)) {
        this.literalForms.push(
          Buffer.from(JSON.stringify(form).slice(1, -1), 'utf8')
        );
      } else {
        this.literalForms = undefined;
      }
    }
    this.forms.sort((a, b) => b[0].length - a[0].length);
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** `text` with every secret replaced. */
  text(text: string): string {
    let masked = text;
    for (const [form, shown] of this.forms) {
      if (masked.includes(form)) {
        masked = masked.split(form).join(shown);
      }
    }
    return masked;
  }

  /**
   * A copy of an output (a MIME bundle, an error, a reply) with every secret replaced in its
   * strings and keys; the output itself when nothing is to be masked. Iterative, as an answer
   * may be nested deeper than the stack allows.
   */
  output<T>(value: T): T {
    if (this.empty) {
      return value;
    }
    const result: { value: unknown } = { value };
    const stack: [unknown, (copy: unknown) => void][] = [
      [value, copy => (result.value = copy)]
    ];
    while (stack.length > 0) {
      const [current, put] = stack.pop() as [unknown, (copy: unknown) => void];
      if (typeof current === 'string') {
        put(this.text(current));
      } else if (
        current instanceof EncodedString &&
        this.literalForms?.every(form => !current.json.includes(form))
      ) {
        put(current);
      } else if (current instanceof EncodedString) {
        const text = current.value;
        const masked = this.text(text);
        put(
          masked === text
            ? current
            : new EncodedString(Buffer.from(JSON.stringify(masked), 'utf8'))
        );
      } else if (Array.isArray(current)) {
        const copy: unknown[] = new Array(current.length);
        put(copy);
        current.forEach((item, i) => stack.push([item, c => (copy[i] = c)]));
      } else if (
        current !== null &&
        typeof current === 'object' &&
        isPlain(current)
      ) {
        const copy: Record<string, unknown> = {};
        put(copy);
        // Pushed last to first, so the copy's keys are defined (as each is popped) in their order.
        for (const [key, item] of Object.entries(current).reverse()) {
          // defineProperty: a key such as `__proto__` stays an ordinary key of the copy.
          stack.push([
            item,
            c =>
              Object.defineProperty(copy, this.text(key), {
                value: c,
                enumerable: true,
                writable: true,
                configurable: true
              })
          ]);
        }
      } else {
        put(current);
      }
    }
    return result.value as T;
  }
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
