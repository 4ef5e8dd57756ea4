/**
 * filter_by to a predicate. `&&` and `||` share one precedence and associate to the left
 * (the engine's shunting-yard treats them alike), so `a || b && c` is `(a || b) && c`.
 */
import { ApiError } from '../errors';
import { compileClause, type ClauseContext, type Predicate } from './clause';
import { tokenizeFilter } from './tokens';

export type { Predicate, ClauseContext } from './clause';

/** null when the expression is blank: no filter at all. */
export function parseFilter(
  expr: string,
  ctx: ClauseContext
): Predicate | null {
  if (expr.trim() === '') {
    return null;
  }
  const tokens = tokenizeFilter(expr);

  // Shunting-yard into postfix, then fold into closures.
  const output: (
    { kind: 'clause'; text: string } | { kind: 'and' } | { kind: 'or' }
  )[] = [];
  const ops: ('and' | 'or' | 'open')[] = [];
  for (const tok of tokens) {
    if (tok.kind === 'and' || tok.kind === 'or') {
      while (ops.length > 0 && ops[ops.length - 1] !== 'open') {
        output.push({ kind: ops.pop() as 'and' | 'or' });
      }
      ops.push(tok.kind);
    } else if (tok.kind === 'open') {
      ops.push('open');
    } else if (tok.kind === 'close') {
      while (ops.length > 0 && ops[ops.length - 1] !== 'open') {
        output.push({ kind: ops.pop() as 'and' | 'or' });
      }
      if (ops.pop() !== 'open') {
        throw new ApiError(
          400,
          'Could not parse the filter query: unbalanced parentheses.'
        );
      }
    } else {
      output.push(tok);
    }
  }
  while (ops.length > 0) {
    const op = ops.pop();
    if (op === 'open') {
      throw new ApiError(
        400,
        'Could not parse the filter query: unbalanced parentheses.'
      );
    }
    output.push({ kind: op as 'and' | 'or' });
  }

  const stack: Predicate[] = [];
  for (const item of output) {
    if (item.kind === 'clause') {
      stack.push(compileClause(item.text, ctx));
      continue;
    }
    const right = stack.pop();
    const left = stack.pop();
    if (!left || !right) {
      throw new ApiError(400, 'Could not parse the filter query.');
    }
    stack.push(
      item.kind === 'and' ? d => left(d) && right(d) : d => left(d) || right(d)
    );
  }
  if (stack.length === 0) {
    throw new ApiError(400, 'Filter query cannot be empty.');
  }
  if (stack.length > 1) {
    throw new ApiError(400, 'Could not parse the filter query.');
  }
  return stack[0] as Predicate;
}
