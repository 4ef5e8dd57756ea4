/**
 * typesense-go's integration suite, taken from the Go module proxy (a module's zip carries its
 * *_test.go files) and run with its `integration` build tag against a sandbox, which it finds
 * through TYPESENSE_URL and TYPESENSE_API_KEY as its own CI gives them.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { cacheDir, ROOT } from './paths';
import { runCommand, tail, withoutModelKeys } from './run-command';
import { startSuiteSandbox } from './sandbox';
import type { SuiteRun } from './suite-result';

export interface GoSuite {
  module: string;
  version: string;
  /** The Typesense version the sandbox answers as for this suite. */
  typesense: string;
}

/**
 * The newest release of each major version the proxy serves: v4 (synonym and curation sets)
 * tests Typesense 30, v3 (per-collection synonyms and overrides) tests 29 and 28.
 */
export const GO_SUITES: readonly GoSuite[] = [
  {
    module: 'github.com/typesense/typesense-go/v4',
    version: 'v4.0.0-alpha2',
    typesense: '30.0'
  },
  {
    module: 'github.com/typesense/typesense-go/v3',
    version: 'v3.2.0',
    typesense: '29.0'
  },
  // v3 expects `stem_dictionary` in every field, which Typesense brought in 28.
  {
    module: 'github.com/typesense/typesense-go/v3',
    version: 'v3.2.0',
    typesense: '28.0'
  }
];

const GO_FALLBACK = '/usr/local/go/bin/go';
const TEST_PACKAGE = './typesense/test/';
const API_KEY = 'test_key';

async function works(go: string): Promise<boolean> {
  try {
    return (
      (await runCommand(go, ['version'], { timeoutMs: 30_000 })).code === 0
    );
  } catch {
    return false;
  }
}

/** `go` on PATH, else the usual install folder, else Debian's golang-go installed now. */
export async function findGo(): Promise<string> {
  if (await works('go')) {
    return 'go';
  }
  if (existsSync(GO_FALLBACK) && (await works(GO_FALLBACK))) {
    return GO_FALLBACK;
  }
  const installed = await runCommand(
    'bash',
    [
      join(ROOT, 'scripts', 'install-debian-package.sh'),
      'golang-go',
      "to run Typesense's Go client suite against the sandbox"
    ],
    { timeoutMs: 600_000 }
  );
  if (installed.code !== 0 || !(await works('go'))) {
    throw new Error(
      `no Go toolchain: install Go 1.22 or later (or Debian's golang-go) and run again\n${tail(installed.stderr)}`
    );
  }
  return 'go';
}

/**
 * The environment for the go command: the user's module proxies without `direct`, so a module
 * comes from a proxy or not at all (never from its repository), and this Go toolchain even where
 * a module's go.mod names a newer one.
 */
async function goEnv(go: string): Promise<NodeJS.ProcessEnv> {
  const asked = await runCommand(go, ['env', 'GOPROXY'], {
    timeoutMs: 30_000
  });
  const proxies = asked.stdout
    .trim()
    .split(/[,|]/)
    .filter(p => p !== '' && p !== 'direct' && p !== 'off');
  if (proxies.length === 0) {
    throw new Error(
      `GOPROXY (${asked.stdout.trim() || 'empty'}) names no module proxy; set it to your Go module proxy`
    );
  }
  return {
    ...withoutModelKeys(process.env),
    GOPROXY: proxies.join(','),
    GOTOOLCHAIN: 'local',
    GOFLAGS: '',
    // Go keeps its module and build caches under HOME, which a bare CI shell may lack; then
    // they go under node_modules/.cache, writable so that removing node_modules works.
    ...(process.env.HOME === undefined
      ? {
          GOPATH: cacheDir('gopath'),
          GOCACHE: cacheDir('go-build'),
          GOFLAGS: '-modcacherw'
        }
      : {})
  };
}

const Downloaded = z.object({
  Dir: z.string().optional(),
  Error: z.string().optional()
});

async function moduleDir(
  go: string,
  env: NodeJS.ProcessEnv,
  suite: GoSuite
): Promise<string> {
  const target = `${suite.module}@${suite.version}`;
  // Outside any module, so only the proxy decides what is downloaded.
  const got = await runCommand(go, ['mod', 'download', '-json', target], {
    cwd: tmpdir(),
    env,
    timeoutMs: 300_000
  });
  let parsed: z.infer<typeof Downloaded> = {};
  try {
    parsed = Downloaded.parse(JSON.parse(got.stdout));
  } catch {
    // The go command's own words follow.
  }
  if (got.code !== 0 || parsed.Dir === undefined) {
    throw new Error(
      `go mod download ${target} failed: ${parsed.Error ?? tail(got.stderr)}`
    );
  }
  return parsed.Dir;
}

const TestEvent = z.object({
  Action: z.string(),
  Test: z.string().optional(),
  Output: z.string().optional()
});

/** Tests by outcome from `go test -json`; a test that started and never ended failed. */
export function parseGoTestJson(
  stdout: string
): Pick<SuiteRun, 'passed' | 'failed' | 'skipped' | 'details'> {
  const outcome = new Map<string, string>();
  const output = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) {
      continue;
    }
    const parsed = TestEvent.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.Test === undefined) {
      continue;
    }
    const { Action, Test, Output } = parsed.data;
    if (Action === 'run') {
      outcome.set(Test, 'fail');
    } else if (Action === 'pass' || Action === 'fail' || Action === 'skip') {
      outcome.set(Test, Action);
    } else if (Action === 'output' && Output !== undefined) {
      output.set(Test, [...(output.get(Test) ?? []), Output]);
    }
  }
  const named = (action: string): string[] =>
    [...outcome].filter(([, a]) => a === action).map(([name]) => name);
  const failed = named('fail');
  return {
    passed: named('pass'),
    failed,
    skipped: named('skip'),
    details: Object.fromEntries(
      failed.map(name => [name, (output.get(name) ?? []).join('')])
    )
  };
}

export async function runGoSuite(suite: GoSuite): Promise<SuiteRun> {
  const began = Date.now();
  const name = `typesense-go ${suite.version}`;
  const empty = { passed: [], failed: [], skipped: [], details: {} };
  try {
    const go = await findGo();
    const env = await goEnv(go);
    const dir = await moduleDir(go, env, suite);
    const sandbox = await startSuiteSandbox(suite.typesense, API_KEY);
    try {
      const ran = await runCommand(
        go,
        [
          'test',
          '-tags=integration',
          '-json',
          '-count=1',
          '-timeout=5m',
          // go vet's pass over the client's large generated API code costs time and says
          // nothing about the sandbox.
          '-vet=off',
          TEST_PACKAGE
        ],
        {
          cwd: dir,
          env: {
            ...env,
            TYPESENSE_URL: sandbox.url,
            TYPESENSE_API_KEY: API_KEY
          },
          timeoutMs: 600_000
        }
      );
      const tests = parseGoTestJson(ran.stdout);
      const total =
        tests.passed.length + tests.failed.length + tests.skipped.length;
      return {
        suite: name,
        typesense: suite.typesense,
        ...tests,
        seconds: (Date.now() - began) / 1000,
        ...(total === 0
          ? {
              error: `go test ran no test (exit ${ran.code}):\n${tail(ran.stderr + ran.stdout)}`
            }
          : {})
      };
    } finally {
      await sandbox.close();
    }
  } catch (e) {
    return {
      suite: name,
      typesense: suite.typesense,
      ...empty,
      seconds: (Date.now() - began) / 1000,
      error: e instanceof Error ? e.message : String(e)
    };
  }
}
