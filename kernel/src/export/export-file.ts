/**
 * Exports an index or collection into a file, engine-neutral: the `%export` magic and the side
 * panel's "Export…" both call exportToFile. Each export writes a temporary file of its own next
 * to the target, `<name>.searchbook-<random>.partial`, created exclusively; once complete it is
 * flushed to the disk and renamed over the name, so the file is whole or absent, never a mix of
 * two exports. The next page is read only once the previous one is accepted by the file
 * (backpressure), so memory stays flat whatever the size.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { JsonValue } from '../console/cell';
import type { GridView } from '../../../contracts/panel-protocol';
import { type Driver } from '../driver-core/driver';
import type { ExportStream } from '../driver-core/capabilities/export';
import { EngineError, InterruptedError } from '../driver-core/errors';
import {
  checkReplaceable,
  ExportRefused,
  fileSystemRefusal,
  refuseNul,
  resolveFolder
} from './export-target';
import { fileSystemErrorText, isFileSystemError } from './file-errors';
import { type ExportFormat, pageWriter } from './formats';
import { claimFile } from './running-exports';
import {
  collectNow,
  returnMemorySoon
} from '../driver-core/http/memory-return';

export { ExportRefused } from './export-target';

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
  /**
   * Which export this is, named to another export to the same file while this one runs, e.g.
   * `the %export of products in a cell`.
   */
  by?: string;
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
  /** What the engine said about the documents exported (ExportStream notes). */
  notes: string[];
}

/** A temporary file being written. */
export interface PartialFile {
  /** Resolves once all of `data` was handed to the system. */
  write(data: Buffer): Promise<void>;
  /** Flushes the file to the disk (fsync), then closes it. */
  commit(): Promise<void>;
  /** Closes it without flushing. */
  discard(): Promise<void>;
}

/** The file layer, replaceable in tests (a full disk). */
export interface ExportFiles {
  /** Creates and opens `path`, which must not exist yet (O_EXCL). */
  create(path: string): Promise<PartialFile>;
}

export const nodeFiles: ExportFiles = {
  create: async path => {
    const handle = await open(path, 'wx');
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= handle.close());
    return {
      write: async data => {
        // A write may take less than asked (a signal, a nearly full disk): the rest follows.
        for (let at = 0; at < data.length;) {
          const { bytesWritten } = await handle.write(data, at);
          if (bytesWritten === 0) {
            throw Object.assign(
              new Error(`ENOSPC: no space left on device, write '${path}'`),
              { code: 'ENOSPC', syscall: 'write', path }
            );
          }
          at += bytesWritten;
        }
      },
      commit: async () => {
        try {
          await handle.sync();
        } finally {
          await close();
        }
      },
      discard: () => close().catch(() => undefined)
    };
  }
};

export type StopCause = 'interrupted' | 'engine' | 'write';

/** The export stopped before the end: how far it got, and what is left on disk. */
export class ExportStopped extends Error {
  constructor(
    readonly stop: StopCause,
    readonly reason: string,
    readonly progress: ExportProgress,
    /** The export's temporary file (`<name>.searchbook-<random>.partial`). */
    readonly partial: string,
    /** Whether the temporary file is kept (interrupt, engine error) or was removed (a write error). */
    readonly kept: boolean,
    readonly ename: string
  ) {
    super(reason);
  }
}

export interface ExportHooks {
  signal: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  files?: ExportFiles;
}

/**
 * A long export collects its young garbage every this many bytes written, and all of it every
 * FULL_COLLECTION_EVERY times, so the kernel's peak stays the same at five million documents as
 * at a hundred thousand: a young collection takes about a millisecond, a full one tens, which
 * at every turn were a tenth of a CSV export's CPU.
 */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;
const FULL_COLLECTION_EVERY = 8;

/** Most filesystems allow 255 bytes in a name. */
const NAME_MAX = 255;

/** The export's own temporary file next to `file`: recognisable as searchbook's partial of that name. */
function partialPath(file: string): string {
  const suffix = `.searchbook-${randomBytes(4).toString('hex')}.partial`;
  // A long name is cut (whole characters) so that the temporary one stays a valid name.
  let name = [...basename(file)];
  while (
    name.length > 1 &&
    Buffer.byteLength(name.join('')) + suffix.length > NAME_MAX
  ) {
    name = name.slice(0, -1);
  }
  return join(dirname(file), `${name.join('')}${suffix}`);
}

export async function exportToFile(
  driver: Driver,
  options: ExportOptions,
  hooks: ExportHooks
): Promise<ExportSummary> {
  refuseNul(options.file);
  const file = await resolveFolder(options.file);
  const claim = claimFile(file, options.by ?? `an export of ${options.target}`);
  if (typeof claim === 'string') {
    throw new ExportRefused(
      'ExportRunning',
      `${options.file} is being written by another export (${claim}), so nothing was exported.`,
      "Wait for that export to end or stop it (■ on its cell, Cancel in the side panel's Exports), or name another file."
    );
  }
  try {
    await checkReplaceable(file, options.overwrite, exampleName(options));
    const partial = partialPath(file);
    let created: PartialFile;
    try {
      created = await (hooks.files ?? nodeFiles).create(partial);
    } catch (err) {
      throw fileSystemRefusal(err, 'creating', partial);
    }
    claim.writing(partial);
    try {
      return await writeExport(
        driver,
        options,
        hooks,
        file,
        partial,
        new FileOut(created)
      );
    } finally {
      // Page after page of garbage, whether the export ended or stopped.
      returnMemorySoon();
    }
  } finally {
    claim.release();
  }
}

