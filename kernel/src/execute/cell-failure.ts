import { SearchbookError } from '../../../contracts/errors';
import { escapeControlCharacters } from '../render/control-characters';

/**
 * Why a cell stopped, as the user sees it in the error output (`ename`, `evalue`, the hint).
 * Its `code` is the code of what failed (an engine error's, a refusal's), so the runner tells
 * an interruption from other failures by code, whatever the output's words.
 */
export class CellFailure extends SearchbookError {
  override readonly name = 'CellFailure';

  constructor(
    readonly ename: string,
    readonly evalue: string,
    /** Advice: what to write instead. */
    readonly hint?: string,
    override readonly code: string = 'SEARCHBOOK_ERR_CELL_FAILED'
  ) {
    super(evalue);
  }

  /** An engine's error, its name said once (`Connection failed: ...`, not `Connection failed: Connection failed: ...`). */
  static fromEngine(err: {
    ename: string;
    message: string;
    code: string;
  }): CellFailure {
    const prefix = `${err.ename}: `;
    // The message may quote the engine, whose escape sequences the traceback would otherwise obey.
    const message = escapeControlCharacters(err.message);
    return new CellFailure(
      err.ename,
      message.startsWith(prefix) ? message.slice(prefix.length) : message,
      undefined,
      err.code
    );
  }

  /** A short readable traceback: the user's problem, never the kernel's stack. */
  traceback(): string[] {
    const lines = [`\u001b[0;31m${this.ename}\u001b[0m: ${this.evalue}`];
    if (this.hint) {
      lines.push('', ...this.hint.split('\n'));
    }
    return lines;
  }
}

export const INTERRUPTED_CODE = 'SEARCHBOOK_ERR_INTERRUPTED';

export const INTERRUPTED = (): CellFailure =>
  new CellFailure(
    'Interrupted',
    'The cell was interrupted: the request in flight was aborted and nothing more of this cell runs.',
    undefined,
    INTERRUPTED_CODE
  );
