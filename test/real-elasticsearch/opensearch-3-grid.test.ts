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
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { GridReply } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  opensearchTargets,
  REAL_START_TIMEOUT_MS,
  SUITES_INSTANCE
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import {
  fetchFromNode,
  jsonFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import { realNode } from '../support/real-elasticsearch/run-nodes';
import {
  type GridCommClient,
  kernelWithGridComm
} from '../grid/grid-comm-client';
import { runCell } from './console-smoke';

const DOCS = 12_000;
const BLOCK = 100;
const LAST_BLOCK = DOCS / BLOCK - 1;

type Opened = Extract<GridReply, { type: 'opened' }>;
const PitList = z.object({ pits: z.array(z.unknown()) }).loose();
const Line = z.object({
  _index: z.string(),
  _id: z.string(),
  _source: z.object({ n: z.number(), name: z.string() })
});

const threeX = opensearchTargets().filter(t => t.flavour === 'opensearch-3.3');

describeEachTarget(threeX, 'grids and exports on its point in time', () => {
  const index = `os3-grid-${randomUUID().slice(0, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), 'searchbook-opensearch-3-'));
  let node: RealNodeAddress;
  let kernel: KernelClient;
  let comm: GridCommClient;

  const engine = (method: string, path: string, body?: string) =>
    jsonFromNode(node, method, path, body);
  /** Points in time open on the node, by its own list. */
  const openPits = async () =>
    PitList.parse(await engine('GET', '/_search/point_in_time/_all')).pits
      .length;
  const open = async (view?: Record<string, unknown>) =>
    comm.expect(
      {
        type: 'open',
        connection: 'os3',
        target: index,
        blockSize: BLOCK,
        ...(view ? { view } : {})
      },
      'opened'
    );
  const read = async (grid: Opened, block: number) =>
    (await comm.expect({ type: 'read', gridId: grid.gridId, block }, 'block'))
      .block;
  const close = (grid: Opened) =>
    comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');
  const exported = (file: string) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(line => Line.parse(JSON.parse(line)));
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
    const outcome = await realNode('opensearch-3.3', SUITES_INSTANCE);
    if ('skipped' in outcome) {
      throw new Error(outcome.skipped);
    }
    node = outcome.node;
    await engine(
      'PUT',
      `/${index}`,
      JSON.stringify({
        settings: { number_of_shards: 2, number_of_replicas: 0 },
        mappings: {
          properties: { n: { type: 'long' }, name: { type: 'keyword' } }
        }
      })
    );
    for (let start = 0; start < DOCS; start += 6_000) {
      const lines = Array.from({ length: 6_000 }, (_, i) => {
        const n = start + i;
        return `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify({ n, name: `doc ${n}` })}\n`;
      });
      await engine('POST', `/${index}/_bulk?refresh=true`, lines.join(''));
    }
    ({ kernel, comm } = await kernelWithGridComm(
      [`%connect opensearch ${node.url} auth=none name=os3`],
      { ...SECRETS },
      { cwd: dir }
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    if (node) {
      await fetchFromNode(node, `/${index}`, { method: 'DELETE' });
    }
    rmSync(dir, { recursive: true, force: true });
  });

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
    const grid = await open({
      filters: [{ column: 'n', operator: 'equals', value: '7' }]
    });
    expect(grid.first.keys?.[0]).toEqual({ index, id: 'd7' });
    const version = grid.first.versions?.[0];
    const saved = await comm.expect(
      {
        type: 'save',
        gridId: grid.gridId,
        changes: [
          {
            kind: 'update',
            key: 'k1',
            row: grid.first.keys?.[0],
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
