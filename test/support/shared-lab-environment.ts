import { rmSync } from 'node:fs';
import type {
  EnvironmentContext,
  JestEnvironmentConfig
} from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import type { Browser } from 'playwright-core';
import { launchChromium, TEST_CHROMIUM } from '../e2e/support/browser';
import {
  SHARED_FIXTURES,
  type SharedBrowserFixtures,
  type SharedLab,
  startSharedLab
} from '../e2e/support/shared-lab';
import { SCRATCH_DIRS } from './scratch-dir';

/*
 * jest loads a test environment once per worker, outside the suites' module registries: what
 * this module holds lives as long as the worker, and nothing starts until a browser suite asks.
 */
let lab: Promise<SharedLab> | undefined;
let browser: Promise<Browser> | undefined;

const fixtures: SharedBrowserFixtures = {
  lab: () => (lab ??= startSharedLab().then(stopAtExit)),
  browser: () => (browser ??= launchChromium(TEST_CHROMIUM))
};

/**
 * A worker ends by process.exit (jest's --forceExit too), which waits for nothing, or, since
 * this server and the browser keep it running, by jest's SIGTERM (then SIGKILL), which runs no
 * 'exit' handler: either way the server is signalled to stop and its folders removed at once.
 * Playwright closes the browsers it launched itself.
 */
function stopAtExit(shared: SharedLab): SharedLab {
  const stop = () => {
    shared.server.stopNow?.();
    rmSync(shared.envDir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  process.once('SIGTERM', () => {
    stop();
    // With no one else listening (Playwright's handler ends the process itself), end as SIGTERM does.
    if (process.listenerCount('SIGTERM') === 0) {
      process.kill(process.pid, 'SIGTERM');
    }
  });
  return shared;
}

/**
 * Stops what this process started, for jest's global teardown: a run in band has its suites
 * in jest's own process, which would otherwise wait for the server and browser forever.
 */
export async function stopSharedFixtures(): Promise<void> {
  const [openLab, openBrowser] = [lab, browser];
  lab = browser = undefined;
  await Promise.all([
    openBrowser?.then(b => b.close()).catch(() => undefined),
    openLab
      ?.then(async shared => {
        await shared.server.close();
        rmSync(shared.envDir, { recursive: true, force: true });
      })
      .catch(() => undefined)
  ]);
}

/**
 * Node's environment, plus the worker's shared JupyterLab and Chromium for the browser suites,
 * and the test file's scratch folders (test/support/scratch-dir.ts), removed here: after the
 * file's every afterAll, so no kernel or server of it still uses them.
 */
export default class SharedLabEnvironment extends TestEnvironment {
  private readonly scratchDirs: string[] = [];

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.global[SHARED_FIXTURES] = fixtures;
    this.global[SCRATCH_DIRS] = this.scratchDirs;
  }

  override async teardown(): Promise<void> {
    for (const dir of this.scratchDirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
    await super.teardown();
  }
}
