/**
 * Elasticsearch endpoints for completion and inspection, loaded on first use (never at kernel
 * start): the compact catalog written at build time, or Elastic's full schema.json if the
 * build step has not run.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type CatalogEntry,
  EndpointCatalog,
  extractCatalog
} from './endpoint-catalog';

/** The package root: the nearest folder above this file holding package.json. */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) {
      return process.cwd();
    }
    dir = parent;
  }
  return dir;
}

export function compactCatalogPath(): string {
  return join(packageRoot(), 'dist', 'catalog', 'elasticsearch-endpoints.json');
}

export function specPath(): string {
  return require.resolve('@elastic/request-converter/dist/schema.json');
}

async function readCatalog(): Promise<CatalogEntry[]> {
  try {
    return EndpointCatalog.parse(
      JSON.parse(await readFile(compactCatalogPath(), 'utf8'))
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  return extractCatalog(JSON.parse(await readFile(specPath(), 'utf8')));
}

let loading: Promise<CatalogEntry[]> | undefined;

export function loadEndpoints(): Promise<CatalogEntry[]> {
  loading ??= readCatalog().catch((error: unknown) => {
    // Let a later call retry instead of caching the failure.
    loading = undefined;
    throw error;
  });
  return loading;
}
