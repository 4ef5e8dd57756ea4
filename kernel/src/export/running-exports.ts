/**
 * The exports running in this kernel, by the absolute path of the file each will write: a second
 * export to a file that one is writing is refused at its start (`%export` and the side panel
 * alike), instead of two exports racing to rename their files over the same name.
 */
import { rmSync } from 'node:fs';

interface RunningExport {
  /** Says which export it is, e.g. `the %export of products in a cell`. */
  by: string;
  started: number;
  /** The temporary file it writes, once created. */
  partial?: string;
}

const running = new Map<string, RunningExport>();

export interface FileClaim {
  /** Records the temporary file, so that a kernel shutting down can remove it. */
  writing(partial: string): void;
  release(): void;
}

/**
 * Claims `file` for an export, or, when another export holds it, says which one (e.g. `the
 * %export of products in a cell, running for 3.2 s`).
 */
export function claimFile(file: string, by: string): FileClaim | string {
  const holder = running.get(file);
  if (holder) {
    return `${holder.by}, running for ${((performance.now() - holder.started) / 1000).toFixed(1)} s`;
  }
  const entry: RunningExport = { by, started: performance.now() };
  running.set(file, entry);
  return {
    writing: partial => {
      entry.partial = partial;
    },
    release: () => {
      if (running.get(file) === entry) {
        running.delete(file);
      }
    }
  };
}

/**
 * The kernel is shutting down: the temporary files of the exports still running are removed,
 * since no one is left to be told their names. Synchronous, as the process exits right after.
 */
export function removeRunningPartials(): void {
  for (const entry of running.values()) {
    if (entry.partial) {
      rmSync(entry.partial, { force: true });
    }
  }
  running.clear();
}
