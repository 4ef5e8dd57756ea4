import differences from './sandbox-differences.json';

/**
 * Where the sandbox knowingly answers unlike a real Elasticsearch node: listed in one place,
 * sandbox-differences.json (the Python suites read it too), each entry saying what differs.
 * Suites that run against both pick their expectation through `expectFor`, so a difference is
 * never silently accepted. When the sandbox is fixed, delete the entry and the sandbox-side
 * expectations with it. Where real Elasticsearch 9.x or OpenSearch answer unlike 8.19 (which
 * the sandbox plays), real-node-differences.ts says so.
 */
export const SANDBOX_DIFFERENCES: Readonly<Record<string, string>> =
  differences;

export type SandboxDifference = keyof typeof differences;

/** The expectation for this engine, naming the known difference that makes them differ. */
export function expectFor<T>(
  target: { engine: 'sandbox' | 'real' },
  difference: SandboxDifference,
  answers: { sandbox: T; elasticsearch: T }
): T {
  if (!Object.hasOwn(SANDBOX_DIFFERENCES, difference)) {
    throw new Error(`unknown sandbox difference ${difference}`);
  }
  return target.engine === 'sandbox' ? answers.sandbox : answers.elasticsearch;
}
