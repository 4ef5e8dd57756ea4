/**
 * The last line of defence: an error no request's boundary caught (a promise nobody awaited, a
 * throw in a timer or socket callback) is logged and the kernel goes on serving. Node's default
 * ends the process, which would drop the user's connections and variables and leave Jupyter
 * showing a dead kernel. Serving on is safe here because no such error can leave a request
 * half-answered: every request runs inside its own boundary, which answers it whatever fails.
 */
export function keepServingAfterStrayErrors(log: (line: string) => void): void {
  process.on('unhandledRejection', reason =>
    log(`an error no request handled (still serving): ${describe(reason)}`)
  );
  process.on('uncaughtException', err =>
    log(`an uncaught exception (still serving): ${describe(err)}`)
  );
}

function describe(reason: unknown): string {
  return reason instanceof Error
    ? (reason.stack ?? reason.message)
    : String(reason);
}
