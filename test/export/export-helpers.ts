import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Driver } from '../../kernel/src/drivers/driver';
import { type ExportFiles, type ExportOptions, ExportStopped, type ExportSummary, exportToFile, nodeFiles } from '../../kernel/src/export/export-file';

export const scratchDir = (): string => mkdtempSync(join(tmpdir(), 'searchbook-export-'));

export function run(driver: Driver, options: Partial<ExportOptions> & Pick<ExportOptions, 'target' | 'file'>, hooks: { signal?: AbortSignal; files?: ExportFiles; onProgress?: Parameters<typeof exportToFile>[2]['onProgress'] } = {}): Promise<ExportSummary> {
  return exportToFile(driver, { format: 'jsonl', overwrite: false, ...options }, { signal: hooks.signal ?? new AbortController().signal, ...(hooks.files ? { files: hooks.files } : {}), ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}) });
}

export async function stoppedBy(promise: Promise<unknown>): Promise<ExportStopped> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ExportStopped) return err;
    throw err;
  }
  throw new Error('the export finished, but it was expected to stop');
}

/** Files that fail with ENOSPC once `limit` bytes were written: a full disk, at the file layer. */
export function fullDiskAfter(limit: number): ExportFiles {
  return {
    ...nodeFiles,
    open: (path) => {
      const real = nodeFiles.open(path);
      let written = 0;
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          if (written > limit) {
            done(Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' }));
            return;
          }
          real.write(chunk, done);
        },
        final(done) {
          real.end(done);
        },
        destroy(err, done) {
          real.destroy();
          done(err);
        },
      });
    },
  };
}

/** RFC 4180 records (quoted fields, doubled quotes, CRLF), for checking what the CSV export wrote. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}
