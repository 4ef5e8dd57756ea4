/**
 * The answers a `%set name = <expression>` can read: the last one and those named with `%name`.
 * Held in memory only within bounds: each at most MAX_ANSWER_BYTES of JSON, and at most
 * MAX_NAMED_ANSWERS names, so a kernel that runs for days keeps no growing list of answers.
 */
import type { JsonValue } from './cell';
import { sizePast } from './size-past';
import { isVariableName } from './variables';

export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
export const MAX_NAMED_ANSWERS = 10;

export interface HeldAnswer {
  value: JsonValue;
  /** The request that got it, as outputs show it (`es: GET /products/_search`), never a secret. */
  from: string;
  bytes: number;
}

/** The answer a request got, or why it was not kept. */
type LastAnswer =
  | { kind: 'held'; answer: HeldAnswer }
  | { kind: 'too-large'; from: string; bytes: number };

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

export const ANSWER_CAP_TEXT = `searchbook keeps answers of up to ${megabytes(MAX_ANSWER_BYTES)} for %set`;

/** Thrown by `name` and `read`: what the user asked for cannot be had, and why. */
export class AnswerUnavailable extends Error {
  constructor(
    message: string,
    readonly hint: string
  ) {
    super(message);
  }
}

const TOO_LARGE_HINT =
  'Ask for less in the request (fewer hits a page, fewer fields of each document, or only the paths the expression reads), then run it again.';

export class AnswerStore {
  private last: LastAnswer | undefined;
  private readonly named = new Map<string, HeldAnswer>();

  /**
   * Keeps the answer a request just got as the last one (only its reference when too large).
   * `value` may be a function making it, called when an expression first reads the answer: a
   * quiet magic's answer is read whole only then.
   */
  record(
    from: string,
    value: JsonValue | (() => JsonValue),
    bytes: number
  ): void {
    this.last =
      bytes > MAX_ANSWER_BYTES
        ? { kind: 'too-large', from, bytes }
        : {
            kind: 'held',
            answer:
              typeof value === 'function'
                ? new LaterAnswer(value, from, bytes)
                : { value, from, bytes }
          };
  }

  /** Keeps the last answer under `name` too (`%name`); naming again replaces. */
  name(name: string): HeldAnswer {
    if (!isVariableName(name)) {
      throw new AnswerUnavailable(
        `\`${name.slice(0, 40)}\` is not a name for an answer: use letters, digits and _, not starting with a digit.`,
        'Write `%name products_search` on a line after the request whose answer it names.'
      );
    }
    const answer = this.lastAnswer();
    if (!this.named.has(name) && this.named.size >= MAX_NAMED_ANSWERS) {
      throw new AnswerUnavailable(
        `${MAX_NAMED_ANSWERS} answers are named already (${this.names().join(', ')}), the most searchbook keeps.`,
        'Reuse one of those names for this answer: naming again replaces the answer it held.'
      );
    }
    this.named.set(name, answer);
    return answer;
  }

  /** The last answer, or the one named `name`. */
  read(name?: string): HeldAnswer {
    if (name === undefined) {
      return this.lastAnswer();
    }
    const answer = this.named.get(name);
    if (!answer) {
      const names = this.names();
      throw new AnswerUnavailable(
        `No answer is named ${name}.`,
        `Name an answer with \`%name ${name}\` on a line after its request, then use it in a later cell. ` +
          (names.length
            ? `Named answers: ${names.join(', ')}.`
            : 'No answer is named yet.')
      );
    }
    return answer;
  }

  names(): string[] {
    return [...this.named.keys()].sort();
  }

  private lastAnswer(): HeldAnswer {
    if (!this.last) {
      throw new AnswerUnavailable(
        'No request has answered in this kernel yet, so there is no last answer to read.',
        'Run the request first, then set the variable from its answer in a later cell.'
      );
    }
    if (this.last.kind === 'too-large') {
      throw new AnswerUnavailable(
        `The last answer (${this.last.from}, ${sizePast(this.last.bytes, MAX_ANSWER_BYTES, megabytes)}) was not kept: ${ANSWER_CAP_TEXT}.`,
        TOO_LARGE_HINT
      );
    }
    return this.last.answer;
  }
}

/** A held answer whose value is made when first read. */
class LaterAnswer implements HeldAnswer {
  private made: { value: JsonValue } | undefined;

  constructor(
    private readonly make: () => JsonValue,
    readonly from: string,
    readonly bytes: number
  ) {}

  get value(): JsonValue {
    this.made ??= { value: this.make() };
    return this.made.value;
  }
}
