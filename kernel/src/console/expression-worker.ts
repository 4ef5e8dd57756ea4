/**
 * A `%set` JMESPath expression evaluated on a worker thread, so the kernel stays free while it
 * runs: an interrupt ends it at once, and so do its time and memory limits, and a value that
 * would write out larger or deeper than a variable may hold is refused before it leaves the
 * worker. (An expression runs synchronously to its end; on the kernel's own thread a
 * self-multiplying one held the kernel until it was killed.)
 */
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { exactJson } from '../../../contracts/exact-json';
import type { JsonValue } from '../../../contracts/json';
import { MAX_ANSWER_BYTES } from './answers';

/** The most a `%set` value may write out as JSON: what an answer kept for `%set` may be. */
export const MAX_VALUE_BYTES = MAX_ANSWER_BYTES;
/** The deepest a `%set` value may nest: as deep as the kernel reads an answer. */
export const MAX_VALUE_DEPTH = 1_000;
/** How long an expression may run. */
export const EXPRESSION_SECONDS = 5;
/** The heap an expression may use, the answer it reads included. */
export const EXPRESSION_MEMORY_MB = 384;

export const OutcomeSchema = z.discriminatedUnion('kind', [
  // As exact JSON text: a structured clone would turn a long number (an ExactNumber) into an object.
  z.object({ kind: z.literal('value'), text: z.string() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
  z.object({ kind: z.literal('too-large') }),
  z.object({ kind: z.literal('too-deep') })
]);

/** What evaluating an expression came to (an interrupt rejects instead, with the signal's reason). */
export type ExpressionOutcome =
  | z.infer<typeof OutcomeSchema>
  | { kind: 'too-slow' }
  | { kind: 'too-much-memory' };

/** Read once by the worker: the bounds of a value. */
export interface WorkerSetup {
  maxBytes: number;
  maxDepth: number;
}

/** What the worker is sent: an answer to keep (as JSON text), or an expression over the one kept. */
export type WorkerRequest =
  { kind: 'answer'; text: string } | { kind: 'evaluate'; expression: string };

/** The command of the searchbook script that runs a worker (expression-worker-main.ts). */
export const WORKER_COMMAND = 'expression-worker';

const SETUP: WorkerSetup = {
  maxBytes: MAX_VALUE_BYTES,
  maxDepth: MAX_VALUE_DEPTH
};
/**
 * The script the worker runs: the searchbook command the kernel was started with (a checkout's
 * bin/searchbook.js, or the wheel's bundle), with WORKER_COMMAND. Set when the kernel starts.
 */
let script: string | undefined;

/** Expressions run on workers of `searchbookScript`, the script of the `searchbook` command. */
export function runExpressionsFrom(searchbookScript: string): void {
  script = searchbookScript;
}

/** A worker left idle this long is ended, and the answer it kept let go. */
const IDLE_MS = 30_000;

/**
 * The one worker expressions run on, started on the first and kept while expressions follow;
 * ended (and started afresh by the next) when one is interrupted or passes its limits.
 */
class ExpressionThread {
  private worker: Worker | undefined;
  /** The answer the worker keeps. */
  private kept: object | undefined;
  private idle: NodeJS.Timeout | undefined;
  /** Expressions run one at a time, in the order asked. */
  private queue: Promise<unknown> = Promise.resolve();

  evaluate(
    answer: { value: JsonValue },
    expression: string,
    signal?: AbortSignal
  ): Promise<ExpressionOutcome> {
    const run = this.queue.then(() => this.run(answer, expression, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private run(
    answer: { value: JsonValue },
    expression: string,
    signal: AbortSignal | undefined
  ): Promise<ExpressionOutcome> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      clearTimeout(this.idle);
      if (script === undefined) {
        resolve({
          kind: 'failed',
          message: 'expressions are evaluated only in a running kernel'
        });
        return;
      }
      const worker = this.started(script);
      const finish = (
        outcome: ExpressionOutcome | { abort: unknown },
        keep: boolean
      ) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', exited);
        if (keep) {
          this.idle = setTimeout(() => this.end(), IDLE_MS).unref();
        } else {
          this.end();
        }
        if ('abort' in outcome) {
          reject(outcome.abort);
        } else {
          resolve(outcome);
        }
      };
      const aborted = () => finish({ abort: signal?.reason }, false);
      const answered = (message: unknown) => {
        const parsed = OutcomeSchema.safeParse(message);
        finish(
          parsed.success
            ? parsed.data
            : {
                kind: 'failed',
                message: 'the evaluation answered nothing readable'
              },
          true
        );
      };
      const failed = (error: Error & { code?: string }) =>
        finish(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { kind: 'too-much-memory' }
            : { kind: 'failed', message: error.message },
          false
        );
      const exited = () =>
        finish(
          { kind: 'failed', message: 'the evaluation stopped unfinished' },
          false
        );
      const timer = setTimeout(
        () => finish({ kind: 'too-slow' }, false),
        EXPRESSION_SECONDS * 1000
      );
      signal?.addEventListener('abort', aborted, { once: true });
      worker.on('message', answered);
      worker.once('error', failed);
      worker.once('exit', exited);
      if (this.kept !== answer) {
        // As JSON text: copied into the worker in a fraction of the time a structured clone of the
        // value takes; exactJson, so a long number reaches the worker with every digit.
        const text = exactJson(answer.value);
        worker.postMessage({ kind: 'answer', text } satisfies WorkerRequest);
        this.kept = answer;
      }
      worker.postMessage({
        kind: 'evaluate',
        expression
      } satisfies WorkerRequest);
    });
  }

  private started(from: string): Worker {
    if (!this.worker) {
      this.worker = new Worker(from, {
        argv: [WORKER_COMMAND],
        workerData: SETUP,
        resourceLimits: { maxOldGenerationSizeMb: EXPRESSION_MEMORY_MB },
        stdout: true,
        stderr: true
      });
      // An idle worker never keeps the kernel's process alive.
      this.worker.unref();
    }
    return this.worker;
  }

  private end(): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.kept = undefined;
    if (worker) {
      worker.removeAllListeners();
      worker.on('error', () => undefined);
      void worker.terminate();
    }
  }
}

const thread = new ExpressionThread();

/**
 * `expression` over `answer` (a held answer: the same object is copied to the worker once), on
 * the expression worker. Rejects with `signal`'s reason when it is aborted (the worker is
 * ended then, however far it got).
 */
export function evaluateExpression(
  answer: { value: JsonValue },
  expression: string,
  signal?: AbortSignal
): Promise<ExpressionOutcome> {
  return thread.evaluate(answer, expression, signal);
}
