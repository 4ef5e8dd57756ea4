import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../free-port';
import { SECRETS } from '../secrets';
import { REAL_TYPESENSE_VERSION, typesenseBinary } from './binary';

/** A started server; also the shape of its state file in the run's folder (see run-server). */
export interface RealTypesenseAddress {
  /** As `/debug` reports it. */
  version: string;
  url: string;
  /** The admin key it was started with: the tests' own Typesense key. */
  apiKey: string;
  pid: number;
  log: string;
}

const READY_LIMIT_MS = 90_000;
const START_ATTEMPTS = 3;

/**
 * Starts the real server on loopback ports (API and peering) with its data in `home`, and
 * resolves once `/health` answers `{"ok": true}`. It stops when `parentPid` ends (a watcher
 * beside it), so a killed test run leaves nothing behind.
 */
export async function launchRealTypesense(opts: {
  home: string;
  parentPid: number;
}): Promise<RealTypesenseAddress> {
  const binary = typesenseBinary();
  if ('missing' in binary) {
    throw new Error(binary.missing);
  }
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    try {
      return await launchOnce(binary.path, opts, attempt);
    } catch (err) {
      lastError = err;
      if (!(err instanceof PortTakenError)) {
        throw err;
      }
    }
  }
  throw lastError;
}

class PortTakenError extends Error {}

async function launchOnce(
  binary: string,
  opts: { home: string; parentPid: number },
  attempt: number
): Promise<RealTypesenseAddress> {
  const home = join(opts.home, `typesense-${attempt}`);
  const data = join(home, 'data');
  mkdirSync(data, { recursive: true });
  const [apiPort, peeringPort] = [await freePort(), await freePort()];
  const log = join(home, 'server.log');
  const logFd = openSync(log, 'a');
  const apiKey = SECRETS.TS_API_KEY;
  const child = spawn(
    binary,
    [
      `--data-dir=${data}`,
      `--api-address=127.0.0.1`,
      `--api-port=${apiPort}`,
      `--peering-address=127.0.0.1`,
      `--peering-port=${peeringPort}`,
      // Two cores shared by every test process.
      '--thread-pool-size=4',
      '--num-collections-parallel-load=1'
    ],
    {
      // The key travels in the environment, not the command line `ps` shows.
      env: { ...process.env, TYPESENSE_API_KEY: apiKey },
      detached: true,
      stdio: ['ignore', logFd, logFd]
    }
  );
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) {
    throw new Error('typesense-server could not be started');
  }
  let exited: number | null | undefined;
  child.once('exit', code => (exited = code));
  child.unref();
  watchParent(opts.parentPid, pid);
  const url = `http://127.0.0.1:${apiPort}`;
  const deadline = Date.now() + READY_LIMIT_MS;
  for (;;) {
    if (exited !== undefined) {
      const tail = readFileSync(log, 'utf8').slice(-4000);
      const failure = `the real Typesense server exited with ${exited} before /health said ok; its log (${log}) ends:\n${tail}`;
      throw /Address already in use|Failed to (listen|start)|bind/i.test(tail)
        ? new PortTakenError(failure)
        : new Error(failure);
    }
    if (await healthy(url)) {
      break;
    }
    if (Date.now() > deadline) {
      await stopRealTypesense(pid);
      throw new Error(
        `the real Typesense server did not say ok at ${url}/health within ${READY_LIMIT_MS / 1000} s (log: ${log})`
      );
    }
    await new Promise(r => setTimeout(r, 250));
  }
  const debug = await fetch(`${url}/debug`, {
    headers: { 'x-typesense-api-key': apiKey }
  });
  const version = ((await debug.json()) as { version?: unknown }).version;
  if (version !== REAL_TYPESENSE_VERSION) {
    await stopRealTypesense(pid);
    throw new Error(
      `the real Typesense server reports version ${String(version)}, not ${REAL_TYPESENSE_VERSION}`
    );
  }
  return { version, url, apiKey, pid, log };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, {
      signal: AbortSignal.timeout(2000)
    });
    return ((await res.json()) as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/**
 * The server has no option to follow a parent process (the Elasticsearch launchers have one):
 * a small shell beside it ends it when the test run's main process is gone.
 */
function watchParent(parentPid: number, serverPid: number): void {
  const watcher = spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 2; done; kill "$2" 2>/dev/null',
      'searchbook-typesense-watch',
      String(parentPid),
      String(serverPid)
    ],
    { detached: true, stdio: 'ignore' }
  );
  watcher.unref();
}

/** SIGTERM (the server flushes and closes), then SIGKILL if it has not ended within 20 s. */
export async function stopRealTypesense(pid: number): Promise<void> {
  if (!alive(pid)) {
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 20_000;
  while (alive(pid) && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 100));
  }
  if (alive(pid)) {
    process.kill(pid, 'SIGKILL');
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
