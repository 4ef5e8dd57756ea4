/**
 * parseCell for a cell whose `%set` lines may read answers: each expression is evaluated on a
 * worker (interruptible through `signal`), then the cell is checked again with its value.
 */
import type { ParseResult } from './cell';
import type { AnswerStore } from './answers';
import { AnswerReader, ExpressionPending } from './expression-results';
import { evaluateExpression } from './expression-worker';
import { parseCell } from './parse';
import type { VariableScope } from './variables';
import type { ConsoleWording } from './wording';

export async function parseCellEvaluating(
  text: string,
  scope: VariableScope,
  wording: ConsoleWording,
  answers: AnswerStore | undefined,
  signal?: AbortSignal
): Promise<ParseResult> {
  const reader = answers ? new AnswerReader(answers) : undefined;
  for (;;) {
    try {
      return parseCell(text, scope, wording, reader);
    } catch (error) {
      if (!(error instanceof ExpressionPending) || !reader) {
        throw error;
      }
      reader.learn(
        error,
        await evaluateExpression(error.answer, error.expression, signal)
      );
    }
  }
}
