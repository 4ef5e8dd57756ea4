/**
 * `%export`: runs the engine-neutral export with one progress output updated in place
 * (display_id) and a final line; a stopped export says how far it got and fails the cell.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { ConsoleMagic } from '../console/cell';
import { EXPORT_USAGE } from '../console/export-args';
import {
  type ExportProgress,
  ExportRefused,
  ExportStopped,
  exportToFile
} from '../export/export-file';
import {
  progressBundle,
  progressText,
  stoppedText,
  summaryText
} from '../export/progress-text';
import { CellFailure, INTERRUPTED_CODE } from './cell-failure';
import type { MagicContext } from './magic-context';

/** Jupyter Server rate-limits iopub; a few updates a second read as live progress. */
const UPDATE_EVERY_MS = 250;

export async function exportMagic(
  magic: ConsoleMagic,
  { connections, sink, signal }: MagicContext
): Promise<void> {
  const args = magic.export;
  if (!args) {
    throw new CellFailure('InvalidMagic', `Write ${EXPORT_USAGE}.`);
  }
  const connection = connections.active;
  if (!connection) {
    throw new CellFailure(
      'NoConnection',
      `No connection is open, so nothing was exported.`,
      'Connect first with %connect, then run %export again.'
    );
  }
  // Jupyter starts the kernel in the notebook's directory, so relative names land next to the notebook.
  const file = resolve(process.cwd(), args.file);
  const displayId = randomUUID();
  let shown = false;
  let lastUpdate = 0;
  const show = async (text: string, progress: ExportProgress | undefined) => {
    // A sink that cannot update in place (a test, a silent run) gets only the final line.
    if (!sink.update) {
      return;
    }
    const bundle = progressBundle(text, progress);
    if (shown) {
      await sink.update(displayId, bundle);
    } else {
      await sink.display(bundle, displayId);
    }
    shown = true;
  };
  let pending: Promise<void> = Promise.resolve();
  const onProgress = (progress: ExportProgress) => {
    const now = performance.now();
    if (lastUpdate !== 0 && now - lastUpdate < UPDATE_EVERY_MS) {
      return;
    }
    lastUpdate = now;
    pending = pending
      .then(() =>
        show(progressText(args.target, args.file, progress), progress)
      )
      .catch(() => undefined);
  };
  try {
    const summary = await exportToFile(
      connection.driver,
      {
        target: args.target,
        file,
        format: args.format,
        overwrite: args.overwrite,
        by: `the %export of ${args.target} in a cell`,
        ...(args.fields ? { fields: args.fields } : {}),
        ...(args.slices ? { slices: args.slices } : {}),
        ...(args.body !== undefined ? { body: args.body } : {})
      },
      { signal, onProgress }
    );
    await pending;
    const text = summaryText(args.target, args.file, summary);
    if (shown) {
      await show(text, { ...summary, total: summary.documents });
    } else {
      await sink.display(progressBundle(text, undefined));
    }
  } catch (err) {
    await pending;
    if (err instanceof ExportRefused) {
      throw new CellFailure(err.ename, err.message, err.hint);
    }
    if (!(err instanceof ExportStopped)) {
      throw err;
    }
    const text = stoppedText(args.target, args.file, err);
    if (shown) {
      await show(text, err.progress);
    } else {
      await sink.display(progressBundle(text, err.progress));
    }
    throw new CellFailure(
      err.ename,
      text,
      undefined,
      err.stop === 'interrupted' ? INTERRUPTED_CODE : undefined
    );
  }
}
