/**
 * The value of `%set name = ...`: a JSON value as always, else a JMESPath expression over the
 * last answer (`%set ids = hits.hits[*]._id`) or a named one
 * (`%set ids = products_search: hits.hits[*]._id`). JSON is tried first, so every value that
 * was a JSON literal stays one; text that starts like JSON and fails keeps JSON's refusal.
 * JMESPath (https://jmespath.site/) is the library of @jmespath-community/jmespath.
 */
import { compile } from '@jmespath-community/jmespath';
import { parseExactJson } from '../../../contracts/exact-json';
import { AnswerUnavailable, megabytes } from './answers';
import type { AnswerReader } from './expression-results';
import {
  EXPRESSION_MEMORY_MB,
  EXPRESSION_SECONDS,
  MAX_VALUE_BYTES,
  MAX_VALUE_DEPTH
} from './expression-worker';
import { jsonExtent } from './json-extent';
import type { BlockScan } from './block-scan';
import type { JsonValue } from './cell';
import { parseBody } from './json-body';
import { SET_USAGE } from './magics';
import { refuse, Refusal } from './refusal';
import { positionAt } from './text-position';
import type { VariableOrigin, VariableScope } from './variables';

export const SET_EXPRESSION_USAGE =
  'Write `%set name = <JSON value>` (JSON: quote strings, for example `%set index = "products"`), ' +
  'or a JMESPath expression over the last answer, for example `%set ids = hits.hits[*]._id`, ' +
  'or over an answer named with `%name`: `%set ids = products_search: hits.hits[*]._id`. ' +
  'JMESPath: https://jmespath.site/';

/** What a `%set` value needs besides its text. */
export interface SetContext {
  scope: VariableScope;
  /** The answers an expression can read; none where no answer is held (a completeness check). */
  answers: AnswerReader | undefined;
  /** A request comes before this `%set` in its cell (its answer is not there while the cell is checked). */
  afterRequest: boolean;
  line: number;
}

/** `true`, `false`, `null`, a number, a string, an object, an array or a `${...}` reference. */
function startsLikeJson(text: string): boolean {
  return (
    /^(?:[-0-9{"$]|\[|(?:true|false|null)\b)/.test(text) &&
    !/^\[[*?\]]/.test(text)
  );
}

const ANSWER_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*:(?!:)[ \t]*/;

export function readSetValue(
  text: string,
  value: { start: number; scan: BlockScan },
  context: SetContext
): { value: JsonValue; origin: VariableOrigin } {
  let literal: JsonValue | undefined;
  try {
    literal = parseBody(text, value.start, value.scan, context.scope, {
      multi: false,
      allowEnv: false,
      startsAtLineStart: false,
      singleValueAdvice: SET_USAGE,
      errorAdvice: SET_USAGE
    })[0];
  } catch (error) {
    const written = text.slice(value.start, value.scan.end).trim();
    if (!(error instanceof Refusal) || startsLikeJson(written)) {
      throw error;
    }
    return readExpression(written, positionAt(text, value.start), context);
  }
  if (literal === undefined) {
    refuse(
      'InvalidMagic',
      `%set on line ${context.line} needs a JSON value after \`=\`.`,
      SET_EXPRESSION_USAGE,
      { line: context.line }
    );
  }
  const extent = jsonExtent(literal, MAX_VALUE_BYTES, MAX_VALUE_DEPTH);
  if (extent.kind === 'over') {
    refuse(
      'ValueTooLarge',
      extent.limit === 'bytes'
        ? `The value of %set on line ${context.line} would be more than ${megabytes(MAX_VALUE_BYTES)} of JSON, the most a variable holds.`
        : `The value of %set on line ${context.line} would nest deeper than ${MAX_VALUE_DEPTH} levels, the most a variable holds.`,
      'Keep a smaller value: a variable written into itself twice (`[${v}, ${v}]`) doubles with each %set.',
      { line: context.line }
    );
  }
  return { value: literal, origin: { kind: 'literal' } };
}

function readExpression(
  written: string,
  place: { line: number; column: number },
  context: SetContext
): { value: JsonValue; origin: VariableOrigin } {
  const prefix = ANSWER_PREFIX.exec(written);
  const answerName = prefix?.[1];
  const expression = prefix ? written.slice(prefix[0].length).trim() : written;
  const shown = written.length > 80 ? `${written.slice(0, 77)}...` : written;
  try {
    compile(expression);
  } catch (error) {
    refuse(
      'InvalidExpression',
      `\`${shown}\` on line ${place.line} is neither a JSON value nor a JMESPath expression (${reason(error)}).`,
      SET_EXPRESSION_USAGE,
      place
    );
  }
  const over = answerName
    ? `the answer named ${answerName}`
    : 'the last answer';
  if (context.afterRequest) {
    refuse(
      'NoAnswer',
      `\`${shown}\` on line ${place.line} reads ${over}, but a request above it in this cell has not answered yet.`,
      'Put the %set at the top of the next cell: a cell is checked whole before anything of it is sent, ' +
        'so a value read from an answer is ready for the cells after the one that got it.',
      place
    );
  }
  let answer;
  try {
    if (!context.answers) {
      throw new AnswerUnavailable(
        'No answer is held here.',
        'Run the cell in the notebook.'
      );
    }
    answer = context.answers.store.read(answerName);
  } catch (error) {
    if (!(error instanceof AnswerUnavailable)) {
      throw error;
    }
    const quoted = JSON.stringify(written);
    refuse(
      'NoAnswer',
      `\`${shown}\` on line ${place.line} reads ${over}: ${error.message}`,
      `${error.hint} To store the text itself, quote it: \`%set name = ${quoted}\`.`,
      place
    );
  }
  const outcome = context.answers.outcome(answer, expression);
  const stopped = (why: string): never =>
    refuse(
      'ValueTooLarge',
      `\`${shown}\` on line ${place.line} was stopped over ${over} (${answer.from}): ${why}.`,
      'Read only the parts you need from the answer, for example `hits.hits[*]._id` instead of the whole hits.',
      place
    );
  switch (outcome.kind) {
    case 'failed':
      return refuse(
        'InvalidExpression',
        `\`${shown}\` on line ${place.line} failed over ${over} (${answer.from}): ${reason(outcome.message)}.`,
        SET_EXPRESSION_USAGE,
        place
      );
    case 'too-large':
      return stopped(
        `its value would be more than ${megabytes(MAX_VALUE_BYTES)} of JSON, the most a variable holds`
      );
    case 'too-deep':
      return stopped(
        `its value would nest deeper than ${MAX_VALUE_DEPTH} levels, the most a variable holds`
      );
    case 'too-slow':
      return stopped(
        `it ran for ${EXPRESSION_SECONDS} s, the longest an expression may run`
      );
    case 'too-much-memory':
      return stopped(
        `it needed more than ${EXPRESSION_MEMORY_MB} MB of memory, the most an expression may use`
      );
  }
  const result = parseExactJson(outcome.text) as JsonValue;
  if (result === null) {
    refuse(
      'InvalidExpression',
      `\`${shown}\` on line ${place.line} matched nothing in ${over} (${answer.from}).`,
      'Check the expression against the answer: names are case-sensitive, and each array is walked with `[*]` ' +
        `(\`hits.hits[*]._id\`). To store the text itself, quote it: \`%set name = ${JSON.stringify(written)}\`.`,
      place
    );
  }
  return {
    value: result,
    origin: {
      kind: 'expression',
      expression,
      ...(answerName ? { answer: answerName } : {}),
      from: answer.from
    }
  };
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(
    /\.$/,
    ''
  );
}
