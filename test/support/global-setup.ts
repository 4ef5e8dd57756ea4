import realNodesSetup from './real-elasticsearch/global-setup';
import { startRunTempDir } from './run-temp-dir';

/** The start of a jest run: its own temporary folder first, so the real nodes' folder lands in it too. */
export default function globalSetup(): void {
  startRunTempDir();
  realNodesSetup();
}
