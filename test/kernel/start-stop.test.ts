/**
 * `npm start`'s running part (scripts/lab-with-sandbox.sh) stopped the way a user stops it: one
 * SIGINT to its process group, as Ctrl-C sends, here without a terminal. JupyterLab, its
 * searchbook kernel and the sandbox must all be gone; meanwhile the kernel has the sandbox's
 * addresses (its ports, not the defaults) in its environment. And a kernel whose Jupyter server is
 * killed outright stops by itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { installSearchbook } from '../e2e/support/jupyter-lab';
import { freePort } from '../support/free-port';
import { REPO } from '../support/kernel-client';
import { scratchDir } from '../support/scratch-dir';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

function listening(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids whose command line mentions `text` (Linux /proc). */
async function pidsWith(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(
      () => ''
    );
    if (cmdline.includes(text)) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 60_000
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

it('one SIGINT stops JupyterLab without its question, its kernels, then the sandbox', async () => {
  const [labPort, esPort, tsPort] = [
    await freePort(),
    await freePort(),
    await freePort()
  ];
  const token = 'start-stop-test-token';
  const home = scratchDir('searchbook-start-');
  const dataDir = await installSearchbook(home);
  let log = '';
  const script: ChildProcess = spawn(
    'bash',
    [
      'scripts/lab-with-sandbox.sh',
      '--no-browser',
      `--ServerApp.port=${labPort}`,
      '--ServerApp.port_retries=0',
      '--ServerApp.ip=127.0.0.1',
      `--IdentityProvider.token=${token}`
    ],
    {
      cwd: REPO,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SEARCHBOOK_SANDBOX: '1',
        SEARCHBOOK_SANDBOX_ARGS: `--es-port ${esPort} --ts-port ${tsPort}`,
        JUPYTER_PATH: dataDir,
        JUPYTER_CONFIG_DIR: join(home, 'config'),
        JUPYTER_RUNTIME_DIR: join(home, 'runtime'),
        JUPYTERLAB_SETTINGS_DIR: join(home, 'settings'),
        JUPYTERLAB_WORKSPACES_DIR: join(home, 'workspaces')
      }
    }
  );
  script.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  script.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>(r =>
    script.once('exit', code => r(code))
  );
  try {
    const api = `http://127.0.0.1:${labPort}/api`;
    const headers = {
      Authorization: `token ${token}`,
      'content-type': 'application/json'
    };
    await until('JupyterLab', async () =>
      (await fetch(`${api}/status`, { headers }).catch(() => undefined))?.ok
        ? true
        : undefined
    );
    await until('the sandbox', async () =>
      (await listening(esPort)) && (await listening(tsPort)) ? true : undefined
    );
    const kernel = (await (
      await fetch(`${api}/kernels`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'searchbook' })
      })
    ).json()) as { id: string };
    const [kernelPid] = await until('the kernel process', async () => {
      const pids = await pidsWith(`kernel-${kernel.id}.json`);
      return pids.length ? pids : undefined;
    });
    // The examples connect to ${env:SEARCHBOOK_ES_URL} and ${env:SEARCHBOOK_TYPESENSE_URL}: the
    // kernel has the ports this sandbox listens on, not the defaults.
    const environ = (
      await readFile(`/proc/${kernelPid as number}/environ`, 'utf8')
    ).split('\0');
    expect(environ).toEqual(
      expect.arrayContaining([
        `SEARCHBOOK_ES_URL=http://127.0.0.1:${esPort}`,
        `SEARCHBOOK_TYPESENSE_URL=http://127.0.0.1:${tsPort}`
      ])
    );

    process.kill(-(script.pid as number), 'SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exited,
      new Promise(r => (timer = setTimeout(() => r('still running'), 30_000)))
    ]);
    clearTimeout(timer);
    expect(code).not.toBe('still running');
    expect(log).not.toContain('Shut down this Jupyter server');
    expect(log).toMatch(
      /stopping JupyterLab and its kernels[\s\S]*stopping the sandbox engines/
    );
    expect(alive(kernelPid as number)).toBe(false);
    expect(await listening(labPort)).toBe(false);
    expect(await listening(esPort)).toBe(false);
    expect(await listening(tsPort)).toBe(false);
  } finally {
    if (script.exitCode === null) {
      process.kill(-(script.pid as number), 'SIGKILL');
    }
  }
});

/**
 * Starts a kernel from a shell (a stand-in for the server), kills the shell with SIGKILL once the
 * kernel listens (as a server dies under a running kernel), and waits for the kernel to stop.
 * `stderr` is where the shell sends the kernel's log; `reader` marks a process that reads it and
 * is killed with the shell.
 */
async function killedParentLeavesNoKernel(
  stderr: string,
  reader?: string
): Promise<void> {
  const ports = {
    shell_port: await freePort(),
    control_port: await freePort(),
    stdin_port: await freePort(),
    iopub_port: await freePort(),
    hb_port: await freePort()
  };
  const connectionFile = join(scratchDir('searchbook-orphan-'), 'kernel.json');
  await writeFile(
    connectionFile,
    JSON.stringify({
      ...ports,
      ip: '127.0.0.1',
      transport: 'tcp',
      key: 'orphan-test',
      signature_scheme: 'hmac-sha256',
      kernel_name: 'searchbook'
    })
  );
  const parent = spawn(
    'sh',
    [
      '-c',
      `"${process.execPath}" "${join(REPO, 'bin', 'searchbook.js')}" kernel "${connectionFile}" ${stderr} & wait`
    ],
    { stdio: 'ignore' }
  );
  const [kernelPid] = await until(
    'the kernel process',
    async () => {
      const pids = (await pidsWith(`kernel\0${connectionFile}`)).filter(
        pid => pid !== parent.pid
      );
      return pids.length ? pids : undefined;
    },
    15_000
  );
  await until(
    'the kernel to listen',
    async () => ((await listening(ports.shell_port)) ? true : undefined),
    15_000
  );
  parent.kill('SIGKILL');
  for (const pid of reader ? await pidsWith(reader) : []) {
    process.kill(pid, 'SIGKILL');
  }
  try {
    await until(
      'the kernel to stop',
      () => (alive(kernelPid as number) ? undefined : true),
      10_000
    );
  } finally {
    if (alive(kernelPid as number)) {
      process.kill(kernelPid as number, 'SIGKILL');
    }
  }
}

it('a kernel whose Jupyter server is killed outright stops by itself', async () => {
  await killedParentLeavesNoKernel('2>/dev/null');
});

it('a kernel whose log nobody reads any more stops by itself, and does not spin writing it', async () => {
  // The kernel's stderr is a pipe whose reader dies with the server (as when a Python process
  // that started it through jupyter_client is killed): writing its log there fails from then on.
  const reader = `orphan-log-reader-${process.pid}`;
  await killedParentLeavesNoKernel(
    `2>&1 >/dev/null | "${process.execPath}" -e "process.stdin.resume()" ${reader}`,
    reader
  );
});
