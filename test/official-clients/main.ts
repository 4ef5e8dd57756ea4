/**
 * `npm run check:typesense-clients`: Typesense's official client suites against the sandbox,
 * each on a fresh sandbox, with counts and every failing test by name; the failures the
 * sandbox expects (analytics, stemming, LLM-backed models) are said apart. Exits 1 when a
 * suite did not run or a test failed that should pass.
 */
import { parseArgs } from 'node:util';
import { GO_SUITES, runGoSuite } from './go-suite';
import { runJsSuite } from './js-suite';
import { runPythonSuite } from './python-suite';
import { closingLines, formatRun } from './report';
import { runIsGreen, type SuiteRun } from './suite-result';

const USAGE = `Usage: npm run check:typesense-clients -- [options]

  Runs typesense-go's integration suites (from the Go module proxy: v4 against the
  Typesense 30 sandbox, v3 against 29 and 28), and the Python and JavaScript suites
  from checkouts you name (their registry packages carry no tests).

  --python DIR     a checkout of typesense-python: its tests/ run with pytest in a
                   venv of their own (node_modules/.cache/searchbook-typesense-clients)
  --js DIR         a checkout of typesense-js: npm install there, then its vitest suite
  --versions V,V   the sandbox versions for the checkouts' suites (default 30.0); they
                   listen on 127.0.0.1:8108 with the key xyz, as those suites expect
  --no-go          skip the Go suites
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      python: { type: 'string' },
      js: { type: 'string' },
      versions: { type: 'string', default: '30.0' },
      'no-go': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false }
    }
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const versions = values.versions.split(',').filter(v => v !== '');
  const plan: (() => Promise<SuiteRun>)[] = [];
  if (!values['no-go']) {
    plan.push(...GO_SUITES.map(suite => () => runGoSuite(suite)));
  }
  for (const version of versions) {
    const { python, js } = values;
    if (python !== undefined) {
      plan.push(() => runPythonSuite(python, version));
    }
    if (js !== undefined) {
      plan.push(() => runJsSuite(js, version));
    }
  }
  if (plan.length === 0) {
    process.stderr.write(`nothing to run\n\n${USAGE}`);
    return 2;
  }
  const runs: SuiteRun[] = [];
  for (const next of plan) {
    const run = await next();
    runs.push(run);
    process.stdout.write(`${formatRun(run)}\n\n`);
  }
  process.stdout.write(`${closingLines(runs)}\n`);
  return runs.every(runIsGreen) ? 0 : 1;
}

main().then(
  code => process.exit(code),
  (e: unknown) => {
    process.stderr.write(
      `${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`
    );
    process.exit(1);
  }
);
