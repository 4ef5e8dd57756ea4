/**
 * An export's search answers read from their bytes, on the kernel's main thread or on a worker
 * thread (a sliced export's): each page's lines and documents (raw-hits.ts), and what the
 * cursor needs to go on (where the next page starts, the point in time, failed shards).
 */
import type { JsonValue } from '../../console/cell';
import { hasField } from '../../../../contracts/own-fields';
import { exactJson } from '../../../../contracts/exact-json';
import type {
  ExportPage,
  ExportPageReading,
  ReadExportPage
} from '../../driver-core/capabilities/export';
import type { GridDocument } from '../../driver-core/grid-columns';
import {
  type Allocate,
  ReusedBuffer
} from '../../driver-core/http/reused-buffer';
import {
  HitRanges,
  type RawHitsPage,
  readRawHits,
  type ScanScratch
} from './raw-hits';

/**
 * Where one cursor reads a page's hits into: its offsets, and two buffers its lines alternate
 * in. A page's lines are written to the file before the page after next is read (the file
 * layer waits for each write), so two are enough.
 */
export function cursorScratch(allocate?: Allocate): ScanScratch {
  const lines = [new ReusedBuffer(allocate), new ReusedBuffer(allocate)];
  let turn = 0;
  return {
    ranges: new HitRanges(),
    output: size => (lines[turn++ % 2] as ReusedBuffer).take(size)
  };
}

/** A search answer's page and its facts; undefined when the bytes are not a search answer. */
export function readExportPage(
  bytes: Buffer,
  scratch: ScanScratch
): (ReadExportPage & { raw: RawHitsPage }) | undefined {
  const raw = readRawHits(bytes, scratch);
  if (!raw) {
    return undefined;
  }
  return {
    raw,
    page: pageOf(raw),
    facts: {
      count: raw.count,
      next: raw.lastSort ? exactJson(raw.lastSort) : undefined,
      context: raw.pitId,
      failures: raw.shardFailures
    }
  };
}

/** The reading a worker thread loads (the descriptor's `loadExportPages`). */
export const elasticsearchExportPages: ExportPageReading = {
  cursor: allocate => {
    const scratch = cursorScratch(allocate);
    return bytes => readExportPage(bytes, scratch);
  }
};

export function pageOf(page: RawHitsPage): ExportPage {
  return {
    count: page.count,
    jsonl: () => page.jsonl,
    eachDocument: visit => page.eachHit(hit => visit(hitDocument(hit as Hit))),
    ...(page.eachHitText
      ? {
          eachDocumentText: visit =>
            page.eachHitText?.(visit, hit => hitDocument(hit as Hit))
        }
      : {})
  };
}

type Hit = { _index: string; _id: string; _source?: JsonValue };

/** The grid form of a hit (CSV): what its line holds, a hit without `_source` an empty one. */
function hitDocument(hit: Hit): GridDocument {
  return {
    meta: { _id: hit._id, _index: hit._index },
    source: hitSource(hit)
  };
}

function hitSource(hit: Hit): JsonValue {
  return hasField(hit, '_source') ? (hit._source as JsonValue) : {};
}
