/**
 * Where the sandbox knowingly answers unlike a real Elasticsearch node, in one place. Each
 * entry says what differs; suites that run against both pick their expectation through
 * `expectFor`, so a difference is never silently accepted. When the sandbox is fixed, delete
 * the entry and the sandbox-side expectations with it.
 */
export const SANDBOX_DIFFERENCES = {
  'mapping-property-order':
    "GET /<index>/_mapping lists an object's properties in the order they were added; Elasticsearch lists them sorted by name, so grid columns taken from a mapping come in name order on a real node.",
} as const;

export type SandboxDifference = keyof typeof SANDBOX_DIFFERENCES;

/** The expectation for this engine, naming the known difference that makes them differ. */
export function expectFor<T>(target: { engine: 'sandbox' | 'real' }, difference: SandboxDifference, answers: { sandbox: T; elasticsearch: T }): T {
  if (!Object.hasOwn(SANDBOX_DIFFERENCES, difference)) throw new Error(`unknown sandbox difference ${difference}`);
  return target.engine === 'sandbox' ? answers.sandbox : answers.elasticsearch;
}
