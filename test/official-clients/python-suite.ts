/**
 * typesense-python's suite (pytest, its tests/ folder) from a checkout, in a venv of its own
 * filled from PyPI; the suite imports the client from the checkout's src/ (its pytest.ini says so).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { runFromCheckout, type Tests } from './checkout-suite';
import { cacheDir } from './paths';
import { runCommand, tail, withoutModelKeys } from './run-command';
import type { SuiteRun } from './suite-result';

/** The suite's runtime and test dependencies (its pyproject's dev group less the linters). */
const PACKAGES = [
  'requests',
  'typing-extensions',
  'pytest',
  'pytest-mock',
  'requests-mock',
  'python-dotenv',
  'faker',
  'pytest-reportlog'
];

async function ensureVenv(): Promise<string> {
  const dir = cacheDir('python');
  const python = join(dir, 'bin', 'python');
  const ready = join(dir, '.installed');
  if (existsSync(ready) && readFileSync(ready, 'utf8') === PACKAGES.join(' ')) {
    return python;
  }
  const made = await runCommand('python3', ['-m', 'venv', '--clear', dir], {
    timeoutMs: 120_000
  });
  if (made.code !== 0) {
    throw new Error(`python3 -m venv failed:\n${tail(made.stderr)}`);
  }
  const installed = await runCommand(
    python,
    ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', ...PACKAGES],
    { timeoutMs: 600_000 }
  );
  if (installed.code !== 0) {
    throw new Error(`pip install failed:\n${tail(installed.stderr)}`);
  }
  writeFileSync(ready, PACKAGES.join(' '));
  return python;
}

const Report = z.object({
  $report_type: z.string(),
  nodeid: z.string().optional(),
  when: z.string().optional(),
  outcome: z.string().optional(),
  longrepr: z.unknown().optional()
});

/** Tests by outcome from pytest-reportlog's lines: a failed set-up or tear-down fails the test. */
export function parseReportLog(text: string): Tests {
  const outcome = new Map<string, string>();
  const details: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const parsed = Report.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.$report_type !== 'TestReport') {
      continue;
    }
    const { nodeid, when, outcome: result, longrepr } = parsed.data;
    if (nodeid === undefined || result === undefined) {
      continue;
    }
    const before = outcome.get(nodeid);
    if (result === 'failed') {
      outcome.set(nodeid, 'failed');
      const said = z
        .object({ reprcrash: z.object({ message: z.string() }) })
        .safeParse(longrepr);
      details[nodeid] =
        `${when ?? ''}: ${said.success ? said.data.reprcrash.message : JSON.stringify(longrepr).slice(0, 2000)}`;
    } else if (
      before !== 'failed' &&
      (result === 'skipped' || when === 'call')
    ) {
      outcome.set(nodeid, result);
    }
  }
  const named = (o: string): string[] =>
    [...outcome].filter(([, v]) => v === o).map(([k]) => k);
  return {
    passed: named('passed'),
    failed: named('failed'),
    skipped: named('skipped'),
    details
  };
}

export function runPythonSuite(
  checkout: string,
  typesense: string
): Promise<SuiteRun> {
  const dir = resolve(checkout);
  let python = '';
  return runFromCheckout(
    'typesense-python (checkout)',
    dir,
    typesense,
    async () => {
      python = await ensureVenv();
    },
    async () => {
      const log = join(cacheDir('python'), 'report-log.jsonl');
      rmSync(log, { force: true });
      const ran = await runCommand(
        python,
        [
          '-m',
          'pytest',
          'tests',
          '-q',
          '-p',
          'no:cacheprovider',
          `--report-log=${log}`
        ],
        { cwd: dir, env: withoutModelKeys(process.env), timeoutMs: 900_000 }
      );
      if (!existsSync(log)) {
        throw new Error(
          `pytest wrote no report (exit ${ran.code}):\n${tail(ran.stdout + ran.stderr)}`
        );
      }
      return parseReportLog(readFileSync(log, 'utf8'));
    }
  );
}
