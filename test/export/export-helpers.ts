import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Driver } from '../../kernel/src/driver-core/driver';
import {
  type ExportFiles,
  type ExportOptions,
  ExportStopped,
  type ExportSummary,
  exportToFile,
  nodeFiles
} from '../../kernel/src/export/export-file';
import { scratchDir as newScratchDir } from '../support/scratch-dir';

/** A folder for a test's export files, removed when the test file ends. */
export const scratchDir = (): string => newScratchDir('searchbook-export-');

/** The export's own temporary file name for `name`: `<name>.searchbook-<8 hex digits>.partial`. */
export const partialPattern = (name: string): RegExp =>
  new RegExp(
    `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.searchbook-[0-9a-f]{8}\\.partial$`
  );

/** The temporary files of exports to `name` left in `dir` (full paths). */
export function partialsOf(dir: string, name: string): string[] {
  return readdirSync(dir)
    .filter(f => partialPattern(name).test(f))
    .map(f => join(dir, f));
}

export function run(
  driver: Driver,
  options: Partial<ExportOptions> & Pick<ExportOptions, 'target' | 'file'>,
  hooks: {
    signal?: AbortSignal;
    files?: ExportFiles;
    onProgress?: Parameters<typeof exportToFile>[2]['onProgress'];
  } = {}
): Promise<ExportSummary> {
  return exportToFile(
    driver,
    { format: 'jsonl', overwrite: false, ...options },
    {
      signal: hooks.signal ?? new AbortController().signal,
      ...(hooks.files ? { files: hooks.files } : {}),
      ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {})
    }
  );
}

export async function stoppedBy(
  promise: Promise<unknown>
): Promise<ExportStopped> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ExportStopped) {
      return err;
    }
    throw err;
  }
  throw new Error('the export finished, but it was expected to stop');
}

/** Files that fail with ENOSPC once `limit` bytes were written: a full disk, at the file layer. */
export function fullDiskAfter(limit: number): ExportFiles {
  return {
    create: async path => {
      const real = await nodeFiles.create(path);
      let written = 0;
      return {
        ...real,
        write: async data => {
          written += data.length;
          if (written > limit) {
            throw Object.assign(
              new Error(`ENOSPC: no space left on device, write '${path}'`),
              { code: 'ENOSPC', syscall: 'write' }
            );
          }
          await real.write(data);
        }
      };
    }
  };
}

export { parseCsv } from '../support/parse-csv';
