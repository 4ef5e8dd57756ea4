import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../../kernel/src/package-info';
import { freePort } from '../../support/free-port';

/** The checkout, whether this runs from source (jest) or from dist/ (benchmarks). */
export const REPO = PACKAGE_ROOT;

export interface RunningLab {
  /** Base URL, no trailing slash. */
  url: string;
  token: string;
  /** Where JupyterLab serves files from. */
  root: string;
  /** Where JupyterLab keeps the user's settings (the settings registry's files). */
  settingsDir: string;
  /** URL that opens a file in JupyterLab, logged in. */
  open(path: string): string;
  log(): string;
  /** Stops the server and removes its folders. */
  close(): Promise<void>;
  /** Signals the server to stop and removes its folders at once, for a process that is exiting. */
  stopNow?(): void;
}

export interface LabOptions {
  root: string;
  /** Jupyter data dir holding the searchbook kernelspec and labextension; by default a throwaway prefix gets `searchbook install`. */
  dataDir?: string;
  env?: Record<string, string>;
  /** `notebook`: Notebook 7 instead of JupyterLab, on the same server set-up. */
  app?: 'lab' | 'notebook';
  /** Frontend extensions to disable (labconfig/page_config.json), by package name. */
  disabledExtensions?: string[];
  /**
   * The `jupyter` of an environment searchbook is installed into (by pip), which finds the
   * kernelspec and labextension on its own; by default the test environment's (.venv).
   */
  jupyter?: string;
  /** A Python configuration file for the server (`--config`). */
  configFile?: string;
}

/**
 * A real JupyterLab from the test environment (.venv), isolated from the user's settings and
 * workspaces, with the app object exposed so tests can run commands as the menus do.
 */
export async function startJupyterLab(
  options: LabOptions
): Promise<RunningLab> {
  const installed =
    options.dataDir || options.jupyter ? undefined : await installSearchbook();
  const dataDir = options.dataDir ?? installed;
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const home = await mkdtemp(join(tmpdir(), 'searchbook-lab-'));
  for (const dir of ['config', 'settings', 'workspaces', 'runtime']) {
    await mkdir(join(home, dir), { recursive: true });
  }
  await writeStartSettings(join(home, 'settings'));
  const app = options.app ?? 'lab';
  if (options.disabledExtensions?.length) {
    await mkdir(join(home, 'config', 'labconfig'), { recursive: true });
    const disabled = Object.fromEntries(
      options.disabledExtensions.map(name => [name, true])
    );
    await writeFile(
      join(home, 'config', 'labconfig', 'page_config.json'),
      JSON.stringify({ disabledExtensions: disabled })
    );
  }
  const args = [
    app,
    '--no-browser',
    `--ServerApp.port=${port}`,
    '--ServerApp.port_retries=0',
    '--ServerApp.ip=127.0.0.1',
    `--IdentityProvider.token=${token}`,
    `--ServerApp.root_dir=${options.root}`,
    app === 'lab'
      ? '--LabApp.expose_app_in_browser=True'
      : '--JupyterNotebookApp.expose_app_in_browser=True',
    '--LabApp.news_url=',
    '--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'
  ];
  if (options.configFile) {
    args.push(`--config=${options.configFile}`);
  }
  if (process.getuid?.() === 0) {
    args.push('--allow-root');
  }
  const output: string[] = [];
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.JUPYTER_PATH;
  const child: ChildProcess = spawn(
    options.jupyter ?? join(REPO, '.venv', 'bin', 'jupyter'),
    args,
    {
      cwd: options.root,
      env: {
        ...env,
        ...(dataDir ? { JUPYTER_PATH: dataDir } : {}),
        JUPYTER_CONFIG_DIR: join(home, 'config'),
        JUPYTERLAB_SETTINGS_DIR: join(home, 'settings'),
        JUPYTERLAB_WORKSPACES_DIR: join(home, 'workspaces'),
        JUPYTER_RUNTIME_DIR: join(home, 'runtime'),
        ...options.env
      },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  // Its settings and the throwaway install: nothing of a server outlives it in the temp directory.
  const removeFolders = () => {
    for (const dir of [home, ...(installed ? [prefixOf(installed)] : [])]) {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await waitForServer(url, token, child, () => output.join(''));
  } catch (err) {
    removeFolders();
    throw err;
  }
  return {
    url,
    token,
    root: options.root,
    settingsDir: join(home, 'settings'),
    open: path => {
      const file = path.split('/').map(encodeURIComponent).join('/');
      return app === 'lab'
        ? `${url}/lab/tree/${file}?token=${token}&reset`
        : `${url}/notebooks/${file}?token=${token}`;
    },
    log: () => output.join(''),
    close: () =>
      new Promise<void>(done => {
        if (child.exitCode !== null) {
          removeFolders();
          done();
          return;
        }
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          removeFolders();
          done();
        });
        child.kill('SIGTERM');
      }),
    stopNow: () => {
      child.kill('SIGTERM');
      removeFolders();
    }
  };
}

/** The settings a test JupyterLab starts with: no "get notified about Jupyter news?" toast over the notebook in screenshots. */
export async function writeStartSettings(settingsDir: string): Promise<void> {
  const apputils = join(settingsDir, '@jupyterlab', 'apputils-extension');
  await mkdir(apputils, { recursive: true });
  await writeFile(
    join(apputils, 'notification.jupyterlab-settings'),
    JSON.stringify({ fetchNews: 'false' })
  );
}

/** The prefix `installSearchbook` made, from the data dir it returned. */
function prefixOf(dataDir: string): string {
  return dirname(dirname(dataDir));
}

/**
 * Installs the kernelspec and labextension as users do, into a throwaway prefix (made in
 * `parent`, the temporary directory by default); returns its data dir.
 */
export async function installSearchbook(parent = tmpdir()): Promise<string> {
  const prefix = await mkdtemp(join(parent, 'searchbook-prefix-'));
  await promisify(execFile)(process.execPath, [
    join(REPO, 'bin', 'searchbook.js'),
    'install',
    '--prefix',
    prefix
  ]);
  return join(prefix, 'share', 'jupyter');
}

/** Polls /api/status until the server answers; bounded, and fails early if the server dies. */
async function waitForServer(
  url: string,
  token: string,
  child: ChildProcess,
  log: () => string
): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) {
      throw new Error(`JupyterLab exited with ${child.exitCode}:\n${log()}`);
    }
    try {
      const response = await fetch(`${url}/api/status`, {
        headers: { Authorization: `token ${token}` }
      });
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise(r => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`JupyterLab did not answer within 60 s:\n${log()}`);
}
