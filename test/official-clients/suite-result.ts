/** One official client suite's run against one sandbox version, as every runner reports it. */
import { expectedReason, type ExpectedReason } from './expected-failures';

export interface SuiteRun {
  /** e.g. `typesense-go v4.0.0-alpha2`. */
  suite: string;
  /** The Typesense version the sandbox answered as. */
  typesense: string;
  passed: string[];
  failed: string[];
  skipped: string[];
  /** What a failed test printed, by name, to read an unexpected failure without a re-run. */
  details: Record<string, string>;
  seconds: number;
  /** Set when the suite could not run at all (build error, missing tool, port taken). */
  error?: string;
}

export interface FailureSplit {
  expected: { name: string; reason: ExpectedReason }[];
  unexpected: string[];
}

export function splitFailures(run: SuiteRun): FailureSplit {
  const split: FailureSplit = { expected: [], unexpected: [] };
  for (const name of run.failed) {
    const reason = expectedReason(name);
    if (reason) {
      split.expected.push({ name, reason });
    } else {
      split.unexpected.push(name);
    }
  }
  return split;
}

/** A run that says nothing about the sandbox's fidelity is as bad as a failing one. */
export function runIsGreen(run: SuiteRun): boolean {
  return (
    run.error === undefined &&
    run.passed.length > 0 &&
    splitFailures(run).unexpected.length === 0
  );
}
