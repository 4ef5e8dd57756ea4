/**
 * Exports an index or collection into a file, engine-neutral: the `%export` magic and the side
 * panel's "Export…" both call exportToFile. The file is written as `<file>.partial` and renamed
 * when complete; the next page is read only once the previous one is accepted by the file
 * (backpressure), so memory stays flat whatever the size.
 */
import { constants, createWriteStream } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { JsonValue } from '../console/cell';
import type { GridView } from '../grid/grid-protocol';
import { type Driver, EngineError } from '../drivers/driver';
import type { ExportStream } from '../drivers/export-stream';
import { type ExportFormat, pageWriter } from './formats';

export interface ExportOptions {
  target: string;
  /** Absolute path of the finished file. */
  file: string;
  format: ExportFormat;
  fields?: string[];
  slices?: number;
  body?: JsonValue;
  /** A grid's view whose filter narrows the export (the side panel's "Export…" on a grid). */
  view?: GridView;
  overwrite: boolean;
}

export interface ExportProgress {
  documents: number;
  /** Documents the export will hold, when the engine said. */
  total: number | undefined;
  bytes: number;
  elapsedMs: number;
}

export interface ExportSummary extends ExportProgress {
  file: string;
  /** CSV: document fields that appeared after the header was written, so not in the file. */
  leftOutColumns: string[];
}

/** The file layer, replaceable in tests (a full disk). */
export interface ExportFiles {
  exists(path: string): Promise<boolean>;
  open(path: string): Writable;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
}

export const nodeFiles: ExportFiles = {
  exists: (path) => access(path, constants.F_OK).then(() => true, () => false),
  open: (path) => createWriteStream(path, { flags: 'w', highWaterMark: 1 << 20 }),
  rename,
  remove: (path) => rm(path, { force: true }),
};

export type StopCause = 'interrupted' | 'engine' | 'write';

/** The export stopped before the end: how far it got, and what is left on disk. */
export class ExportStopped extends Error {
  constructor(
    readonly stop: StopCause,
    readonly reason: string,
    readonly progress: ExportProgress,
    /** The `.partial` file kept (interrupt, engine error) or undefined when it was removed (a write error). */
    readonly partial: string | undefined,
    readonly ename: string,
  ) {
    super(reason);
  }
}

export class ExportRefused extends Error {
  constructor(
    readonly ename: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export interface ExportHooks {
  signal: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  files?: ExportFiles;
}

export async function exportToFile(driver: Driver, options: ExportOptions, hooks: ExportHooks): Promise<ExportSummary> {
  const files = hooks.files ?? nodeFiles;
  if (!options.overwrite && (await files.exists(options.file))) {
    throw new ExportRefused('FileExists', `${options.file} exists, so nothing was exported.`, 'Add overwrite to the %export line to replace it, or name another file.');
  }
  const folder = dirname(options.file);
  if (!(await files.exists(folder))) {
    throw new ExportRefused('NoSuchDirectory', `The folder ${folder} does not exist, so nothing was exported.`, 'Create it first, or name a file in a folder that exists (a relative name is written next to the notebook).');
  }
  const started = performance.now();
  const stream = await driver.exportStream(
    { target: options.target, ...(options.body !== undefined ? { body: options.body } : {}), ...(options.fields ? { fields: options.fields } : {}), ...(options.slices ? { slices: options.slices } : {}), ...(options.view ? { view: options.view } : {}) },
    hooks.signal,
  );
  const partial = `${options.file}.partial`;
  const progress: ExportProgress = { documents: 0, total: stream.total, bytes: 0, elapsedMs: 0 };
  const writer = pageWriter(options.format, stream, options.fields);
  const out = new FileOut(files.open(partial));
  try {
    hooks.onProgress?.({ ...progress });
    for await (const page of stream.pages()) {
      await out.write(writer.page(page));
      progress.documents += page.count;
      progress.bytes = out.bytes;
      progress.elapsedMs = performance.now() - started;
      hooks.onProgress?.({ ...progress });
      if (hooks.signal.aborted) break;
    }
    if (hooks.signal.aborted) throw new EngineError('Interrupted', 'interrupted');
    await out.write(writer.end());
    await out.close();
    await files.rename(partial, options.file);
  } catch (err) {
    await stream.close();
    throw await stopped(err, out, files, partial, { ...progress, bytes: out.bytes, elapsedMs: performance.now() - started }, hooks.signal);
  }
  await stream.close();
  return { ...progress, bytes: out.bytes, elapsedMs: performance.now() - started, file: options.file, leftOutColumns: [...writer.leftOut] };
}

async function stopped(err: unknown, out: FileOut, files: ExportFiles, partial: string, progress: ExportProgress, signal: AbortSignal): Promise<ExportStopped> {
  if (out.failure) {
    // A full disk: the part written is of no use and takes the space the user needs back.
    out.destroy();
    await files.remove(partial).catch(() => undefined);
    return new ExportStopped('write', out.failure.message, progress, undefined, 'WriteFailed');
  }
  await out.close().catch(() => out.destroy());
  if (signal.aborted) return new ExportStopped('interrupted', 'interrupted', progress, partial, 'Interrupted');
  if (err instanceof EngineError) return new ExportStopped('engine', err.message, progress, partial, err.ename);
  return new ExportStopped('engine', (err as Error).message, progress, partial, 'ExportFailed');
}

/** A file stream whose errors are kept (not thrown at the process) and whose writes wait for drain. */
class FileOut {
  bytes = 0;
  failure: Error | undefined;

  constructor(private readonly stream: Writable) {
    stream.on('error', (err: Error) => {
      this.failure ??= err;
    });
  }

  /**
   * Resolves once the data is on its way to the disk, not merely queued: a driver may then use
   * the page's buffer again (exports reuse their buffers), and no more than a page waits in memory.
   */
  async write(data: string | Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (data.length === 0) return;
    this.bytes += typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
    await new Promise<void>((resolve) => {
      this.stream.write(data, (err) => {
        if (err) this.failure ??= err;
        resolve();
      });
    });
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    if (this.failure) throw this.failure;
    this.stream.end();
    await finished(this.stream);
  }

  destroy(): void {
    this.stream.destroy();
  }
}
