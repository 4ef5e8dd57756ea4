/**
 * What bench:cell and bench:cell-profile share: the sandbox in a process of its own, a
 * kernelspec installed into a temporary prefix, and bench/cell_timing.py driven one command
 * at a time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { ISSUE_INDEX, loadIssueIndex } from './issue-index';

export const REPO = join(__dirname, '..', '..');
const PYTHON = join(REPO, '.venv', 'bin', 'python');

/** The search every cell of the benchmarks runs, at several sizes. */
export const QUERY = {
  match: { description: 'durable lightweight stylish powerful quiet handy' }
};

export const searchBody = (size: number): string =>
  JSON.stringify({ size, query: QUERY });

/** The same search as a searchbook cell. */
export const searchCell = (size: number, index = 'products'): string =>
  `GET /${index}/_search\n${searchBody(size)}`;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The value after `--name` on the command line, if any. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** bench/cell_timing.py, driven one command at a time. */
export class CellTimer {
  private readonly child;
  private readonly lines: AsyncIterator<string>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(PYTHON, [join(REPO, 'bench', 'cell_timing.py')], {
      env,
      stdio: ['pipe', 'pipe', 'inherit']
    });
    this.lines = createInterface({ input: this.child.stdout })[
      Symbol.asyncIterator
    ]();
  }

  private async ask<T>(command: object): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
    const line = await this.lines.next();
    if (line.done) {
      throw new Error('bench/cell_timing.py stopped');
    }
    return JSON.parse(line.value) as T;
  }

  start(name: string, kernel: string, setup: string[]): Promise<unknown> {
    return this.ask({ start: name, kernel, setup });
  }

  run(
    name: string,
    code: string,
    weigh = false
  ): Promise<{ ms: number; weight: number | null; cpuMs: number | null }> {
    return this.ask({ run: name, code, weigh });
  }

  /** Shuts every kernel down with a shutdown_request (so a profiled kernel writes its profile) and waits. */
  async close(): Promise<void> {
    this.child.stdin.end();
    await new Promise(resolve => this.child.on('close', resolve));
  }
}

/**
 * A temporary Jupyter path holding the checkout's searchbook kernelspec; `nodeFlags` go
 * before the kernel's script (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export function installKernelspec(nodeFlags: string[] = []): string {
  const prefix = mkdtempSync(join(tmpdir(), 'searchbook-bench-'));
  spawnSync(
    process.execPath,
    [join(REPO, 'bin', 'searchbook.js'), 'install', '--prefix', prefix],
    { stdio: 'ignore' }
  );
  const jupyterPath = join(prefix, 'share', 'jupyter');
  if (nodeFlags.length > 0) {
    const specFile = join(jupyterPath, 'kernels', 'searchbook', 'kernel.json');
    const spec = JSON.parse(readFileSync(specFile, 'utf8')) as {
      argv: string[];
    };
    spec.argv.splice(1, 0, ...nodeFlags);
    writeFileSync(specFile, JSON.stringify(spec));
  }
  return jupyterPath;
}

/**
 * The engine the cells search: the sandbox in a process of its own, or with `--es-url` an
 * Elasticsearch already running on this machine without security (`npm run real-es -- 8.19`),
 * which is left running.
 */
export async function benchEngine(): Promise<{
  esUrl: string;
  close: () => void;
}> {
  const given = argument('es-url');
  if (given === undefined) {
    return startSandboxProcess();
  }
  const url = new URL(given);
  if (
    url.protocol !== 'http:' ||
    !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  ) {
    throw new Error(
      `--es-url takes an engine on this machine over http, e.g. http://127.0.0.1:9200, not ${given}`
    );
  }
  return { esUrl: url.origin, close: () => undefined };
}

/**
 * The sandbox in a process of its own, as a real engine is: every client (the benchmark's raw
 * requests, the kernels) crosses a process boundary alike.
 */
export async function startSandboxProcess(): Promise<{
  esUrl: string;
  close: () => void;
}> {
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'sandbox', 'bin', 'searchbook-sandbox.js'),
      '--es-port',
      '0',
      '--ts-port',
      '0',
      '--no-security'
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  );
  // A benchmark that fails part-way must not leave its sandbox running (killed outright: its
  // goodbye would go to a pipe nobody reads any more).
  process.on(
    'exit',
    () =>
      child.exitCode === null &&
      child.signalCode === null &&
      child.kill('SIGKILL')
  );
  let seen = '';
  for await (const line of createInterface({ input: child.stdout })) {
    seen += `${line}\n`;
    const es = /Elasticsearch\s+(http\S+)/.exec(seen);
    if (es && line.includes('Press Ctrl-C')) {
      return { esUrl: es[1] as string, close: () => child.kill('SIGTERM') };
    }
  }
  throw new Error(`the sandbox did not start:\n${seen}`);
}

/**
 * The index the search runs on: the sandbox's 25,000 products, or with `--index issue` the
 * small flat index of bench/issue-index.ts (2,000 documents of about 250 bytes), loaded first.
 */
export async function benchIndex(esUrl: string): Promise<string> {
  if (argument('index') !== 'issue') {
    return 'products';
  }
  const agent = new Agent({ connections: 1 });
  try {
    const mean = await loadIssueIndex(agent, esUrl);
    console.log(
      `index ${ISSUE_INDEX}: 2,000 documents, ${mean.toFixed(0)} bytes of source on average`
    );
  } finally {
    await agent.close();
  }
  return ISSUE_INDEX;
}
