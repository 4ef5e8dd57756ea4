import realNodesTeardown from './real-elasticsearch/global-teardown';
import { endRunTempDir } from './run-temp-dir';
import { stopSharedFixtures } from './shared-lab-environment';

/**
 * The end of a jest run: the shared JupyterLab and Chromium of a run in band (a run with workers
 * has them in the workers, which stop their own as they end, before this runs), then the real
 * nodes, then the check that nothing else is left in the run's temporary folder.
 */
export default async function globalTeardown(): Promise<void> {
  try {
    await stopSharedFixtures();
    await realNodesTeardown();
  } finally {
    endRunTempDir();
  }
}
