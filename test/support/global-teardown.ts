import realNodesTeardown from './real-elasticsearch/global-teardown';
import { stopSharedFixtures } from './shared-lab-environment';

/** The end of a jest run: the shared JupyterLab and Chromium of a run in band, then the real nodes. */
export default async function globalTeardown(): Promise<void> {
  await stopSharedFixtures();
  await realNodesTeardown();
}
