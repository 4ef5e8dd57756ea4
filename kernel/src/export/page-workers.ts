/**
 * The worker threads a sliced export's pages are made on: each cursor's answers are read and
 * written in the file's format there (page-worker-main.ts), so that the cursors use the cores
 * the main thread leaves, while it only receives answers and writes the file. The threads are started from
 * the kernel's own script, as expression workers are, and kept a few seconds after an export
 * for the next one. Until a thread is ready, and for CSV until the file's first page has fixed
 * its header on the main thread, pages are read there as with one cursor; the threads then
 * take up the header's setup, so the lines are those one thread would write.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  ExportStream,
  PageConversion
} from '../driver-core/capabilities/export';
import { CsvWriter, type ExportFormat, type PageWriter } from './formats';
import {
  type FromPageWorker,
  PAGE_WORKER_COMMAND,
  type ToPageWorker
} from './page-worker-protocol';

let script: string | undefined;

/** The kernel's script, which starts page workers (`searchbook export-page-worker`); unset, pages are made on the main thread. */
export function makeExportPagesWith(searchbookScript: string): void {
  script = searchbookScript;
}

/** Threads left idle this long are ended, and their memory given back. */
const IDLE_MS = 5_000;
const MAX_THREADS = 4;
/**
 * A page's lines are made in buffers, so little of a thread's heap lives long: a small young
 * generation keeps each thread's memory near its code's.
 */
const YOUNG_MB = 4;

type Reply = Extract<FromPageWorker, { facts: unknown }>;

/** One worker thread and the pages it is making. */
class PageThread {
  readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (err: Error) => void }
  >();
  /** Exports this thread was told of. */
  readonly knows = new Set<number>();
  failed: Error | undefined;
  /** Once its code is loaded (its first message says so). */
  ready = false;

  constructor(from: string, onEnd: (thread: PageThread) => void) {
    this.worker = new Worker(from, {
      argv: [PAGE_WORKER_COMMAND],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB }
    });
    // An idle thread never keeps the kernel's process alive.
    this.worker.unref();
    this.worker.on('message', (reply: FromPageWorker) => {
      if ('ready' in reply) {
        this.ready = true;
        return;
      }
      const waiting = this.pending.get(reply.request);
      this.pending.delete(reply.request);
      if ('error' in reply) {
        waiting?.reject(new Error(reply.error));
      } else {
        waiting?.resolve(reply);
      }
    });
    const ended = (err: Error) => {
      this.failed ??= err;
      for (const waiting of this.pending.values()) {
        waiting.reject(this.failed);
      }
      this.pending.clear();
      onEnd(this);
    };
    this.worker.on('error', err =>
      ended(
        new Error(
          `The thread that makes the export's pages failed (${err.message}); run the export again, or with slices=1 to read it on the kernel's own thread.`
        )
      )
    );
    this.worker.on('exit', code =>
      ended(
        new Error(
          `The thread that makes the export's pages ended (exit code ${code}); run the export again, or with slices=1 to read it on the kernel's own thread.`
        )
      )
    );
  }

  send(message: ToPageWorker, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  ask(
    message: Extract<ToPageWorker, { kind: 'page' }>,
    transfer: ArrayBuffer[]
  ): Promise<Reply> {
    if (this.failed) {
      return Promise.reject(this.failed);
    }
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(message.request, { resolve, reject });
      this.send(message, transfer);
    });
  }
}

class PageThreads {
  private threads: PageThread[] = [];
  /** The script the threads were started from. */
  private from: string | undefined;
  private running = 0;
  private idle: NodeJS.Timeout | undefined;
  private exports = 0;
  private requests = 0;

  /** Threads for an export of `cursors` cursors: one a cursor, no more than the cores but one. */
  begin(from: string, cursors: number): { id: number; threads: PageThread[] } {
    clearTimeout(this.idle);
    this.running++;
    if (from !== this.from) {
      this.endThreads();
      this.from = from;
    }
    // The main thread keeps a core to receive answers and write the file.
    const wanted = Math.min(cursors, MAX_THREADS, availableParallelism() - 1);
    while (this.threads.length < wanted) {
      this.threads.push(
        new PageThread(from, thread => {
          this.threads = this.threads.filter(t => t !== thread);
        })
      );
    }
    return { id: ++this.exports, threads: this.threads.slice(0, wanted) };
  }

  nextRequest(): number {
    return ++this.requests;
  }

  end(): void {
    if (--this.running > 0) {
      return;
    }
    this.idle = setTimeout(() => this.endThreads(), IDLE_MS);
    this.idle.unref();
  }

  endThreads(): void {
    const threads = this.threads;
    this.threads = [];
    for (const thread of threads) {
      thread.worker.removeAllListeners('exit');
      void thread.worker.terminate();
    }
  }
}

const pool = new PageThreads();

/** Ends the idle page threads now rather than after IDLE_MS (an embedding process that is done). */
export function endPageThreads(): void {
  pool.endThreads();
}

/**
 * Pages made on worker threads for `stream`'s cursors, when the engine offers it and the export
 * reads more than one cursor; undefined otherwise (pages are made on the main thread). `end`
 * once the export is over.
 */
export function threadedPages(
  stream: ExportStream,
  format: ExportFormat,
  fields: string[] | undefined,
  /** The file's writer: a CSV header it has fixed is taken up by the threads. */
  writer: PageWriter
): { conversion: PageConversion; end(): void } | undefined {
  const off = stream.offThread;
  // One core: a thread would only take turns with the main thread.
  if (!script || !off || off.cursors < 2 || availableParallelism() < 2) {
    return undefined;
  }
  const { id, threads } = pool.begin(script, off.cursors);
  const started: ToPageWorker = {
    kind: 'export',
    export: id,
    engine: off.engine,
    format,
    fields,
    columns: { tree: stream.tree, leading: stream.leading }
  };
  const csv = writer instanceof CsvWriter ? writer : undefined;

  return {
    conversion: {
      convert: async (cursor, bytes, signal) => {
        const thread = threads[cursor % threads.length] as PageThread;
        // Pages are read on the main thread while the thread starts (an export of a few pages
        // may end before it is ready), and for CSV until the first page has fixed the header.
        const setup = csv?.setup;
        if (!thread.ready || (csv && !setup)) {
          return undefined;
        }
        if (!thread.knows.has(id)) {
          thread.knows.add(id);
          thread.send(started);
        }
        // Shared memory the thread reads in place (the cursor fills it again only once this
        // page is written); other bytes are copied into a buffer of their own, moved there.
        const shared = bytes.buffer instanceof SharedArrayBuffer;
        const moved = shared ? bytes : Uint8Array.from(bytes);
        const reply = await abortable(
          thread.ask(
            {
              kind: 'page',
              export: id,
              cursor,
              request: pool.nextRequest(),
              bytes: moved,
              setup
            },
            shared ? [] : [moved.buffer as ArrayBuffer]
          ),
          signal
        );
        return {
          facts: reply.facts,
          bytes: Buffer.from(
            reply.bytes.buffer,
            reply.bytes.byteOffset,
            reply.bytes.byteLength
          ),
          leftOut: reply.leftOut
        };
      }
    },
    end: () => {
      for (const thread of threads) {
        if (thread.knows.delete(id)) {
          thread.send({ kind: 'end', export: id });
        }
      }
      pool.end();
    }
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(new Error('The export stopped.'));
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(new Error('The export stopped.'));
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(
      value => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(err as Error);
      }
    );
  });
}