/** A name to suggest instead of a directory or a device: the target's, in the export's format. */
function exampleName(options: ExportOptions): string {
  const name = basename(options.target.replace(/[*?,:]/g, '')) || 'export';
  return `${name}.${options.format}`;
}

async function writeExport(
  driver: Driver,
  options: ExportOptions,
  hooks: ExportHooks,
  file: string,
  partial: string,
  out: FileOut
): Promise<ExportSummary> {
  const started = performance.now();
  let stream: ExportStream;
  try {
    stream = await driver.export.open(
      {
        target: options.target,
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.fields ? { fields: options.fields } : {}),
        ...(options.slices ? { slices: options.slices } : {}),
        ...(options.view ? { view: options.view } : {})
      },
      hooks.signal
    );
  } catch (err) {
    // Refused before the first page: no file is left, as if the export had not begun.
    await out.destroy();
    await rm(partial, { force: true }).catch(() => undefined);
    throw err;
  }
  const progress: ExportProgress = {
    documents: 0,
    total: stream.total,
    bytes: 0,
    elapsedMs: 0
  };
  const writer = pageWriter(options.format, stream, options.fields);
  try {
    hooks.onProgress?.({ ...progress });
    let collected = 0;
    let collections = 0;
    for await (const page of stream.pages()) {
      await out.write(writer.page(page));
      progress.documents += page.count;
      progress.bytes = out.bytes;
      if (out.bytes - collected >= COLLECT_EVERY_BYTES) {
        collected = out.bytes;
        collectNow(++collections % FULL_COLLECTION_EVERY !== 0);
      }
      progress.elapsedMs = performance.now() - started;
      hooks.onProgress?.({ ...progress });
      if (hooks.signal.aborted) {
        break;
      }
    }
    if (hooks.signal.aborted) {
      throw new InterruptedError('interrupted');
    }
    await out.write(writer.end());
    await out.close();
    // The name may have become a directory, a pipe or a link while the export ran.
    await checkReplaceable(file, options.overwrite, exampleName(options));
    try {
      await rename(partial, file);
    } catch (err) {
      throw new FileStepFailed(err, `renaming ${partial} to`, file);
    }
    await syncFolder(dirname(file));
  } catch (err) {
    await stream.close();
    throw await stopped(
      err,
      out,
      partial,
      { ...progress, bytes: out.bytes, elapsedMs: performance.now() - started },
      hooks.signal
    );
  }
  await stream.close();
  return {
    ...progress,
    bytes: out.bytes,
    elapsedMs: performance.now() - started,
    file: options.file,
    leftOutColumns: [...writer.leftOut],
    notes: stream.notes ?? []
  };
}

/**
 * Makes the rename itself durable. Linux syncs a directory through a descriptor of it; where a
 * directory cannot be opened or synced (Windows), the file is in place all the same.
 */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close().catch(() => undefined);
}

/** A filesystem step after the last page failed (the complete file is kept). */
class FileStepFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly doing: string,
    readonly path: string
  ) {
    super(
      isFileSystemError(cause)
        ? fileSystemErrorText(cause, doing, path)
        : `${(cause as Error).message} (${doing} ${path})`
    );
  }
}

async function stopped(
  err: unknown,
  out: FileOut,
  partial: string,
  progress: ExportProgress,
  signal: AbortSignal
): Promise<ExportStopped> {
  if (out.failure) {
    // A full disk: the part written is of no use and takes the space the user needs back.
    await out.destroy();
    await rm(partial, { force: true }).catch(() => undefined);
    const reason = isFileSystemError(out.failure)
      ? fileSystemErrorText(out.failure, 'writing', partial)
      : `${out.failure.message} (writing ${partial})`;
    return new ExportStopped(
      'write',
      reason,
      progress,
      partial,
      false,
      'FilesystemError'
    );
  }
  await out.close().catch(() => out.destroy());
  if (signal.aborted) {
    return new ExportStopped(
      'interrupted',
      'interrupted',
      progress,
      partial,
      true,
      'Interrupted'
    );
  }
  // The name changed while the export ran (or the rename failed): the complete export stays in the temporary file.
  if (err instanceof ExportRefused) {
    return new ExportStopped(
      'write',
      `${err.found}, so it was not replaced`,
      progress,
      partial,
      true,
      err.ename
    );
  }
  if (err instanceof FileStepFailed) {
    return new ExportStopped(
      'write',
      err.message,
      progress,
      partial,
      true,
      'FilesystemError'
    );
  }
  if (err instanceof EngineError) {
    return new ExportStopped(
      'engine',
      err.message,
      progress,
      partial,
      true,
      err.ename
    );
  }
  return new ExportStopped(
    'engine',
    (err as Error).message,
    progress,
    partial,
    true,
    'ExportFailed'
  );
}

/** The temporary file as the export writes it: the first failure is kept, and every later step fails with it. */
class FileOut {
  bytes = 0;
  failure: Error | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly file: PartialFile) {}

  /**
   * Resolves once the data is handed to the system, not merely queued: a driver may then use the
   * page's buffer again (exports reuse their buffers), and no more than a page waits in memory.
   */
  async write(data: string | Buffer): Promise<void> {
    if (this.failure) {
      throw this.failure;
    }
    if (data.length === 0) {
      return;
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    try {
      await this.file.write(bytes);
    } catch (err) {
      this.failure ??= err as Error;
      throw err;
    }
    this.bytes += bytes.length;
  }

  /** Flushes the file to the disk and closes it; once, however often called. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.failure) {
        throw this.failure;
      }
      try {
        await this.file.commit();
      } catch (err) {
        // A disk that fills up may say so only when the data is flushed.
        this.failure ??= err as Error;
        throw err;
      }
    })();
    return this.closing;
  }

  async destroy(): Promise<void> {
    await this.file.discard();
  }
}
