/** Why a cell stopped, as the user sees it in the error output. */
export class CellFailure extends Error {
  constructor(
    readonly ename: string,
    readonly evalue: string,
    /** Advice: what to write instead. */
    readonly hint?: string,
  ) {
    super(evalue);
  }

  /** A short readable traceback: the user's problem, never the kernel's stack. */
  traceback(): string[] {
    const lines = [`\u001b[0;31m${this.ename}\u001b[0m: ${this.evalue}`];
    if (this.hint) lines.push('', ...this.hint.split('\n'));
    return lines;
  }
}

export const INTERRUPTED = (): CellFailure =>
  new CellFailure('Interrupted', 'The cell was interrupted: the request in flight was aborted and nothing more of this cell runs.');
