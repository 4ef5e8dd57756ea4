/**
 * A page worker that ends as it is handed its second page, as a thread that ran out of memory
 * would: the kernel's own page worker, ended by its own process.exit (which on a worker thread
 * ends the thread alone). Started by test/export/page-threads.test.ts from dist/.
 */
import { parentPort } from 'node:worker_threads';
import { runExportPageWorker } from '../../kernel/src/export/page-worker-main';
import type { ToPageWorker } from '../../kernel/src/export/page-worker-protocol';

let pages = 0;
parentPort?.on('message', (message: ToPageWorker) => {
  if (message.kind === 'page' && ++pages === 2) {
    process.exit(70);
  }
});
runExportPageWorker();
