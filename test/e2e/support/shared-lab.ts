import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, TEST_CHROMIUM } from './browser';
import {
  type RunningLab,
  startJupyterLab,
  writeStartSettings
} from './jupyter-lab';

/**
 * One JupyterLab (and one Chromium) per jest worker, shared by the browser suites it runs one
 * after the other: starting them was most of a suite's time. The worker's test environment
 * (test/support/shared-lab-environment.ts) owns them and hands them to suites through this
 * global; scripts outside jest find none and start their own.
 */
export interface SharedBrowserFixtures {
  lab(): Promise<SharedLab>;
  browser(): Promise<Browser>;
}

export const SHARED_FIXTURES = '__searchbookSharedBrowserFixtures';

export interface SharedLab {
  server: RunningLab;
  /** Where each suite's kernel variables are written, one file per suite folder. */
  envDir: string;
}

export function sharedFixtures(): SharedBrowserFixtures | undefined {
  return (globalThis as Record<string, unknown>)[SHARED_FIXTURES] as
    SharedBrowserFixtures | undefined;
}

/** The server serves the temporary directory, where every suite makes its own folder. */
export async function startSharedLab(): Promise<SharedLab> {
  const envDir = await mkdtemp(join(tmpdir(), 'searchbook-lab-env-'));
  const server = await startJupyterLab({
    root: tmpdir(),
    configFile: join(__dirname, 'suite_env_config.py'),
    env: { SEARCHBOOK_TEST_SUITE_ENV_DIR: envDir }
  });
  return { server, envDir };
}

/** Whether a suite can use the shared server: its folder is a child of the served one, and it needs no server set-up of its own. */
function canShare(root: string, env: Record<string, string>): boolean {
  return (
    dirname(root) === tmpdir() &&
    !Object.keys(env).some(name => name.startsWith('JUPYTER'))
  );
}

/**
 * A suite's view of the shared server: its folder as the root, its own workspace (so nothing
 * of the layout of the suite before shows), its variables for the kernels its notebooks start,
 * and a close that shuts its kernels down instead of the server.
 */
async function suiteLab(
  shared: SharedLab,
  root: string,
  env: Record<string, string>
): Promise<RunningLab> {
  const folder = basename(root);
  const envFile = join(shared.envDir, `${folder}.json`);
  await writeFile(envFile, JSON.stringify(env), { mode: 0o600 });
  const { server } = shared;
  const workspace = `suite-${folder}`;
  return {
    ...server,
    root,
    open: path => {
      const file = [folder, ...path.split('/')].map(encodeURIComponent);
      return `${server.url}/lab/workspaces/${workspace}/tree/${file.join('/')}?token=${server.token}&reset`;
    },
    close: async () => {
      await shutDownKernels(server);
      await resetSettings(server.settingsDir);
      await rm(envFile, { force: true });
    }
  };
}

/**
 * Settings a suite changed (searchbook's rows per block, say) must not reach the next suite:
 * the server reads them from disk on each request, so they are put back as it started.
 */
async function resetSettings(settingsDir: string): Promise<void> {
  await rm(settingsDir, { recursive: true, force: true });
  await writeStartSettings(settingsDir);
}

/** Every kernel of the server: the suites run one at a time on it, and the next must find none running. */
async function shutDownKernels(server: RunningLab): Promise<void> {
  const headers = { Authorization: `token ${server.token}` };
  const sessions = (await (
    await fetch(`${server.url}/api/sessions`, { headers })
  ).json()) as { id: string }[];
  for (const session of sessions) {
    await fetch(`${server.url}/api/sessions/${session.id}`, {
      method: 'DELETE',
      headers
    });
  }
  const kernels = (await (
    await fetch(`${server.url}/api/kernels`, { headers })
  ).json()) as { id: string }[];
  for (const kernel of kernels) {
    await fetch(`${server.url}/api/kernels/${kernel.id}`, {
      method: 'DELETE',
      headers
    });
  }
}

/**
 * The JupyterLab a browser suite uses: the worker's shared one when it can (see `canShare`),
 * else one of its own. Either way its close also removes the suite's folder.
 */
export async function suiteJupyterLab(
  root: string,
  env: Record<string, string> = {}
): Promise<RunningLab> {
  const shared = canShare(root, env) ? sharedFixtures() : undefined;
  const lab = shared
    ? await suiteLab(await shared.lab(), root, env)
    : await startJupyterLab({ root, env });
  return {
    ...lab,
    close: async () => {
      await lab.close();
      await rm(root, { recursive: true, force: true });
    }
  };
}

/** The Chromium a browser suite uses: the worker's shared one (closing it closes the suite's contexts), else its own. */
export async function suiteChromium(): Promise<Browser> {
  const shared = sharedFixtures();
  return shared
    ? borrowedBrowser(await shared.browser())
    : launchChromium(TEST_CHROMIUM);
}

/** The shared browser as a suite sees it: close closes the contexts (and pages) it opened, not the browser. */
function borrowedBrowser(browser: Browser): Browser {
  const contexts: BrowserContext[] = [];
  return new Proxy(browser, {
    get(target, key) {
      if (key === 'close') {
        return async () => {
          await Promise.all(contexts.splice(0).map(c => c.close()));
        };
      }
      if (key === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args);
          contexts.push(context);
          return context;
        };
      }
      if (key === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          contexts.push(page.context());
          return page;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    }
  });
}
