/**
 * The messages between the kernel's main thread and the threads that make a sliced export's
 * pages (page-workers.ts, page-worker-main.ts): plain data both ways, the page bytes moved, not
 * copied.
 */
import type { ExportPageFacts } from '../driver-core/capabilities/export';
import type { CsvSetup, StreamColumns } from './formats';
import type { ExportFormat } from './formats';

export type ToPageWorker =
  /** An export begins: how its answers are read and written. */
  | {
      kind: 'export';
      export: number;
      engine: string;
      format: ExportFormat;
      fields: string[] | undefined;
      columns: StreamColumns;
    }
  /** One answer of a cursor; `setup` the CSV file's (its first page fixed it on the main thread). */
  | {
      kind: 'page';
      export: number;
      cursor: number;
      request: number;
      bytes: Uint8Array;
      setup: CsvSetup | undefined;
    }
  | { kind: 'end'; export: number };

export type FromPageWorker =
  /** The thread's code is loaded: pages may come. */
  | { ready: true }
  | {
      request: number;
      facts: ExportPageFacts | undefined;
      bytes: Uint8Array;
      leftOut: string[];
    }
  | { request: number; error: string };

/** The command line word that starts the kernel's script as a page worker. */
export const PAGE_WORKER_COMMAND = 'export-page-worker';
