/**
 * What the real-node suites of the panel's grid and `%export` share: an index of numbered documents (`d0`, `d1`… with a number `n`), a kernel whose panel
 * comm is connected to the node, the comm's grid requests, and reads of what the engine holds
 * and what an export wrote, checked against each other by the suites.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { GridReply } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import {
  fetchFromNode,
  jsonFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';

export type Opened = Extract<GridReply, { type: 'opened' }>;

/** Bulk lines (an action and a source, a pair a document) for documents `d0`… `d<count - 1>`. */
export const numberedDocuments = (
  count: number,
  source: (n: number) => Record<string, unknown>
): string[] =>
  Array.from(
    { length: count },
    (_, n) =>
      `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify(source(n))}\n`
  );

/** Loads bulk lines into `index` in bulks of 5,000 documents, refreshed; an item the engine refuses fails the load. */
export async function bulkLoad(
  node: RealNodeAddress,
  index: string,
  pairs: string[]
): Promise<void> {
  for (let start = 0; start < pairs.length; start += 5_000) {
    const answer = z
      .object({ errors: z.boolean() })
      .loose()
      .parse(
        await jsonFromNode(
          node,
          'POST',
          `/${index}/_bulk?refresh=true`,
          pairs.slice(start, start + 5_000).join('')
        )
      );
    if (answer.errors) {
      throw new Error(`the bulk load of ${index} had refused items`);
    }
  }
}

/** Creates `index` (two shards, no replica) with `mappings` and loads `pairs` into it. */
export async function createIndex(
  node: RealNodeAddress,
  index: string,
  mappings: Record<string, unknown>,
  pairs: string[]
): Promise<void> {
  await jsonFromNode(
    node,
    'PUT',
    `/${index}`,
    JSON.stringify({
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings
    })
  );
  await bulkLoad(node, index, pairs);
}

/** A kernel that ran `connect` (a `%connect` line) with a grid comm on it, writing exports in `dir`. */
export const gridKernel = (
  connect: string,
  dir: string
): Promise<{ kernel: KernelClient; comm: PanelCommClient }> =>
  kernelWithPanelComm([connect], { ...SECRETS }, { cwd: dir });

/** Closes the kernel, deletes `indices` (names or patterns) on the node and removes `dir`. */
export async function cleanUp(
  kernel: KernelClient | undefined,
  node: RealNodeAddress | undefined,
  indices: string[],
  dir: string
): Promise<void> {
  await kernel?.close();
  if (node) {
    for (const name of indices) {
      await fetchFromNode(node, `/${name}`, { method: 'DELETE' });
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** The panel's grid requests on one target, over the comm the suite opens in its set-up. */
export function gridCalls(
  comm: () => PanelCommClient,
  grid: { connection: string; target: string; blockSize: number }
) {
  const open = (view?: Record<string, unknown>) =>
    comm().expect(
      {
        type: 'open',
        connection: grid.connection,
        target: grid.target,
        blockSize: grid.blockSize,
        ...(view ? { view } : {})
      },
      'opened'
    );
  return {
    open,
    read: async (opened: Opened, block: number) =>
      (
        await comm().expect(
          { type: 'read', gridId: opened.gridId, block },
          'block'
        )
      ).block,
    close: (opened: Opened) =>
      comm().expect({ type: 'close', gridId: opened.gridId }, 'closed'),
    /** A grid filtered to the document numbered `n`, with that row's key, version and values. */
    openDocument: async (n: number) => {
      const opened = await open({
        filters: [{ column: 'n', operator: 'equals', value: String(n) }]
      });
      return {
        grid: opened,
        row: opened.first.keys?.[0],
        version: opened.first.versions?.[0],
        values: opened.first.rows[0]
      };
    }
  };
}

const PitList = z.object({ pits: z.array(z.unknown()) }).loose();

/** Points in time open on an OpenSearch node, by its own list. */
export const openPits = async (node: RealNodeAddress): Promise<number> =>
  PitList.parse(await jsonFromNode(node, 'GET', '/_search/point_in_time/_all'))
    .pits.length;

const SearchPage = z.object({
  hits: z.object({
    hits: z.array(
      z.object({
        _id: z.string(),
        _source: z.record(z.string(), z.unknown()),
        sort: z.array(z.unknown())
      })
    )
  })
});

/**
 * Every document of an index (at most `docs`) as the engine stores it, by id: pages of 5,000
 * sorted by `n`, by search_after past the 10,000 window; `body` adds to each search.
 */
export async function everyDocument(
  node: RealNodeAddress,
  index: string,
  docs: number,
  body: Record<string, unknown> = {}
): Promise<Map<string, Record<string, unknown>>> {
  const documents = new Map<string, Record<string, unknown>>();
  let after: unknown[] | undefined;
  for (let page = 0; page < docs / 5_000 + 1; page++) {
    const { hits } = SearchPage.parse(
      await jsonFromNode(
        node,
        'POST',
        `/${index}/_search`,
        JSON.stringify({
          size: 5_000,
          sort: [{ n: 'asc' }],
          ...body,
          ...(after ? { search_after: after } : {})
        })
      )
    );
    for (const hit of hits.hits) {
      documents.set(hit._id, hit._source);
    }
    after = hits.hits.at(-1)?.sort;
    if (hits.hits.length < 5_000) {
      break;
    }
  }
  return documents;
}

/** The lines of a JSONL file an export wrote in `dir`, parsed. */
export const exportedLines = (dir: string, file: string): unknown[] =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line) as unknown);

/** Creates `copy` with `mappings` and loads exported lines into it under their ids. */
export async function reimport(
  node: RealNodeAddress,
  copy: string,
  mappings: Record<string, unknown>,
  lines: Array<{ _id: string; _source: unknown }>
): Promise<void> {
  await jsonFromNode(node, 'PUT', `/${copy}`, JSON.stringify({ mappings }));
  await bulkLoad(
    node,
    copy,
    lines.map(
      l =>
        `${JSON.stringify({ index: { _id: l._id } })}\n${JSON.stringify(l._source)}\n`
    )
  );
}
