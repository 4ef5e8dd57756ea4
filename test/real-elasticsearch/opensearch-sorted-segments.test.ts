/**
 * OpenSearch 2.19.1 skips a shard or a segment whose values of the first sort field all come
 * before a `search_after` value unless the sort says where missing values go, and the rows
 * there lacking the field sort after it. On indices written in several refreshed parts (a few
 * segments to each shard) with rows lacking each field, a grid sorted by a double, a date, an
 * integer, a long or a keyword, going up or down, scrolled block by block past a result window
 * of 25 rows, shows every document once.
 */
import { randomUUID } from 'node:crypto';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import {
  jsonFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import type { PanelCommClient } from '../panel/panel-comm-client';
import { scratchDir } from '../support/scratch-dir';
import {
  bulkLoad,
  cleanUp,
  gridCalls,
  gridKernel,
  numberedDocuments
} from './grid-node';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNode = skipped ? describe.skip : describe;
const TITLE =
  'OpenSearch 2.19.1: a grid sorted by a field some documents lack, over shards of several segments, shows every document';

const WINDOW = 25;
const BLOCK = 10;

/** Shards, refreshed parts written, documents, and the seed their values are drawn with. */
const LAYOUTS = [
  { shards: 2, parts: 2, docs: 274, seed: 2 },
  { shards: 2, parts: 3, docs: 311, seed: 3 },
  { shards: 3, parts: 5, docs: 348, seed: 4 }
];

/** Each field lacking from some documents, its values spread by a hash of the document's number. */
function source(n: number, seed: number): Record<string, unknown> {
  const h = (n * 2654435761 * seed) >>> 0;
  return {
    ...(h % 9 === 0 ? {} : { f: (h % 1000) / 7 - 30 }),
    ...(h % 7 === 1 ? {} : { v: h % 41 }),
    ...(h % 5 === 2 ? {} : { k: `k${h % 6}` }),
    ...(h % 8 === 3 ? {} : { at: Date.UTC(2024, 0, 1) + (h % 97) * 3_600_000 }),
    ...(h % 6 === 4 ? {} : { l: (h % 500) - 250 })
  };
}

const SORTS = ['f', 'at', 'v', 'l', 'k'].flatMap(column =>
  ['asc', 'desc'].map(direction => ({ column, direction }))
);

describeNode(skipped ? `${TITLE} (skipped: ${skipped})` : TITLE, () => {
  const name = `os-segments-${randomUUID().slice(0, 8)}`;
  const dir = scratchDir('searchbook-opensearch-segments-');
  let node: RealNodeAddress;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  beforeAll(async () => {
    node = await suitesNode('opensearch-2.19');
    for (const [i, { shards, parts, docs, seed }] of LAYOUTS.entries()) {
      const index = `${name}-${i}`;
      await jsonFromNode(
        node,
        'PUT',
        `/${index}`,
        JSON.stringify({
          settings: {
            number_of_shards: shards,
            number_of_replicas: 0,
            max_result_window: WINDOW,
            refresh_interval: -1
          },
          mappings: {
            properties: {
              f: { type: 'double' },
              at: { type: 'date' },
              v: { type: 'integer' },
              l: { type: 'long' },
              k: { type: 'keyword' }
            }
          }
        })
      );
      // Not in number order, so each part's values spread unlike the others'.
      const lines = numberedDocuments(docs, n => source(n, seed)).sort(
        (a, b) => a.length - b.length || (a < b ? -1 : 1)
      );
      const per = Math.ceil(docs / parts);
      for (let start = 0; start < docs; start += per) {
        await bulkLoad(node, index, lines.slice(start, start + per));
      }
    }
    ({ kernel, comm } = await gridKernel(
      `%connect elasticsearch ${node.url} auth=none name=os`,
      dir
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(() => cleanUp(kernel, node, [`${name}-*`], dir));

  it.each(LAYOUTS.map((layout, i) => ({ ...layout, i })))(
    '$shards shards written in $parts parts: sorted by each field either way, block by block, every document once',
    async ({ i, docs }) => {
      const { open, read, close } = gridCalls(() => comm, {
        connection: 'os',
        target: `${name}-${i}`,
        blockSize: BLOCK
      });
      const every = Array.from({ length: docs }, (_, n) => `d${n}`).sort();
      for (const sort of SORTS) {
        const grid = await open({ filters: [], join: 'all', sort: [sort] });
        const ids = grid.first.keys?.map(k => k.id) ?? [];
        for (let block = 1; block * BLOCK < grid.total; block++) {
          ids.push(...((await read(grid, block)).keys?.map(k => k.id) ?? []));
        }
        await close(grid);
        expect({ sort, ids: [...ids].sort() }).toEqual({ sort, ids: every });
      }
    }
  );
});
