import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLaunchers } from './build';
import { REAL_FLAVOURS, REAL_FLAVOUR_IDS, isRealFlavourId } from './flavours';
import { launchRealNode } from './launch';

/**
 * `npm run real-es -- <7.17|8.19|8.19-security>`: one real Elasticsearch node in the
 * foreground for your own experiments, on a free loopback port; Ctrl-C stops it and deletes
 * its data.
 */
async function main(): Promise<void> {
  const wanted = `es-${process.argv[2] ?? '8.19'}`;
  if (!isRealFlavourId(wanted)) {
    const choices = REAL_FLAVOUR_IDS.map((id) => id.slice(3)).join(', ');
    console.error(`Unknown version "${process.argv[2]}": write one of ${choices} (e.g. npm run real-es -- 8.19).`);
    process.exit(2);
  }
  const build = await buildLaunchers();
  if (!build.built) {
    console.error(build.reason);
    process.exit(1);
  }
  const home = mkdtempSync(join(tmpdir(), 'searchbook-real-es-'));
  const started = Date.now();
  const node = await launchRealNode(wanted, { home, parentPid: process.pid, foreground: true });
  const spec = REAL_FLAVOURS[wanted];
  console.log(`Elasticsearch ${spec.version}${spec.security ? ' (security on)' : ''} is up after ${((Date.now() - started) / 1000).toFixed(1)} s at ${node.url}`);
  if (node.password) console.log(`  user elastic, password ${node.password} (a fixed test password)`);
  console.log(`  in a notebook: %connect elasticsearch ${node.url}${node.password ? ' user=elastic password=...' : ''}`);
  console.log(`  log: ${node.log}; Ctrl-C stops the node and deletes its data`);
  const stop = (): void => {
    void node.stop().then(() => {
      rmSync(home, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
