/**
 * The page's heap as DevTools' Memory tab takes it, and what it holds: for telling how many
 * copies of a text a page keeps, which no script in the page can see (strings are compared by
 * value).
 */
import type { CDPSession } from 'playwright-core';

/** A heap snapshot of the page, after a collection: only what something still holds. */
export async function takeHeapSnapshot(cdp: CDPSession): Promise<string> {
  const chunks: string[] = [];
  const collect = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', collect);
  }
  return chunks.join('');
}

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]] };
  };
  nodes: number[];
  strings: string[];
}

/**
 * The sizes in bytes of the strings held in the heap whose text starts with `prefix` (the
 * snapshot keeps a string's first kilobyte or so as its name): one entry per copy.
 */
export function heldStrings(snapshotText: string, prefix: string): number[] {
  const { snapshot, nodes, strings } = JSON.parse(snapshotText) as Snapshot;
  const fields = snapshot.meta.node_fields;
  const width = fields.length;
  const type = fields.indexOf('type');
  const name = fields.indexOf('name');
  const size = fields.indexOf('self_size');
  const stringType = snapshot.meta.node_types[0].indexOf('string');
  const sizes: number[] = [];
  for (let at = 0; at < nodes.length; at += width) {
    if (
      nodes[at + type] === stringType &&
      strings[nodes[at + name] ?? -1]?.startsWith(prefix)
    ) {
      sizes.push(nodes[at + size] ?? 0);
    }
  }
  return sizes;
}
