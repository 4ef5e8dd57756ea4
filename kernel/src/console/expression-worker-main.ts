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
import {
  exactJson,
  isExactNumber,
  parseExactJson
} from '../../../contracts/exact-json';
import { hasField } from '../../../contracts/own-fields';
import type {
  ExpressionOutcome,
  WorkerRequest,
  WorkerSetup
} from './expression-worker';
import { jsonExtent } from './json-extent';

interface Node {
  type: string;
  name?: string;
  left?: Node;
  right?: Node;
}
type Visit = (node: Node, value: unknown) => unknown;

/** A long number as the nearest double, for comparing; any other value as it is. */
const comparable = (value: unknown): unknown =>
  isExactNumber(value) ? value.valueOf() : value;

/**
 * The library's interpreter, taught two things. A field is read only where the object holds
 * it (it reads `value[name]`). And a number too long for a double (an ExactNumber, which keeps
 * its digits so `%set` stores them all) is a number: its type is `number` for functions and it
 * compares by its value, not as an object.
 */
function teachInterpreter(): void {
  const interpreter = Object.getPrototypeOf(TreeInterpreter) as {
    visit: Visit;
  };
  const ownRuntime = (
    TreeInterpreter as unknown as {
      runtime: {
        _functionTable: Record<string, { _func: (args: unknown[]) => unknown }>;
      };
    }
  ).runtime;
  const runtime = Object.getPrototypeOf(ownRuntime) as {
    getTypeName: (value: unknown) => number | undefined;
  };
  const typeName = runtime.getTypeName;
  runtime.getTypeName = function (this: unknown, value) {
    return typeName.call(this, comparable(value));
  };
  // to_string writes JSON: with every digit of a long number, as the engine sent it.
  const toString = ownRuntime._functionTable.to_string;
  if (toString) {
    toString._func = ([value]) =>
      typeof value === 'string' ? value : exactJson(value);
  }
  const visit = interpreter.visit;
  interpreter.visit = function (this: unknown, node, value) {
    if (node.type === 'Comparator' && node.left && node.right) {
      const literal = (side: Node) => ({
        type: 'Literal',
        value: comparable(interpreter.visit.call(this, side, value))
      });
      return visit.call(
        this,
        { ...node, left: literal(node.left), right: literal(node.right) },
        value
      );
    }
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
      ? { kind: 'value', text: exactJson(value) ?? 'null' }
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
  teachInterpreter();
  let answer: JSONValue = null;
  port.on('message', (request: WorkerRequest) => {
    if (request.kind === 'answer') {
      answer = parseExactJson(request.text) as JSONValue;
      return;
    }
    port.postMessage(evaluate(answer, request.expression, setup));
  });
}
