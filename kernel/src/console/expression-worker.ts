/**
 * A `%set` JMESPath expression evaluated on a worker thread, so the kernel stays free while it
 * runs: an interrupt ends it at once, and so do its time and memory limits, and a value that
 * would write out larger or deeper than a variable may hold is refused before it leaves the
 * worker. (An expression runs synchronously to its end; on the kernel's own thread a
 * self-multiplying one held the kernel until it was killed.)
 */
import type * as JmesPath from '@jmespath-community/jmespath';
import type * as WorkerThreads from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { JsonValue } from '../../../contracts/json';
import { MAX_ANSWER_BYTES } from './answers';
import { jsonExtent } from './json-extent';

/** The most a `%set` value may write out as JSON: what an answer kept for `%set` may be. */
export const MAX_VALUE_BYTES = MAX_ANSWER_BYTES;
/** The deepest a `%set` value may nest: as deep as the kernel reads an answer. */
export const MAX_VALUE_DEPTH = 1_000;
/** How long an expression may run. */
export const EXPRESSION_SECONDS = 5;
/** The heap an expression may use, the answer it reads included. */
export const EXPRESSION_MEMORY_MB = 384;

const OutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('value'), value: z.custom<JsonValue>() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
  z.object({ kind: z.literal('too-large') }),
  z.object({ kind: z.literal('too-deep') })
]);

/** What evaluating an expression came to (an interrupt rejects instead, with the signal's reason). */
export type ExpressionOutcome =
  | z.infer<typeof OutcomeSchema>
  | { kind: 'too-slow' }
  | { kind: 'too-much-memory' };

interface WorkerInput {
  library: string;
  answer: unknown;
  expression: string;
  maxBytes: number;
  maxDepth: number;
}

/**
 * The worker's whole program, run from its source: it may use only `require`, its parameter
 * and globals. A field is read only where the object holds it, so `constructor` over an answer
 * without that key matches nothing instead of Object's function.
 */
function workerProgram(extent: typeof jsonExtent): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- the worker runs this function's source, where imports are not resolved */
  const { parentPort, workerData } =
    require('node:worker_threads') as typeof WorkerThreads;
  const input = workerData as WorkerInput;
  const jmespath = require(input.library) as typeof JmesPath;
  /* eslint-enable @typescript-eslint/no-require-imports */
  type Visit = (
    node: { type: string; name?: string },
    value: unknown
  ) => unknown;
  const interpreter = Object.getPrototypeOf(jmespath.TreeInterpreter) as {
    visit: Visit;
  };
  const visit = interpreter.visit;
  const own = Object.prototype.hasOwnProperty;
  interpreter.visit = function (this: unknown, node, value) {
    if (node.type === 'Field') {
      const name = node.name as string;
      return value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        own.call(value, name)
        ? ((value as Record<string, unknown>)[name] ?? null)
        : null;
    }
    return visit.call(this, node, value);
  };
  let reply: unknown;
  try {
    const value = jmespath.search(
      input.answer as Parameters<typeof jmespath.search>[0],
      input.expression
    );
    const measured = extent(value, input.maxBytes, input.maxDepth);
    reply =
      measured.kind === 'within'
        ? { kind: 'value', value }
        : { kind: measured.limit === 'bytes' ? 'too-large' : 'too-deep' };
  } catch (error) {
    reply =
      error instanceof RangeError && /call stack/i.test(error.message)
        ? { kind: 'too-deep' }
        : {
            kind: 'failed',
            message: error instanceof Error ? error.message : String(error)
          };
  }
  parentPort?.postMessage(reply);
}

const PROGRAM = `(${workerProgram.toString()})(${jsonExtent.toString()});`;
const LIBRARY = require.resolve('@jmespath-community/jmespath');

/**
 * `expression` over `answer`, on a worker of its own. Rejects with `signal`'s reason when it is
 * aborted (the worker is ended then, however far it got).
 */
export function evaluateExpression(
  answer: JsonValue,
  expression: string,
  signal?: AbortSignal
): Promise<ExpressionOutcome> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const input: WorkerInput = {
      library: LIBRARY,
      answer,
      expression,
      maxBytes: MAX_VALUE_BYTES,
      maxDepth: MAX_VALUE_DEPTH
    };
    const worker = new Worker(PROGRAM, {
      eval: true,
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: EXPRESSION_MEMORY_MB },
      stdout: true,
      stderr: true
    });
    const finish = (outcome: ExpressionOutcome | { abort: unknown }) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      worker.removeAllListeners();
      worker.on('error', () => undefined);
      void worker.terminate();
      if ('abort' in outcome) {
        reject(outcome.abort);
      } else {
        resolve(outcome);
      }
    };
    const aborted = () => finish({ abort: signal?.reason });
    const timer = setTimeout(
      () => finish({ kind: 'too-slow' }),
      EXPRESSION_SECONDS * 1000
    );
    signal?.addEventListener('abort', aborted, { once: true });
    worker.once('message', (message: unknown) => {
      const parsed = OutcomeSchema.safeParse(message);
      finish(
        parsed.success
          ? parsed.data
          : {
              kind: 'failed',
              message: 'the evaluation answered nothing readable'
            }
      );
    });
    worker.once('error', (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'too-much-memory' }
          : { kind: 'failed', message: error.message }
      )
    );
    worker.once('exit', () =>
      finish({ kind: 'failed', message: 'the evaluation stopped unfinished' })
    );
  });
}
