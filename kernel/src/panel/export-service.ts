/**
 * The side panel's exports: the same engine-neutral export as `%export` (files relative to the
 * notebook's directory, `.partial` until complete, progress a few times a second), one at a
 * time per export id, each stoppable with `cancelExport`. Exports are not bound by the comm's
 * time limit for a request: a large index takes as long as it takes. They belong to the panel
 * (comm) that asked: when it closes, its exports stop, as a cancel would stop them.
 */
import { resolve } from 'node:path';
import type { Driver } from '../driver-core/driver';
import {
  type ExportProgress,
  ExportRefused,
  ExportStopped,
  exportToFile
} from '../export/export-file';
import {
  progressText,
  stoppedText,
  summaryText
} from '../export/progress-text';
import type {
  ExportProgressInfo,
  PanelExportReply,
  PanelExportRequest
} from '../../../contracts/export-protocol';
import type { GridView } from '../../../contracts/panel-protocol';

/** As `%export`: a few updates a second read as live progress without flooding the comm. */
const UPDATE_EVERY_MS = 250;

type ReplyBody<R> = R extends PanelExportReply
  ? Omit<R, 'v' | 'requestId'>
  : never;
export type ExportReplyBody = ReplyBody<PanelExportReply>;

export interface ExportSource {
  driver: Driver;
  /** The target and the view when the export is of an open grid. */
  grid?: { target: string; view: GridView };
}

/** An export's key: export ids are the panel's own, so two panels may use the same one. */
function runningKey(commId: string, exportId: string): string {
  return `${commId}\n${exportId}`;
}

export class PanelExports {
  private readonly running = new Map<
    string,
    { commId: string; controller: AbortController }
  >();

  /** Answers a panel's (comm's) export request; `progress` sends the messages that precede the answer. */
  async answer(
    commId: string,
    request: PanelExportRequest,
    source: (
      request: Extract<PanelExportRequest, { type: 'export' }>
    ) => ExportSource,
    progress: (body: ExportReplyBody) => Promise<void>
  ): Promise<ExportReplyBody> {
    const key = runningKey(commId, request.exportId);
    if (request.type === 'cancelExport') {
      this.running.get(key)?.controller.abort();
      return { type: 'exportCancelled', exportId: request.exportId };
    }
    if (this.running.has(key)) {
      throw new Error(
        `An export named ${request.exportId} is already running; give each export its own id.`
      );
    }
    const { driver, grid } = source(request);
    const target = grid?.target ?? request.target;
    const controller = new AbortController();
    this.running.set(key, { commId, controller });
    const info = (p: ExportProgress, text: string): ExportProgressInfo => ({
      documents: p.documents,
      total: p.total ?? null,
      bytes: p.bytes,
      elapsedMs: p.elapsedMs,
      text
    });
    let last = 0;
    let sending: Promise<void> = Promise.resolve();
    const onProgress = (p: ExportProgress) => {
      const now = performance.now();
      if (last !== 0 && now - last < UPDATE_EVERY_MS) {
        return;
      }
      last = now;
      sending = sending
        .then(() =>
          progress({
            type: 'exportProgress',
            exportId: request.exportId,
            progress: info(p, progressText(target, request.file, p))
          })
        )
        .catch(() => undefined);
    };
    try {
      const summary = await exportToFile(
        driver,
        {
          target,
          file: resolve(process.cwd(), request.file),
          format: request.format,
          overwrite: request.overwrite,
          by: `the side panel's export of ${target}`,
          ...(request.fields ? { fields: request.fields } : {}),
          ...(grid ? { view: grid.view } : {})
        },
        { signal: controller.signal, onProgress }
      );
      await sending;
      return {
        type: 'exported',
        exportId: request.exportId,
        file: summary.file,
        progress: info(summary, summaryText(target, request.file, summary))
      };
    } catch (err) {
      await sending;
      if (err instanceof ExportRefused) {
        throw new Error(`${err.message} ${err.dialogHint}`);
      }
      if (err instanceof ExportStopped) {
        throw new Error(stoppedText(target, request.file, err));
      }
      throw err;
    } finally {
      this.running.delete(key);
    }
  }

  /** Stops the exports a panel started: its comm closed, so no one is left to see them end. */
  cancelComm(commId: string): void {
    for (const run of this.running.values()) {
      if (run.commId === commId) {
        run.controller.abort();
      }
    }
  }

  /** Stops every export (the kernel is shutting down). */
  cancelAll(): void {
    for (const run of this.running.values()) {
      run.controller.abort();
    }
  }
}
