/**
 * Build step: writes dist/catalog/elasticsearch-endpoints.json from Elastic's schema.json, so the
 * kernel reads ~100 KB on first completion instead of parsing 11 MB.
 * Run after tsc: `node dist/kernel/src/engines/elasticsearch/build-endpoint-catalog.js`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { extractCatalog } from './endpoint-catalog';
import { compactCatalogPath, specPath } from './endpoints';

async function main(): Promise<void> {
  const catalog = extractCatalog(
    JSON.parse(await readFile(specPath(), 'utf8'))
  );
  const target = compactCatalogPath();
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, JSON.stringify(catalog));
  process.stdout.write(
    `Wrote ${catalog.length} Elasticsearch endpoints to ${target}\n`
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Could not build the Elasticsearch endpoint catalog: ${String(error)}\n`
  );
  process.exitCode = 1;
});
