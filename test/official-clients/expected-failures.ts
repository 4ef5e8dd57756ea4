/**
 * Which failures of Typesense's official client suites the sandbox expects: the features it
 * does not imitate and answers 501 for (analytics rules and events, stemming dictionaries) and
 * those that need a large language model or an embedding model behind the server
 * (conversation models, natural-language search models, streamed conversational answers).
 * Every other failure is a fidelity defect of the sandbox.
 */
export type ExpectedReason = 'analytics' | 'stemming' | 'llm';

const REASONS: readonly [ExpectedReason, RegExp][] = [
  ['analytics', /analytics/i],
  ['stemming', /stemming/i],
  ['llm', /conversation|nl_?search|open_?ai|streaming/i]
];

/** The reason a failure of the test named `testName` (file path included) is expected, if any. */
export function expectedReason(testName: string): ExpectedReason | undefined {
  return REASONS.find(([, pattern]) => pattern.test(testName))?.[0];
}

export const REASON_WORDS: Record<ExpectedReason, string> = {
  analytics: 'analytics (not imitated)',
  stemming: 'stemming dictionaries (not imitated)',
  llm: 'conversation / natural-language models (need an LLM)'
};
