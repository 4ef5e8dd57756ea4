/**
 * Start → first kernel_info_reply, the time a notebook waits before its kernel is usable.
 * Goal: 300 ms or less. Baseline in the same run: a bare `node` process's start to its
 * first byte on stdout, so the ratio shows what searchbook adds on top of Node itself.
 *   node dist/bench/kernel-start.js [runs]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as zmq from 'zeromq';
import { KernelClient } from '../test/support/kernel-client';

const RUNS = Number(process.argv[2] ?? 15);
const REPO = join(__dirname, '..', '..');

async function nodeBaseline(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("x")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const elapsed = performance.now() - started;
  await new Promise((r) => child.once('exit', r));
  return elapsed;
}

async function kernelStart(): Promise<number> {
  // The client's own helpers make the connection file and sign messages; launch is timed here.
  const client = new KernelClient();
  const { frames, connectionFile, ports } = await client.prepare();
  const shell = new zmq.Dealer({ reconnectInterval: 2 });
  shell.connect(`tcp://127.0.0.1:${ports.shell_port}`);
  const started = performance.now();
  const child = spawn(process.execPath, [join(REPO, 'bin', 'searchbook.js'), 'kernel', connectionFile], { stdio: 'ignore' });
  await shell.send(frames('kernel_info_request', {}).frames);
  await shell.receive();
  const elapsed = performance.now() - started;
  shell.close();
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  return elapsed;
}

function stats(values: number[]): { median: number; p90: number; min: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { median: at(0.5), p90: at(0.9), min: sorted[0] as number };
}

async function main(): Promise<void> {
  const baseline: number[] = [];
  const kernel: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await nodeBaseline());
    kernel.push(await kernelStart());
  }
  const b = stats(baseline);
  const k = stats(kernel);
  const fmt = (s: { median: number; p90: number; min: number }) => `median ${s.median.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, min ${s.min.toFixed(0)} ms`;
  console.log(`runs: ${RUNS}`);
  console.log(`bare node start (baseline):       ${fmt(b)}`);
  console.log(`searchbook start → kernel_info:   ${fmt(k)}`);
  console.log(`ratio (median): ${(k.median / b.median).toFixed(2)}x the bare node start; goal ≤ 300 ms: ${k.median <= 300 ? 'met' : 'NOT met'}`);
}

void main();
