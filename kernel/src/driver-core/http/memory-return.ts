/**
 * Memory given back after a large answer. V8 keeps the pages a large answer filled (its text,
 * its parsed values, the rows built from it) long after they hold nothing, collecting them only
 * as later allocations need, so a kernel that read one answer of 250 MB stayed at a gigabyte
 * while it sat idle. Once such an answer has been shown, a full collection is asked for, which
 * also returns the freed pages to the system; while the heap stays large (some of the answer
 * was still held, by a structure read still in flight for its grid), again a little later.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Answers of at least this many bytes are followed by a full collection. */
export const LARGE_ANSWER_BYTES = 32 * 1024 * 1024;
/** After the answer is shown and its cell done: a collection then finds it unreachable. */
const AFTER_MS = 1_000;
/** Collections again while the heap holds more than this, every RETRY_MS, at most RETRIES times. */
const LARGE_HEAP_BYTES = 64 * 1024 * 1024;
const RETRY_MS = 2_000;
const RETRIES = 4;

/** V8's gc(): a full collection, or with `type: 'minor'` only the young generation. */
type Collect = (options?: { type: 'minor' | 'major' }) => void;

let collect: Collect | undefined | null;
let pending: NodeJS.Timeout | undefined;

/** V8's own full collection, exposed once (Node starts without `--expose-gc`). */
function collector(): Collect | undefined {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    } catch {
      collect = null;
    }
  }
  return collect ?? undefined;
}

/** Asks for a full collection soon after an answer of `bytes` was read, when that is large. */
export function returnMemoryAfter(bytes: number): void {
  if (bytes >= LARGE_ANSWER_BYTES) {
    armCollection(AFTER_MS, RETRIES);
  }
}

/**
 * After work that read and wrote page after page (an export), collections at these times: the
 * first frees its buffers; V8 keeps its young generation at the size the work grew it to (32 MB)
 * until collections find the allocation rate low, which takes some seconds of quiet.
 */
const AFTER_WORK_MS = [AFTER_MS, 6_000, 7_000];
let afterWork: NodeJS.Timeout[] = [];

/**
 * A collection now, during long work that reads page after page (an export): what its pages
 * leave behind (socket chunks held while a page was written) is otherwise collected only once
 * it has piled up, tens of megabytes later. `young`: the young generation alone, where that
 * garbage mostly is, in a millisecond where a full collection takes tens; a full one now and
 * then still takes what was promoted.
 */
export function collectNow(young = false): void {
  collector()?.(young ? { type: 'minor' } : undefined);
}

/** Gives back the memory of work that allocated at a high rate (an export), once it has ended. */
export function returnMemorySoon(): void {
  afterWork.forEach(clearTimeout);
  afterWork = AFTER_WORK_MS.map(ms => {
    const timer = setTimeout(() => collector()?.(), ms);
    timer.unref();
    return timer;
  });
}

/**
 * Said when the work on an answer is done (a cell has shown it): a collection asked for is
 * put off until a moment after, so it runs once the answer is no longer held, not while it is.
 */
export function answerDone(): void {
  if (pending) {
    armCollection(AFTER_MS, RETRIES);
  }
}

function armCollection(afterMs: number, retries: number): void {
  clearTimeout(pending);
  pending = setTimeout(() => {
    pending = undefined;
    const run = collector();
    if (!run) {
      return;
    }
    run();
    if (retries > 0 && getHeapStatistics().used_heap_size > LARGE_HEAP_BYTES) {
      armCollection(RETRY_MS, retries - 1);
    }
  }, afterMs);
  pending.unref();
}
