/** What a person reads after the official suites ran: counts, and every failing test by name. */
import { REASON_WORDS, type ExpectedReason } from './expected-failures';
import { runIsGreen, splitFailures, type SuiteRun } from './suite-result';

function indent(text: string, by: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map(line => by + line)
    .join('\n');
}

export function formatRun(run: SuiteRun): string {
  const head = `${run.suite} against the Typesense ${run.typesense} sandbox`;
  const time = `${run.seconds.toFixed(1)} s`;
  if (run.error !== undefined) {
    return `${head}: DID NOT RUN (${time})\n${indent(run.error, '    ')}`;
  }
  const { expected, unexpected } = splitFailures(run);
  const lines = [
    `${head}: ${run.passed.length} passed, ${run.failed.length} failed ` +
      `(${expected.length} expected, ${unexpected.length} unexpected), ` +
      `${run.skipped.length} skipped (${time}) ${runIsGreen(run) ? 'OK' : 'NOT OK'}`
  ];
  const byReason = new Map<ExpectedReason, string[]>();
  for (const { name, reason } of expected) {
    byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  for (const [reason, names] of byReason) {
    lines.push(`  expected, ${REASON_WORDS[reason]}: ${names.join(', ')}`);
  }
  for (const name of unexpected) {
    lines.push(`  UNEXPECTED: ${name}`);
    const said = run.details[name] ?? '';
    if (said.trim() !== '') {
      lines.push(indent(said.split('\n').slice(0, 30).join('\n'), '      '));
    }
  }
  if (run.skipped.length > 0) {
    lines.push(`  skipped: ${run.skipped.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The closing lines: unexpected failures and suites that did not run count as failed; the
 * expected failures are said apart and do not.
 */
export function closingLines(runs: readonly SuiteRun[]): string {
  let passed = 0;
  let failed = 0;
  let expected = 0;
  let skipped = 0;
  for (const run of runs) {
    const split = splitFailures(run);
    passed += run.passed.length;
    failed += split.unexpected.length + (run.error !== undefined ? 1 : 0);
    expected += split.expected.length;
    skipped += run.skipped.length;
  }
  return [
    `${expected} expected failures (analytics, stemming, LLM-backed models) are not counted as failed`,
    `typesense-clients: ${passed} passed, ${failed} failed, ${skipped} skipped`
  ].join('\n');
}
