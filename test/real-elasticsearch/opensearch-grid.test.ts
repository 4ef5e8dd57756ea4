/**
 * OpenSearch 2.19.1 through the kernel as its users meet it: named OpenSearch (connect line,
 * panel, errors) without a version warning, and the side panel's grid and `%export` reading
 * 15,000 documents through OpenSearch's own point in time (`/_search/point_in_time`, sorted by
 * `_index` and `_id`): the last block (Ctrl-End), filters, sorts, an edit with `if_seq_no` and
 * a conflict, a deletion, and exports (JSONL, CSV, sliced) holding every document exactly, the
 * JSONL giving back equal documents when re-imported with `_bulk` into a fresh index.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import {
  fetchFromNode,
  jsonFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import type { PanelCommClient } from '../panel/panel-comm-client';
import { runCell } from './console-smoke';
import {
  cleanUp,
  createIndex,
  everyDocument as storedDocuments,
  exportedLines,
  gridCalls,
  gridKernel,
  numberedDocuments,
  openPits as pitsOn,
  reimport
} from './grid-node';
import { scratchDir } from '../support/scratch-dir';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNode = skipped ? describe.skip : describe;
const TITLE = 'OpenSearch 2.19.1: grids and exports on its point in time';

const DOCS = 15_000;
const BLOCK = 100;
const LAST_BLOCK = DOCS / BLOCK - 1;

const MAPPINGS = {
  properties: { n: { type: 'long' }, name: { type: 'keyword' } }
};

describeNode(skipped ? `${TITLE} (skipped: ${skipped})` : TITLE, () => {
  const index = `os-grid-${randomUUID().slice(0, 8)}`;
  const copies: string[] = [];
  const dir = scratchDir('searchbook-opensearch-');
  let node: RealNodeAddress;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  const engine = (method: string, path: string, body?: string) =>
    jsonFromNode(node, method, path, body);
  /** Every document of an index as the engine stores it, by id. */
  const everyDocument = (name: string) => storedDocuments(node, name, DOCS);
  const openPits = () => pitsOn(node);
  const { open, read, close, openDocument } = gridCalls(() => comm, {
    connection: 'os',
    target: index,
    blockSize: BLOCK
  });

  beforeAll(async () => {
    node = await suitesNode('opensearch-2.19');
    await createIndex(
      node,
      index,
      MAPPINGS,
      numberedDocuments(DOCS, n => ({ n, name: `doc ${n}` }))
    );
    ({ kernel, comm } = await gridKernel(
      `%connect elasticsearch ${node.url} auth=none name=os`,
      dir
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(() => cleanUp(kernel, node, [index, ...copies], dir));

  it('%connect names OpenSearch and its version, without a warning; the panel lists it as OpenSearch', async () => {
    const again = await runCell(
      kernel,
      `%connect elasticsearch ${node.url} auth=none name=os2`
    );
    expect(again.text).toContain(
      `Connected to OpenSearch 2.19.1 at ${node.url} as \\"os2\\"`
    );
    expect(again.text).not.toContain('Warning');
    expect(again.text).not.toContain('Elasticsearch');
    const listed = await comm.expect({ type: 'connections' }, 'connections');
    expect(listed.connections.find(c => c.name === 'os2')).toMatchObject({
      product: 'OpenSearch',
      version: '2.19.1'
    });
    await runCell(kernel, '%use os');
  });

  it("a failed request is OpenSearch's answer, named so", async () => {
    const missing = await runCell(kernel, `GET /${index}-missing/_search`);
    expect(missing.status).toBe('error');
    expect(missing.text).toContain('OpenSearch answered 404');
    expect(missing.text).not.toContain('Elasticsearch answered');
  });

  it("the grid opens on OpenSearch's point in time, reads every row once, and Ctrl-End's far block is the last 100", async () => {
    const before = await openPits();
    const grid = await open();
    expect(grid.total).toBe(DOCS);
    expect(grid.notes).toEqual([]);
    expect(grid.first.requests.map(r => `${r.method} ${r.path}`)).toContain(
      `POST /${index}/_search/point_in_time?keep_alive=5m`
    );
    expect(await openPits()).toBe(before + 1);
    // Ctrl-End on a fresh grid: the far block read walks past the 10,000 window.
    const jumped = await open();
    const last = await read(jumped, LAST_BLOCK);
    expect(last.offset).toBe(LAST_BLOCK * BLOCK);
    expect(last.rows).toHaveLength(BLOCK);
    expect((await read(jumped, LAST_BLOCK + 1)).rows).toEqual([]);
    // The same rows a scroll through every block ends with; every document once.
    const seen: string[] = grid.first.rows.map(r => String(r['_id']));
    for (let block = 1; block <= LAST_BLOCK; block++) {
      seen.push(...(await read(grid, block)).rows.map(r => String(r['_id'])));
    }
    expect(seen).toHaveLength(DOCS);
    expect(new Set(seen).size).toBe(DOCS);
    expect(last.rows.map(r => String(r['_id']))).toEqual(seen.slice(-BLOCK));
    await close(grid);
    await close(jumped);
    expect(await openPits()).toBe(before);
  });

  it('a sort and a filter open the grid afresh on the point in time; the last sorted block is the highest numbers', async () => {
    const sorted = await open({ sort: [{ column: 'n', direction: 'desc' }] });
    expect(sorted.sortedBy).toEqual(['n']);
    expect(sorted.first.rows.slice(0, 3).map(r => r['n'])).toEqual([
      14_999, 14_998, 14_997
    ]);
    const ascending = await open({ sort: [{ column: 'n', direction: 'asc' }] });
    const last = await read(ascending, LAST_BLOCK);
    expect(last.rows.map(r => r['n'])).toEqual(
      Array.from({ length: BLOCK }, (_, i) => DOCS - BLOCK + i)
    );
    const filtered = await open({
      filters: [{ column: 'n', operator: 'greater or equal', value: '14990' }],
      sort: [{ column: 'n', direction: 'asc' }]
    });
    expect(filtered.total).toBe(10);
    expect(filtered.first.rows.map(r => r['name'])).toEqual(
      Array.from({ length: 10 }, (_, i) => `doc ${14_990 + i}`)
    );
    // OpenSearch sorts on _id, so the grid keeps that header sort.
    const byId = await open({ sort: [{ column: '_id', direction: 'desc' }] });
    expect(byId.notes).toEqual([]);
    expect(byId.sortedBy).toEqual(['_id']);
    expect(byId.first.rows[0]?.['_id']).toBe('d9999');
    await close(sorted);
    await close(ascending);
    await close(filtered);
    await close(byId);
  });

  it('an edit is sent with if_seq_no and saved; the same edit on the version read before is a conflict', async () => {
    const { grid, row, version } = await openDocument(7);
    expect(row).toEqual({ index, id: 'd7' });
    expect(version).toBeTruthy();
    const change = (key: string, name: string) => ({
      kind: 'update',
      key,
      row,
      version,
      fields: { name }
    });
    const saved = await comm.expect(
      { type: 'save', gridId: grid.gridId, changes: [change('k1', 'edited')] },
      'saved'
    );
    expect(saved.results[0]).toMatchObject({ status: 'saved' });
    expect(saved.results[0]?.request?.path).toContain(
      `if_seq_no=${version?.seqNo}&if_primary_term=${version?.primaryTerm}`
    );
    const stored = z
      .object({ _source: z.object({ name: z.string() }).loose() })
      .loose()
      .parse(await engine('GET', `/${index}/_doc/d7`));
    expect(stored._source.name).toBe('edited');
    const stale = await comm.expect(
      { type: 'save', gridId: grid.gridId, changes: [change('k2', 'again')] },
      'saved'
    );
    expect(stale.results[0]).toMatchObject({
      status: 'conflict',
      current: expect.objectContaining({ name: 'edited' })
    });
    await close(grid);
  });

  describe('%export', () => {
    type Line = {
      _index: string;
      _id: string;
      _source: { n: number; name: string };
    };
    const expected = (n: number) => ({
      n,
      name: n === 7 ? 'edited' : `doc ${n}`
    });
    const jsonl = (file: string) => exportedLines(dir, file) as Line[];
    const checkEvery = (lines: Line[]) => {
      expect(lines).toHaveLength(DOCS);
      const byId = new Map(lines.map(l => [l._id, l]));
      expect(byId.size).toBe(DOCS);
      for (let n = 0; n < DOCS; n++) {
        expect(byId.get(`d${n}`)).toEqual({
          _index: index,
          _id: `d${n}`,
          _source: expected(n)
        });
      }
    };

    it('JSONL holds every document exactly, read on the point in time', async () => {
      const before = await openPits();
      const run = await runCell(kernel, `%export ${index} all.jsonl`);
      expect(run.status).toBe('ok');
      checkEvery(jsonl('all.jsonl'));
      expect(await openPits()).toBe(before);
    });

    it('the node slices a search under its point in time: two slices split the documents between them', async () => {
      const Opened = z.object({ pit_id: z.string() }).loose();
      const Counted = z
        .object({ hits: z.object({ total: z.object({ value: z.number() }) }) })
        .loose();
      const { pit_id } = Opened.parse(
        await engine('POST', `/${index}/_search/point_in_time?keep_alive=1m`)
      );
      const counts: number[] = [];
      for (const id of [0, 1]) {
        const answer = await engine(
          'POST',
          '/_search',
          JSON.stringify({
            size: 0,
            track_total_hits: true,
            pit: { id: pit_id, keep_alive: '1m' },
            slice: { id, max: 2 }
          })
        );
        counts.push(Counted.parse(answer).hits.total.value);
      }
      await engine(
        'DELETE',
        '/_search/point_in_time',
        JSON.stringify({ pit_id: [pit_id] })
      );
      expect(counts.every(c => c > 0 && c < DOCS)).toBe(true);
      expect(counts[0]! + counts[1]!).toBe(DOCS);
    });

    it('sliced (slices=3) holds every document exactly once', async () => {
      const run = await runCell(
        kernel,
        `%export ${index} sliced.jsonl slices=3`
      );
      expect(run.status).toBe('ok');
      checkEvery(jsonl('sliced.jsonl'));
    });

    it('the JSONL re-imported with _bulk into a fresh index gives back equal documents', async () => {
      const lines = jsonl('all.jsonl');
      expect(lines).toHaveLength(DOCS);
      const copy = `${index}-copy`;
      copies.push(copy);
      await reimport(node, copy, MAPPINGS, lines);
      const original = await everyDocument(index);
      expect(original.size).toBe(DOCS);
      expect(await everyDocument(copy)).toEqual(original);
    });

    it('CSV has a header and one exact row per document', async () => {
      const run = await runCell(kernel, `%export ${index} all.csv`);
      expect(run.status).toBe('ok');
      const [header, ...rows] = readFileSync(join(dir, 'all.csv'), 'utf8')
        .split(/\r?\n/)
        .filter(Boolean);
      expect(header).toBe('_id,_index,n,name');
      expect(rows).toHaveLength(DOCS);
      expect(new Set(rows).size).toBe(DOCS);
      expect(rows).toContain(`d7,${index},7,edited`);
      expect(rows).toContain(`d14999,${index},14999,doc 14999`);
    });
  });

  /**
   * OpenSearch 1.x has no point in time: a loopback proxy in front of the 2.19.1 node answers
   * `GET /` as 1.3.19 does and `/_search/point_in_time` as 1.x does (400, no handler), and
   * passes every other request to the node.
   */
  describe('a version without a point in time (1.3.19, by a proxy in front of the node)', () => {
    let proxy: Server;
    let proxyUrl = '';
    const seen: string[] = [];

    beforeAll(async () => {
      proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const url = req.url ?? '/';
          seen.push(`${req.method} ${url}`);
          void (async () => {
            if (url.includes('point_in_time')) {
              res.writeHead(400, { 'content-type': 'application/json' });
              res.end(
                JSON.stringify({
                  error: `no handler found for uri [${url}] and method [${req.method}]`
                })
              );
              return;
            }
            const body = Buffer.concat(chunks);
            const answer = await fetchFromNode(node, url, {
              method: req.method ?? 'GET',
              ...(body.length
                ? {
                    body,
                    headers: {
                      'content-type':
                        req.headers['content-type'] ?? 'application/json'
                    }
                  }
                : {})
            });
            let text = await answer.text();
            if (url === '/') {
              text = text.replace('"2.19.1"', '"1.3.19"');
            }
            res.writeHead(answer.status, {
              'content-type': 'application/json'
            });
            res.end(text);
          })();
        });
      });
      await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const connected = await runCell(
        kernel,
        `%connect elasticsearch ${proxyUrl} auth=none name=old`
      );
      expect(connected.text).toContain('Connected to OpenSearch 1.3.19');
      expect(connected.text).not.toContain('Warning');
    });

    afterAll(async () => {
      await runCell(kernel, '%use os');
      await new Promise(resolve => proxy?.close(resolve));
    });

    it('the grid says it reads without a snapshot, pages with search_after on _id to the last of 15,000, and opens no point in time', async () => {
      seen.length = 0;
      const grid = await comm.expect(
        { type: 'open', connection: 'old', target: index, blockSize: BLOCK },
        'opened'
      );
      expect(grid.total).toBe(DOCS);
      expect(grid.notes).toEqual([
        'OpenSearch 1.3.19 has no point in time (OpenSearch 2.4 added it): the grid pages with search_after sorted by _index and _id, not over one snapshot, so documents changed meanwhile may move, show twice or be missed.'
      ]);
      const last = await read(grid, LAST_BLOCK);
      expect(last.rows).toHaveLength(BLOCK);
      // _id order: the last rows are the highest ids as strings sort.
      const ids = Array.from({ length: DOCS }, (_, n) => `d${n}`).sort();
      expect(last.rows.map(r => r['_id'])).toEqual(ids.slice(-BLOCK));
      expect(seen.filter(r => r.includes('point_in_time'))).toEqual([]);
      await close(grid);
    });

    it('%export reads every document with one cursor; slices= is refused with what to write', async () => {
      const run = await runCell(kernel, `%export ${index} old.jsonl`);
      expect(run.status).toBe('ok');
      const lines = readFileSync(join(dir, 'old.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(line => (JSON.parse(line) as { _id: string })._id);
      expect(lines).toHaveLength(DOCS);
      expect(new Set(lines).size).toBe(DOCS);
      const sliced = await runCell(
        kernel,
        `%export ${index} old2.jsonl slices=2`
      );
      expect(sliced.status).toBe('error');
      expect(sliced.text).toContain('leave slices= out');
      expect(seen.filter(r => r.includes('point_in_time'))).toEqual([]);
    });
  });

  it('a deleted row is gone from the engine and from the grid', async () => {
    const { grid: reading, row, version, values } = await openDocument(8);
    const saved = await comm.expect(
      {
        type: 'save',
        gridId: reading.gridId,
        changes: [{ kind: 'delete', key: 'd', row, version, expected: values }]
      },
      'saved'
    );
    expect(saved.results[0]).toMatchObject({ status: 'saved' });
    expect(saved.results[0]?.request?.path).toContain('if_seq_no=');
    expect((await everyDocument(index)).has('d8')).toBe(false);
    await close(reading);
    const grid = await open();
    expect(grid.total).toBe(DOCS - 1);
    await close(grid);
  });
});
