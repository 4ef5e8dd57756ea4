/**
 * Jupyter's is_complete: a console frontend asks it whether Enter should run the cell or open
 * a new line. A body with open brackets or an open `"""` is not finished yet.
 */
import { splitCell } from './cell-structure';
import { parseCell } from './parse';
import { VariableScope } from './variables';
import type { ConsoleWording } from './wording';

export interface IsCompleteResult {
  status: 'complete' | 'incomplete' | 'invalid';
  /** For `incomplete`: the indent of the next line, two spaces per open level. */
  indent?: string;
}

/**
 * Without `scope`, references to variables and environment variables are not judged
 * (the kernel's scope decides them when the cell runs).
 */
export function isComplete(
  text: string,
  wording: ConsoleWording,
  scope?: VariableScope
): IsCompleteResult {
  const segments = splitCell(text);
  const last = segments[segments.length - 1];
  const open =
    last?.kind === 'request'
      ? last.body
      : last?.kind === 'magic'
        ? (last.value ?? last.body)?.scan
        : undefined;
  if (open && (open.openTriple || open.depth > 0)) {
    return {
      status: 'incomplete',
      indent: open.openTriple ? '' : '  '.repeat(open.depth)
    };
  }
  const result = parseCell(
    text,
    scope ?? new VariableScope(() => undefined),
    wording
  );
  if (result.ok) {
    return { status: 'complete' };
  }
  const unjudged =
    scope === undefined &&
    (result.refusal.code === 'SEARCHBOOK_ERR_UNKNOWN_VARIABLE' ||
      result.refusal.code === 'SEARCHBOOK_ERR_UNSET_ENVIRONMENT_VARIABLE' ||
      result.refusal.code === 'SEARCHBOOK_ERR_NO_ANSWER');
  return { status: unjudged ? 'complete' : 'invalid' };
}
