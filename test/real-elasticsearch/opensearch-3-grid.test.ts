/**
 * OpenSearch 3.3.2 (Lucene 10, Java 21+) through the kernel: the essentials of the panel's grid
 * and `%export` that the 2.19.1 suite (opensearch-grid.test.ts) covers in full, on 12,000
 * documents: the grid opens on OpenSearch's point in time (`/_search/point_in_time`, sorted by
 * `_index` and `_id`, as on 2.19), Ctrl-End's far block past the 10,000 window is the last,
 * an edit is sent with `if_seq_no`, and exports (whole and sliced) hold every document
 * exactly, closing the points in time they opened. Skipped, with the reason, where no JDK 21+
 * is found.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  describeEachTarget,
  opensearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import type { RealNodeAddress } from '../support/real-elasticsearch/launch';
import type { PanelCommClient } from '../panel/panel-comm-client';
import { runCell } from './console-smoke';
import {
  cleanUp,
  createIndex,
  exportedLines,
  gridCalls,
  gridKernel,
  numberedDocuments,
  openPits as pitsOn
} from './grid-node';
import { scratchDir } from '../support/scratch-dir';

const DOCS = 12_000;
const BLOCK = 100;
const LAST_BLOCK = DOCS / BLOCK - 1;

const Line = z.object({
  _index: z.string(),
  _id: z.string(),
  _source: z.object({ n: z.number(), name: z.string() })
});

const threeX = opensearchTargets().filter(t => t.flavour === 'opensearch-3.3');

describeEachTarget(threeX, 'grids and exports on its point in time', () => {
  const index = `os3-grid-${randomUUID().slice(0, 8)}`;
  const dir = scratchDir('searchbook-opensearch-3-');
  let node: RealNodeAddress;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  const openPits = () => pitsOn(node);
  const { open, read, close, openDocument } = gridCalls(() => comm, {
    connection: 'os3',
    target: index,
    blockSize: BLOCK
  });
  const exported = (file: string) =>
    exportedLines(dir, file).map(line => Line.parse(line));
  const expectEvery = (lines: z.infer<typeof Line>[]) => {
    expect(lines).toHaveLength(DOCS);
    const byId = new Map(lines.map(l => [l._id, l]));
    expect(byId.size).toBe(DOCS);
    for (let n = 0; n < DOCS; n++) {
      expect(byId.get(`d${n}`)).toEqual({
        _index: index,
        _id: `d${n}`,
        _source: { n, name: n === 7 ? 'edited' : `doc ${n}` }
      });
    }
  };

  beforeAll(async () => {
    node = await suitesNode('opensearch-3.3');
    await createIndex(
      node,
      index,
      { properties: { n: { type: 'long' }, name: { type: 'keyword' } } },
      numberedDocuments(DOCS, n => ({ n, name: `doc ${n}` }))
    );
    ({ kernel, comm } = await gridKernel(
      `%connect opensearch ${node.url} auth=none name=os3`,
      dir
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(() => cleanUp(kernel, node, [index], dir));

  it('the panel lists the connection as OpenSearch 3.3.2', async () => {
    const listed = await comm.expect({ type: 'connections' }, 'connections');
    expect(listed.connections.find(c => c.name === 'os3')).toMatchObject({
      product: 'OpenSearch',
      version: '3.3.2'
    });
  });

  it("the grid opens on OpenSearch's point in time, and Ctrl-End's far block past 10,000 is the last 100 by _index and _id", async () => {
    const before = await openPits();
    const grid = await open();
    expect(grid.total).toBe(DOCS);
    expect(grid.notes).toEqual([]);
    expect(grid.first.requests.map(r => `${r.method} ${r.path}`)).toContain(
      `POST /${index}/_search/point_in_time?keep_alive=5m`
    );
    expect(await openPits()).toBe(before + 1);
    const last = await read(grid, LAST_BLOCK);
    expect(last.offset).toBe(LAST_BLOCK * BLOCK);
    // One index: the tie-breaking order is the ids as strings sort.
    const ids = Array.from({ length: DOCS }, (_, n) => `d${n}`).sort();
    expect(last.rows.map(r => r['_id'])).toEqual(ids.slice(-BLOCK));
    expect((await read(grid, LAST_BLOCK + 1)).rows).toEqual([]);
    await close(grid);
    expect(await openPits()).toBe(before);
  });

  it('an edit is sent with if_seq_no and saved', async () => {
    const { grid, row, version } = await openDocument(7);
    expect(row).toEqual({ index, id: 'd7' });
    const saved = await comm.expect(
      {
        type: 'save',
        gridId: grid.gridId,
        changes: [
          {
            kind: 'update',
            key: 'k1',
            row,
            version,
            fields: { name: 'edited' }
          }
        ]
      },
      'saved'
    );
    expect(saved.results[0]).toMatchObject({ status: 'saved' });
    expect(saved.results[0]?.request?.path).toContain(
      `if_seq_no=${version?.seqNo}&if_primary_term=${version?.primaryTerm}`
    );
    await close(grid);
  });

  it('%export writes every document exactly, and sliced (slices=2) too, leaving no point in time open', async () => {
    const before = await openPits();
    const whole = await runCell(kernel, `%export ${index} all.jsonl`);
    expect(whole.status).toBe('ok');
    expectEvery(exported('all.jsonl'));
    const sliced = await runCell(
      kernel,
      `%export ${index} sliced.jsonl slices=2`
    );
    expect(sliced.status).toBe('ok');
    expectEvery(exported('sliced.jsonl'));
    expect(await openPits()).toBe(before);
  });
});
