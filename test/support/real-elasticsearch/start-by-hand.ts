import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLaunchers } from './build';
import { REAL_FLAVOURS, REAL_FLAVOUR_IDS, isRealFlavourId } from './flavours';
import { launchRealNode } from './launch';
import { loadProducts } from './products';

/**
 * `npm run real-es -- <7.17|8.19|8.19-security|8.19-tls|9.5|9.5-security|opensearch-2.19|opensearch-2.19-security|opensearch-3.3> [--products N]`:
 * one real Elasticsearch (or OpenSearch) node in the foreground for your own experiments, on a free loopback port, optionally with the
 * sandbox's sample index (`products`, alias `catalog`, the first N documents); Ctrl-C stops it
 * and deletes its data. `--client-compiler-only` is for a test run's node (see LaunchOptions).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // For a parent that starts this script (the Python suites): its end closes our stdin.
  const stdinAt = args.indexOf('--stop-when-stdin-closes');
  if (stdinAt >= 0) {
    args.splice(stdinAt, 1);
  }
  const clientAt = args.indexOf('--client-compiler-only');
  if (clientAt >= 0) {
    args.splice(clientAt, 1);
  }
  const productsAt = args.indexOf('--products');
  const products = productsAt >= 0 ? Number(args[productsAt + 1]) : 0;
  if (productsAt >= 0) {
    args.splice(productsAt, 2);
  }
  if (!Number.isInteger(products) || products < 0) {
    console.error(
      '--products takes a whole number of sample documents, e.g. --products 25000.'
    );
    process.exit(2);
  }
  const asked = args[0] ?? '8.19';
  // Elasticsearch's by version alone (8.19), OpenSearch's by its name (opensearch-2.19).
  const wanted = isRealFlavourId(asked) ? asked : `es-${asked}`;
  if (!isRealFlavourId(wanted)) {
    const choices = REAL_FLAVOUR_IDS.map(id => id.replace(/^es-/, '')).join(
      ', '
    );
    console.error(
      `Unknown version "${args[0]}": write one of ${choices} (e.g. npm run real-es -- 8.19).`
    );
    process.exit(2);
  }
  const build = await buildLaunchers();
  if (!build.built) {
    console.error(build.reason);
    process.exit(1);
  }
  const home = mkdtempSync(join(tmpdir(), 'searchbook-real-es-'));
  const started = Date.now();
  const node = await launchRealNode(wanted, {
    home,
    parentPid: process.pid,
    foreground: true,
    clientCompilerOnly: clientAt >= 0
  });
  const spec = REAL_FLAVOURS[wanted];
  const seconds = (since: number): string =>
    ((Date.now() - since) / 1000).toFixed(1);
  const secured = spec.tls
    ? ' (security on, HTTPS)'
    : spec.security
      ? ' (security on)'
      : '';
  const product =
    spec.product === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
  console.log(
    `${product} ${spec.version}${secured} is up after ${seconds(started)} s at ${node.url}`
  );
  if (products > 0) {
    const loading = Date.now();
    console.log(
      `  loaded ${await loadProducts(node, products)} sample documents into products (alias catalog) in ${seconds(loading)} s`
    );
  }
  if (node.password) {
    console.log(
      `  user ${node.user}, password ${node.password} (a fixed test password)`
    );
  }
  if (node.caFile) {
    console.log(
      `  its CA certificate (generated for this node): ${node.caFile}`
    );
  }
  const caArg = node.caFile ? ` ssl=verify-identity ca=${node.caFile}` : '';
  console.log(
    `  in a notebook: %connect elasticsearch ${node.url}${caArg}${node.password ? ` user=${node.user} password=...` : ''}`
  );
  console.log(`  log: ${node.log}; Ctrl-C stops the node and deletes its data`);
  const stop = (): void => {
    void node.stop().then(() => {
      rmSync(home, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (stdinAt >= 0) {
    process.stdin.once('end', stop).resume();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
