/**
 * What the Python and JavaScript suites share: neither registry package carries its tests (the
 * PyPI sdist of `typesense` and the npm package hold only the library), so they run from a
 * checkout the user names, against a sandbox on 127.0.0.1:8108 with the key `xyz`, the address
 * and key both suites hard-code.
 */
import { existsSync } from 'node:fs';
import { startSuiteSandbox } from './sandbox';
import type { SuiteRun } from './suite-result';

export const CHECKOUT_PORT = 8108;
export const CHECKOUT_KEY = 'xyz';

export type Tests = Pick<SuiteRun, 'passed' | 'failed' | 'skipped' | 'details'>;

export async function runFromCheckout(
  suite: string,
  checkout: string,
  typesense: string,
  prepare: () => Promise<void>,
  run: () => Promise<Tests>
): Promise<SuiteRun> {
  const began = Date.now();
  const failedToRun = (error: string): SuiteRun => ({
    suite,
    typesense,
    passed: [],
    failed: [],
    skipped: [],
    details: {},
    seconds: (Date.now() - began) / 1000,
    error
  });
  if (!existsSync(checkout)) {
    return failedToRun(`no checkout at ${checkout}`);
  }
  try {
    await prepare();
    const sandbox = await startSuiteSandbox(
      typesense,
      CHECKOUT_KEY,
      CHECKOUT_PORT
    );
    try {
      const tests = await run();
      const total =
        tests.passed.length + tests.failed.length + tests.skipped.length;
      return {
        suite,
        typesense,
        ...tests,
        seconds: (Date.now() - began) / 1000,
        ...(total === 0 ? { error: 'the suite ran no test' } : {})
      };
    } finally {
      await sandbox.close();
    }
  } catch (e) {
    return failedToRun(e instanceof Error ? e.message : String(e));
  }
}
