/**
 * A worker thread that makes a sliced export's pages: each answer a cursor received is read by
 * its engine's page reader (the descriptor's `loadExportPages`) and written in the file's
 * format, exactly as the main thread would, the bytes sent back to be written in turn.
 */
import { parentPort } from 'node:worker_threads';
import type {
  ExportPageReading,
  ReadExportPage
} from '../driver-core/capabilities/export';
import { engineNamed } from '../engines/engine-registry';
import { sharedBytes } from '../driver-core/http/reused-buffer';
import { collectNow } from '../driver-core/http/memory-return';
import { CsvWriter, type PageWriter, pageWriter } from './formats';
import type { FromPageWorker, ToPageWorker } from './page-worker-protocol';

type Export = Extract<ToPageWorker, { kind: 'export' }>;

/** What one export keeps on this thread: its reading, and a reader and writer a cursor. */
interface Running {
  started: Export;
  reading: Promise<ExportPageReading>;
  cursors: Map<
    number,
    { read: (bytes: Buffer) => ReadExportPage | undefined; writer: PageWriter }
  >;
}

export function runExportPageWorker(): void {
  const port = parentPort;
  if (!port) {
    throw new Error('export-page-worker runs only on a kernel worker thread');
  }
  const running = new Map<number, Running>();
  port.postMessage({ ready: true } satisfies FromPageWorker);
  port.on('message', (message: ToPageWorker) => {
    if (message.kind === 'export') {
      const reading = loadReading(message.engine);
      // Its failure is the first page's to report.
      reading.catch(() => undefined);
      running.set(message.export, {
        started: message,
        reading,
        cursors: new Map()
      });
      return;
    }
    if (message.kind === 'end') {
      running.delete(message.export);
      // The export's buffers are shared memory, freed once neither thread holds them: this
      // thread allocates too little for its collector to run by itself before the next export.
      if (running.size === 0) {
        collectNow();
      }
      return;
    }
    void made(running.get(message.export), message).then(
      reply => {
        const moved =
          'bytes' in reply && !(reply.bytes.buffer instanceof SharedArrayBuffer)
            ? [reply.bytes.buffer as ArrayBuffer]
            : [];
        port.postMessage(reply, moved);
      },
      (err: unknown) =>
        port.postMessage({
          request: message.request,
          error: err instanceof Error ? err.message : String(err)
        } satisfies FromPageWorker)
    );
  });
}

async function loadReading(engine: string): Promise<ExportPageReading> {
  const load = engineNamed(engine).loadExportPages;
  if (!load) {
    throw new Error(`${engine} reads no export pages on a worker thread`);
  }
  return load();
}

async function made(
  run: Running | undefined,
  message: Extract<ToPageWorker, { kind: 'page' }>
): Promise<FromPageWorker> {
  if (!run) {
    throw new Error('a page came for an export that has ended');
  }
  const reading = await run.reading;
  let cursor = run.cursors.get(message.cursor);
  if (!cursor) {
    const { format, fields, columns } = run.started;
    // Pages are made in shared memory the main thread writes from: one buffer or two a cursor.
    cursor = {
      read: reading.cursor(sharedBytes),
      // A JSON array's elements are made from the JSONL lines on the main thread.
      writer: pageWriter(
        format === 'csv' ? 'csv' : 'jsonl',
        columns,
        fields,
        sharedBytes
      )
    };
    run.cursors.set(message.cursor, cursor);
  }
  const { writer } = cursor;
  const bytes = Buffer.from(
    message.bytes.buffer,
    message.bytes.byteOffset,
    message.bytes.byteLength
  );
  const read = cursor.read(bytes);
  const empty = {
    request: message.request,
    facts: read?.facts,
    bytes: new Uint8Array(0),
    leftOut: []
  };
  // An empty page (a cursor's last) writes nothing.
  if (!read || read.facts.count === 0) {
    return empty;
  }
  const csv = writer instanceof CsvWriter ? writer : undefined;
  if (csv && !csv.setup) {
    if (!message.setup) {
      throw new Error('a CSV page came before the file had its header');
    }
    csv.adopt(message.setup);
  }
  const written = writer.page(read.page);
  const out = inPlace(
    typeof written === 'string' ? Buffer.from(written) : written
  );
  const leftOut = csv ? [...csv.leftOut] : [];
  csv?.leftOut.clear();
  return { ...empty, bytes: out, leftOut };
}

/**
 * The page's bytes as the main thread reads them: in place when they are in shared memory (the
 * writer's buffers; valid until this cursor's next page, which comes once they are written),
 * else a copy of their own to be moved.
 */
function inPlace(data: Buffer): Uint8Array {
  if (data.buffer instanceof SharedArrayBuffer) {
    return data;
  }
  const out = new Uint8Array(data.length);
  out.set(data);
  return out;
}
