/**
 * The `%set` expressions of a cell, evaluated before the cell is checked: a cell is checked
 * synchronously, and an expression runs on a worker (expression-worker.ts), so checking stops
 * at the first expression not evaluated yet, which is evaluated, and the check starts again.
 */
import { SearchbookError } from '../../../contracts/errors';
import type { AnswerStore, HeldAnswer } from './answers';
import type { ExpressionOutcome } from './expression-worker';

/** Thrown while a cell is checked: `expression` over `answer` must be evaluated first. */
export class ExpressionPending extends SearchbookError {
  override readonly name = 'ExpressionPending';
  override readonly code = 'SEARCHBOOK_ERR_EXPRESSION_PENDING';

  constructor(
    readonly answer: HeldAnswer,
    readonly expression: string
  ) {
    super('An expression is evaluated before the cell is checked.');
  }
}

/** The answers an expression may read, and what each expression over them came to. */
export class AnswerReader {
  private readonly outcomes = new WeakMap<
    HeldAnswer,
    Map<string, ExpressionOutcome>
  >();

  constructor(readonly store: AnswerStore) {}

  /** What `expression` over `answer` came to; throws ExpressionPending until it is known. */
  outcome(answer: HeldAnswer, expression: string): ExpressionOutcome {
    const known = this.outcomes.get(answer)?.get(expression);
    if (!known) {
      throw new ExpressionPending(answer, expression);
    }
    return known;
  }

  learn(pending: ExpressionPending, outcome: ExpressionOutcome): void {
    const known = this.outcomes.get(pending.answer) ?? new Map();
    known.set(pending.expression, outcome);
    this.outcomes.set(pending.answer, known);
  }
}
