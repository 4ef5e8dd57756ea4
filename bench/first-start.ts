/**
 * The first minute of a new user: a fresh clone → `npm start` → JupyterLab answers, against
 * the anchor a JupyterLab user knows (`python3 -m venv v && v/bin/pip install jupyterlab &&
 * v/bin/jupyter lab`), both from scratch in the same run:
 *   - as a new user has them, with empty npm and pip caches (everything downloaded);
 *   - as a returning user has them, with this machine's caches;
 *   - a second `npm start` with nothing changed, against `jupyter lab` alone.
 * Each `npm start` step is split by set-up's own lines (npm packages, build, Python
 * environment), so the note can say where the time goes.
 *   node dist/bench/first-start.js [--rounds N] [--warm-only]
 * It downloads from npm and PyPI and takes several minutes; the clone is of this repository's
 * HEAD (commit first what you want measured).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port';

const REPO = join(__dirname, '..', '..');
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 1;
const WARM_ONLY = args.includes('--warm-only');
const TOKEN = 'first-start-bench';
const AS_ROOT = process.getuid?.() === 0 ? ['--allow-root'] : [];

interface Timed {
  /** Seconds from the command's start to JupyterLab answering /api/status. */
  total: number;
  /** Seconds at which each line of interest first appeared on the command's stderr. */
  marks: Record<string, number>;
}

/**
 * Runs `command` in its own process group until JupyterLab on `port` answers, then stops the
 * whole group. Bounded: gives up after `limitSeconds`.
 */
async function untilLabAnswers(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  port: number,
  watch: Record<string, RegExp>,
  limitSeconds = 900
): Promise<Timed> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const child = spawn('bash', ['-c', command], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe']
  });
  const marks: Record<string, number> = {};
  let output = '';
  const scan = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
    for (const [name, pattern] of Object.entries(watch)) {
      if (marks[name] === undefined && pattern.test(output)) {
        marks[name] = seconds();
      }
    }
  };
  child.stdout.on('data', scan);
  child.stderr.on('data', scan);
  const exited = new Promise<number | null>(resolve =>
    child.once('exit', code => resolve(code))
  );
  let exitCode: number | null | undefined;
  void exited.then(code => (exitCode = code));
  try {
    while (seconds() < limitSeconds) {
      if (exitCode !== undefined) {
        throw new Error(
          `${command} ended (${exitCode}) before JupyterLab answered:\n${output}`
        );
      }
      try {
        const answer = await fetch(
          `http://127.0.0.1:${port}/api/status?token=${TOKEN}`
        );
        if (answer.ok) {
          return { total: seconds(), marks };
        }
      } catch {
        // Not listening yet.
      }
      await new Promise(r => setTimeout(r, 100));
    }
    throw new Error(`JupyterLab did not answer within ${limitSeconds} s`);
  } finally {
    if (child.pid !== undefined && exitCode === undefined) {
      process.kill(-child.pid, 'SIGTERM');
      const stopped = await Promise.race([
        exited,
        new Promise(r => setTimeout(() => r('late'), 30_000))
      ]);
      if (stopped === 'late') {
        process.kill(-child.pid, 'SIGKILL');
      }
    }
  }
}

const labFlags = (port: number): string =>
  [
    '--no-browser',
    `--port=${port}`,
    `--ServerApp.token=${TOKEN}`,
    '--ServerApp.port_retries=0',
    ...AS_ROOT
  ].join(' ');

const SETUP_MARKS: Record<string, RegExp> = {
  'npm packages installed':
    /searchbook setup: (building|the build is up to date)/,
  'build done': /Wrote \d+ Elasticsearch endpoints|the build is up to date/,
  'set-up done (Python environment ready)': /searchbook setup: done/
};

async function searchbookStart(
  dir: string,
  env: NodeJS.ProcessEnv
): Promise<Timed> {
  const port = await freePort();
  return await untilLabAnswers(
    `npm start -- ${labFlags(port)}`,
    dir,
    env,
    port,
    SETUP_MARKS
  );
}

async function anchorStart(
  dir: string,
  env: NodeJS.ProcessEnv,
  fromScratch: boolean
): Promise<Timed> {
  const port = await freePort();
  const install = fromScratch
    ? 'python3 -m venv v && v/bin/pip install --quiet --disable-pip-version-check jupyterlab && echo installed >&2 && '
    : '';
  return await untilLabAnswers(
    `${install}v/bin/jupyter lab ${labFlags(port)}`,
    dir,
    env,
    port,
    { 'pip install done': /installed/ }
  );
}

function show(label: string, timed: Timed, anchor: Timed): void {
  const marks = Object.entries(timed.marks)
    .map(([name, at]) => `${name} at ${at.toFixed(1)} s`)
    .join(', ');
  console.log(
    `${label.padEnd(34)} ${timed.total.toFixed(1).padStart(6)} s   anchor ${anchor.total
      .toFixed(1)
      .padStart(6)} s   ratio ${(timed.total / anchor.total).toFixed(2)}${
      marks ? `\n${' '.repeat(36)}(${marks})` : ''
    }`
  );
}

async function round(caches: 'empty' | 'warm'): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'searchbook-first-start-'));
  try {
    const clone = join(work, 'searchbook');
    execFileSync('git', ['clone', '--quiet', REPO, clone]);
    const env: NodeJS.ProcessEnv = { ...process.env, SEARCHBOOK_SANDBOX: '1' };
    if (caches === 'empty') {
      env.npm_config_cache = join(work, 'npm-cache');
      env.PIP_CACHE_DIR = join(work, 'pip-cache');
    }
    // The anchor first, so both see the network and the disk in the same state of the run.
    const anchorDir = join(work, 'anchor');
    execFileSync('mkdir', ['-p', anchorDir]);
    const anchor = await anchorStart(anchorDir, env, true);
    const first = await searchbookStart(clone, env);
    show(`first npm start (${caches} caches)`, first, anchor);
    const labAlone = await anchorStart(anchorDir, env, false);
    const again = await searchbookStart(clone, env);
    show('npm start again, nothing changed', again, labAlone);
    const status = execFileSync('git', ['status', '--porcelain'], {
      cwd: clone
    }).toString();
    console.log(
      status.trim() === ''
        ? '                                   the clone has no changed tracked file afterwards'
        : `                                   tracked files changed by set-up:\n${status}`
    );
  } finally {
    // npm may still be writing its logs as its processes stop.
    await rm(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function main(): Promise<void> {
  console.log(
    `first start of searchbook against pip install jupyterlab + jupyter lab, ${ROUNDS} round(s)`
  );
  for (let i = 0; i < ROUNDS; i++) {
    if (!WARM_ONLY) {
      await round('empty');
    }
    await round('warm');
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
