/**
 * The expression worker's program (expression-worker.ts starts it as the `searchbook` command
 * `expression-worker` on a worker thread). It keeps the last answer it was sent, so several
 * expressions over one answer copy it once, and measures each value before sending it back.
 * A field is read only where the object holds it: `constructor` over an answer without that
 * key matches nothing instead of Object's function.
 */
import {
  search,
  TreeInterpreter,
  type JSONValue
} from '@jmespath-community/jmespath';
import { parentPort, workerData } from 'node:worker_threads';
import { hasField } from '../../../contracts/own-fields';
import type {
  ExpressionOutcome,
  WorkerRequest,
  WorkerSetup
} from './expression-worker';
import { jsonExtent } from './json-extent';

type Visit = (node: { type: string; name?: string }, value: unknown) => unknown;

/** Field lookups of the library's interpreter, which reads `value[name]`, read own fields only. */
function ownFieldsOnly(): void {
  const interpreter = Object.getPrototypeOf(TreeInterpreter) as {
    visit: Visit;
  };
  const visit = interpreter.visit;
  interpreter.visit = function (this: unknown, node, value) {
    if (node.type === 'Field') {
      const name = node.name as string;
      return value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        hasField(value, name)
        ? ((value as Record<string, unknown>)[name] ?? null)
        : null;
    }
    return visit.call(this, node, value);
  };
}

function evaluate(
  answer: JSONValue,
  expression: string,
  setup: WorkerSetup
): ExpressionOutcome {
  try {
    const value = search(answer, expression);
    const measured = jsonExtent(value, setup.maxBytes, setup.maxDepth);
    return measured.kind === 'within'
      ? { kind: 'value', value }
      : { kind: measured.limit === 'bytes' ? 'too-large' : 'too-deep' };
  } catch (error) {
    return error instanceof RangeError && /call stack/i.test(error.message)
      ? { kind: 'too-deep' }
      : {
          kind: 'failed',
          message: error instanceof Error ? error.message : String(error)
        };
  }
}

export function runExpressionWorker(): void {
  const port = parentPort;
  if (!port) {
    throw new Error(
      'expression-worker runs only on the kernel’s worker thread'
    );
  }
  const setup = workerData as WorkerSetup;
  ownFieldsOnly();
  let answer: JSONValue = null;
  port.on('message', (request: WorkerRequest) => {
    if (request.kind === 'answer') {
      answer = JSON.parse(request.text) as JSONValue;
      return;
    }
    port.postMessage(evaluate(answer, request.expression, setup));
  });
}
