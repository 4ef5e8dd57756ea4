/**
 * typesense-js's suite (vitest, its test/ folder) from a checkout, its dependencies installed
 * there from npm; the browser project (jsdom streaming) and the tests behind
 * RUN_INTEGRATION_TESTS (an embedding model and an LLM) stay off, as without that variable.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { runFromCheckout, type Tests } from './checkout-suite';
import { cacheDir } from './paths';
import { runCommand, tail, withoutModelKeys } from './run-command';
import type { SuiteRun } from './suite-result';

const VitestReport = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      message: z.string().optional(),
      assertionResults: z.array(
        z.object({
          fullName: z.string(),
          status: z.string(),
          failureMessages: z.array(z.string()).optional()
        })
      )
    })
  )
});

/** Tests by outcome from vitest's JSON report. */
export function parseVitestJson(text: string, checkout: string): Tests {
  const report = VitestReport.parse(JSON.parse(text));
  const tests: Tests = { passed: [], failed: [], skipped: [], details: {} };
  for (const file of report.testResults) {
    const where = relative(checkout, file.name);
    // A file that failed with no failing test failed to load or in a hook (beforeAll), and
    // vitest then reports its tests as skipped: the file itself is the failure.
    if (
      file.status === 'failed' &&
      !file.assertionResults.some(a => a.status === 'failed')
    ) {
      tests.failed.push(where);
      tests.details[where] =
        file.message || 'failed outside its tests (loading or a hook)';
    }
    for (const a of file.assertionResults) {
      const name = `${where} > ${a.fullName}`;
      if (a.status === 'passed') {
        tests.passed.push(name);
      } else if (a.status === 'failed') {
        tests.failed.push(name);
        tests.details[name] = (a.failureMessages ?? []).join('\n');
      } else {
        tests.skipped.push(name);
      }
    }
  }
  return tests;
}

export function runJsSuite(
  checkout: string,
  typesense: string
): Promise<SuiteRun> {
  const dir = resolve(checkout);
  return runFromCheckout(
    'typesense-js (checkout)',
    dir,
    typesense,
    async () => {
      if (existsSync(join(dir, 'node_modules', 'vitest'))) {
        return;
      }
      const installed = await runCommand(
        'npm',
        [
          'install',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--loglevel=error'
        ],
        { cwd: dir, timeoutMs: 900_000 }
      );
      if (installed.code !== 0) {
        throw new Error(
          `npm install in ${dir} failed:\n${tail(installed.stderr)}`
        );
      }
    },
    async () => {
      const out = join(cacheDir('js'), 'vitest.json');
      rmSync(out, { force: true });
      const env = withoutModelKeys(process.env);
      delete env.RUN_INTEGRATION_TESTS;
      const ran = await runCommand(
        join(dir, 'node_modules', '.bin', 'vitest'),
        [
          'run',
          '--project',
          'default',
          '--project',
          'node',
          '--reporter=json',
          `--outputFile=${out}`
        ],
        { cwd: dir, env, timeoutMs: 900_000 }
      );
      if (!existsSync(out)) {
        throw new Error(
          `vitest wrote no report (exit ${ran.code}):\n${tail(ran.stdout + ran.stderr)}`
        );
      }
      return parseVitestJson(readFileSync(out, 'utf8'), dir);
    }
  );
}
