/**
 * OpenSearch has no `_shard_doc`, and `_doc` is a document's place in its shard: equal on
 * every shard, so search_after pages sorted by it skip whatever ties with a page's last row.
 * On a real OpenSearch 2.19.1 node, with indices of several shards and small result windows
 * (so every page after the first goes by search_after), the panel's grid and `%export` still
 * read every document exactly once, also through an alias over two indices with equal ids.
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
import { runCell } from './console-smoke';
import {
  bulkLoad,
  cleanUp,
  exportedLines,
  gridCalls,
  gridKernel,
  numberedDocuments
} from './grid-node';
import { scratchDir } from '../support/scratch-dir';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNode = skipped ? describe.skip : describe;
const TITLE =
  'OpenSearch 2.19.1: grids and exports of indices of several shards read every document once';

const DOCS = 3_000;
const BLOCK = 100;
/** A window this small makes every page after the first a search_after page. */
const WINDOW = 499;

describeNode(skipped ? `${TITLE} (skipped: ${skipped})` : TITLE, () => {
  const name = `os-shards-${randomUUID().slice(0, 8)}`;
  const three = `${name}-a`;
  const two = `${name}-b`;
  const alias = `${name}-both`;
  const dir = scratchDir('searchbook-opensearch-shards-');
  let node: RealNodeAddress;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  const engine = (method: string, path: string, body?: string) =>
    jsonFromNode(node, method, path, body);

  /** Every row of a grid, block by block, as index/id. */
  const gridRows = async (target: string): Promise<string[]> => {
    const { open, read, close } = gridCalls(() => comm, {
      connection: 'os',
      target,
      blockSize: BLOCK
    });
    const grid = await open();
    const rows = grid.first.rows.map(r => `${r['_index']}/${r['_id']}`);
    for (let block = 1; block * BLOCK < grid.total; block++) {
      rows.push(
        ...(await read(grid, block)).rows.map(r => `${r['_index']}/${r['_id']}`)
      );
    }
    await close(grid);
    return rows;
  };

  const exported = (file: string): string[] =>
    exportedLines(dir, file).map(line => {
      const { _index, _id } = line as { _index: string; _id: string };
      return `${_index}/${_id}`;
    });

  const every = (...indices: string[]) =>
    indices
      .flatMap(index =>
        Array.from({ length: DOCS }, (_, n) => `${index}/d${n}`)
      )
      .sort();

  beforeAll(async () => {
    node = await suitesNode('opensearch-2.19');
    for (const [index, shards] of [
      [three, 3],
      [two, 2]
    ] as const) {
      await engine(
        'PUT',
        `/${index}`,
        JSON.stringify({
          settings: {
            number_of_shards: shards,
            number_of_replicas: 0,
            max_result_window: WINDOW
          },
          mappings: { properties: { n: { type: 'long' } } }
        })
      );
      await bulkLoad(
        node,
        index,
        numberedDocuments(DOCS, n => ({ n }))
      );
    }
    await engine(
      'POST',
      '/_aliases',
      JSON.stringify({
        actions: [{ add: { indices: [three, two], alias } }]
      })
    );
    ({ kernel, comm } = await gridKernel(
      `%connect elasticsearch ${node.url} auth=none name=os`,
      dir
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(() => cleanUp(kernel, node, [`${name}-*`], dir));

  it('the grid of a three-shard index shows every document once, block after block', async () => {
    const rows = await gridRows(three);
    expect(rows).toHaveLength(DOCS);
    expect([...rows].sort()).toEqual(every(three));
  });

  it('the grid of an alias over two indices with the same ids shows both of each', async () => {
    const rows = await gridRows(alias);
    expect(rows).toHaveLength(2 * DOCS);
    expect([...rows].sort()).toEqual(every(three, two));
  });

  it.each([
    ['one cursor', ''],
    ['sliced', ' slices=3']
  ])(
    '%%export (%s) of the alias writes every document of both indices once',
    async (label, options) => {
      const file = `${label.replace(' ', '-')}.jsonl`;
      const run = await runCell(kernel, `%export ${alias} ${file}${options}`);
      expect(run.status).toBe('ok');
      const lines = exported(file);
      expect(lines).toHaveLength(2 * DOCS);
      expect([...lines].sort()).toEqual(every(three, two));
    }
  );
});
