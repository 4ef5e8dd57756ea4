/**
 * Secrets masked in a cell's outputs, as CI systems mask theirs: every value the kernel put
 * into a request from `${env:NAME}`, a profile, the OS keyring or the password prompt is
 * remembered, and wherever it shows up in an output (an engine echoing it in a 404's `_id`, an
 * error text) it is replaced by the form the cell wrote, `${env:NAME}`, or by `***`.
 */
import { EncodedString } from '../protocol/encoded-string';
import { MessageBuffer } from '../protocol/message-buffer';
import { swapQuotes } from '../../../contracts/answer-rows';
import { escapeHtmlText } from './text-table';

/**
 * Shorter values are not masked: replacing every `10`, `true` or `name` in an answer would
 * change what it says (a number cut in two, a column renamed), and a secret that short is
 * guessed in a moment anyway. Eight characters is also the shortest piece of a secret that
 * counts as shown: a cut output (a long cell, a page of fallback text, a `%vars` preview) that
 * ends within a secret has its first characters from this many on masked too.
 */
export const MIN_MASKED_LENGTH = 8;

/** The text shown instead of a secret that has no `${env:NAME}` form. */
export const HIDDEN = '***';

/**
 * Whether a secret can be masked without changing answers: long enough, and more than one
 * word or number. A plain word (`products`) or number (`10000000`) is also an index name, a
 * field, a count: masking it would rewrite answers, so it is left alone and `%connect` says so.
 */
export function maskable(secret: string): boolean {
  if (secret.length < MIN_MASKED_LENGTH) {
    return false;
  }
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter(kind =>
    kind.test(secret)
  ).length;
  return kinds >= 2 && !/^[-+]?[0-9.eE+-]+$/.test(secret);
}

/** A JSON string literal in an answer as the notebook keeps it: its quotes are `'` (render/swapped-answer.ts). */
const SWAPPED_LITERAL = /'(?:[^'\\]|\\.)*'/g;

/** A JSON string literal in an answer's own text (a message buffer's bytes). */
const JSON_LITERAL = /"(?:[^"\\]|\\.)*"/g;

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
  /** Each form in UTF-8, as an answer's own bytes (a message buffer, valid UTF-8) hold it. */
  private readonly byteForms: Buffer[] = [];

  /**
   * Remembers `secret`, shown as `shown` from now on; the first form given for a value stays.
   * False when the secret is not masked (see maskable): the caller tells the user.
   */
  add(secret: string, shown: string): boolean {
    if (!maskable(secret)) {
      return false;
    }
    if (this.known.has(secret)) {
      return true;
    }
    this.known.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    // The notebook keeps answers as JSON text with their quotes swapped (render/swapped-answer.ts).
    const written = new Set([secret, escaped, swapQuotes(escaped)]);
    for (const form of [...written]) {
      written.add(escapeHtmlText(form));
    }
    for (const form of written) {
      this.forms.push([form, shown]);
      this.byteForms.push(Buffer.from(form, 'utf8'));
      if (this.literalForms && /^[\x20-\x7e]+$/.test(form)) {
        this.literalForms.push(
          Buffer.from(JSON.stringify(form).slice(1, -1), 'utf8')
        );
      } else {
        this.literalForms = undefined;
      }
    }
    this.forms.sort((a, b) => b[0].length - a[0].length);
    return true;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** `text` with every secret replaced, and every piece of one cut short (see MIN_MASKED_LENGTH). */
  text(text: string): string {
    let masked = text;
    for (const [form, shown] of this.forms) {
      if (masked.includes(form)) {
        masked = masked.split(form).join(shown);
      }
    }
    for (const [form, shown] of this.forms) {
      masked = withoutPrefixes(masked, form, shown);
    }
    return masked;
  }

  /**
   * An answer's JSON text (quotes swapped) with secrets replaced inside its string literals
   * only: its numbers, `true`, `false`, `null` and structure stay as the engine sent them.
   */
  private answerText(text: string): string {
    return text.replace(SWAPPED_LITERAL, literal => this.text(literal));
  }

  /**
   * An answer's own bytes (a message buffer) masked as a swapped answer is: inside its string
   * literals only, and decoded only when a secret's form is in them.
   */
  private answerBytes(kept: MessageBuffer): MessageBuffer {
    if (this.byteForms.every(form => !kept.bytes.includes(form))) {
      return kept;
    }
    const text = kept.bytes.toString('utf8');
    const masked = text.replace(JSON_LITERAL, literal => this.text(literal));
    return masked === text
      ? kept
      : new MessageBuffer(Buffer.from(masked, 'utf8'));
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
      } else if (current instanceof MessageBuffer) {
        put(this.answerBytes(current));
      } else if (current instanceof EncodedString) {
        const text = current.value;
        const masked = this.answerText(text);
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

/**
 * `text` with each run of `form`'s first MIN_MASKED_LENGTH or more characters replaced by
 * `shown`: what is left of a secret where an output was cut inside it.
 */
function withoutPrefixes(text: string, form: string, shown: string): string {
  const head = form.slice(0, MIN_MASKED_LENGTH);
  let at = text.indexOf(head);
  if (at < 0) {
    return text;
  }
  let out = '';
  let from = 0;
  while (at >= 0) {
    let end = at + head.length;
    for (let k = head.length; k < form.length && text[end] === form[k]; k++) {
      end++;
    }
    out += text.slice(from, at) + shown;
    from = end;
    at = text.indexOf(head, from);
  }
  return out + text.slice(from);
}
