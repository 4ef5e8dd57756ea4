import { escapeControlCharacters } from '../render/control-characters';

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

  /** An engine's error, its name said once (`Connection failed: ...`, not `Connection failed: Connection failed: ...`). */
  static fromEngine(err: { ename: string; message: string }): CellFailure {
    const prefix = `${err.ename}: `;
    // The message may quote the engine, whose escape sequences the traceback would otherwise obey.
    const message = escapeControlCharacters(err.message);
    return new CellFailure(err.ename, message.startsWith(prefix) ? message.slice(prefix.length) : message);
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
