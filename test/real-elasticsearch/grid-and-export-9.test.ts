/**
 * Elasticsearch 9.5.3 through the kernel with 15,000 documents, each holding a dense vector
 * (which 9.x leaves out of `_source` unless a read asks): the side panel's grid on a point in
 * time reaches the last block (Ctrl-End) past the 10,000 window, filters, sorts, edits with
 * `if_seq_no` (a stale edit is a conflict) and deletes; `%export`, with one cursor and sliced,
 * writes every document with every field, vectors included, and each file re-imported with
 * `_bulk` into a fresh index gives back equal documents.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import { REAL_FLAVOURS } from '../support/real-elasticsearch/flavours';
import type { RealNodeAddress } from '../support/real-elasticsearch/launch';
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
  reimport
} from './grid-node';
import { scratchDir } from '../support/scratch-dir';

const FLAVOUR = 'es-9.5';
const target = elasticsearchTargets(undefined, { newest: true }).find(
  t => t.flavour === FLAVOUR
);
const skipped = target?.skipped ?? (target ? undefined : 'no 9.5 target');
const TITLE = `Elasticsearch ${REAL_FLAVOURS[FLAVOUR].version}: 15,000 documents with vectors in the grid and in exports`;

const DOCS = 15_000;
const BLOCK = 100;
const LAST_BLOCK = DOCS / BLOCK - 1;
const EDITED = 7;
const DELETED = 8;

type Source = { n: number; name: string; v: number[] };
const MAPPINGS = {
  properties: {
    n: { type: 'long' },
    name: { type: 'keyword' },
    v: { type: 'dense_vector', dims: 3 }
  }
};
/** The vector written for document n. */
const vectorOf = (n: number) => [n % 97, 0.25 * (n % 4), -1.5];
const sourceOf = (n: number): Source => ({
  n,
  name: `doc ${n}`,
  v: vectorOf(n)
});

(skipped ? describe.skip : describe)(
  skipped ? `${TITLE} (skipped: ${skipped})` : TITLE,
  () => {
    const index = `es9-grid-${randomUUID().slice(0, 8)}`;
    const copies: string[] = [];
    const dir = scratchDir('searchbook-es9-grid-');
    let node: RealNodeAddress;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    /** Every document of an index as the engine stores it, vectors asked for, by id. */
    const everyDocument = (name: string) =>
      storedDocuments(node, name, DOCS, {
        _source: { exclude_vectors: false }
      });
    const { open, read, close, openDocument } = gridCalls(() => comm, {
      connection: 'es',
      target: index,
      blockSize: BLOCK
    });

    beforeAll(async () => {
      node = await suitesNode(FLAVOUR);
      await createIndex(
        node,
        index,
        MAPPINGS,
        numberedDocuments(DOCS, sourceOf)
      );
      ({ kernel, comm } = await gridKernel(
        `%connect elasticsearch ${node.url} auth=none name=es`,
        dir
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(() => cleanUp(kernel, node, [index, ...copies], dir));

    it("the grid opens on a point in time, reads every row once with its vector, and Ctrl-End's far block is the last 100", async () => {
      const grid = await open();
      expect(grid.total).toBe(DOCS);
      expect(grid.first.requests.map(r => `${r.method} ${r.path}`)).toContain(
        `POST /${index}/_pit?keep_alive=5m`
      );
      const jumped = await open();
      const last = await read(jumped, LAST_BLOCK);
      expect(last.offset).toBe(LAST_BLOCK * BLOCK);
      expect(last.rows).toHaveLength(BLOCK);
      expect((await read(jumped, LAST_BLOCK + 1)).rows).toEqual([]);
      const rows = [...grid.first.rows];
      for (let block = 1; block <= LAST_BLOCK; block++) {
        rows.push(...(await read(grid, block)).rows);
      }
      expect(rows).toHaveLength(DOCS);
      expect(new Set(rows.map(r => r['_id'])).size).toBe(DOCS);
      // The engine keeps a cosine vector normalised, with its length: it reads back within float32 rounding.
      const stored = await everyDocument(index);
      for (const row of rows) {
        const n = Number(row['n']);
        expect(row['v']).toEqual(stored.get(`d${n}`)?.['v']);
        const components = z.array(z.number()).length(3).parse(row['v']);
        components.forEach((component, i) =>
          expect(component).toBeCloseTo(vectorOf(n)[i] ?? Number.NaN, 5)
        );
      }
      expect(last.rows.map(r => r['_id'])).toEqual(
        rows.slice(-BLOCK).map(r => r['_id'])
      );
      await close(grid);
      await close(jumped);
    });

    it('a sort and a filter open the grid afresh; the last ascending block is the highest numbers', async () => {
      const sorted = await open({ sort: [{ column: 'n', direction: 'desc' }] });
      expect(sorted.sortedBy).toEqual(['n']);
      expect(sorted.first.rows.slice(0, 3).map(r => r['n'])).toEqual([
        14_999, 14_998, 14_997
      ]);
      const ascending = await open({
        sort: [{ column: 'n', direction: 'asc' }]
      });
      expect((await read(ascending, LAST_BLOCK)).rows.map(r => r['n'])).toEqual(
        Array.from({ length: BLOCK }, (_, i) => DOCS - BLOCK + i)
      );
      const filtered = await open({
        filters: [
          { column: 'n', operator: 'greater or equal', value: '14990' }
        ],
        sort: [{ column: 'n', direction: 'asc' }]
      });
      expect(filtered.total).toBe(10);
      expect(filtered.first.rows.map(r => r['name'])).toEqual(
        Array.from({ length: 10 }, (_, i) => `doc ${14_990 + i}`)
      );
      await close(sorted);
      await close(ascending);
      await close(filtered);
    });

    it('an edit is sent with if_seq_no and keeps the vector; the same edit on the version read before is a conflict', async () => {
      const { grid, row, version } = await openDocument(EDITED);
      expect(row).toEqual({ index, id: `d${EDITED}` });
      const change = (key: string, name: string) => ({
        kind: 'update',
        key,
        row,
        version,
        fields: { name }
      });
      const saved = await comm.expect(
        {
          type: 'save',
          gridId: grid.gridId,
          changes: [change('k1', 'edited')]
        },
        'saved'
      );
      expect(saved.results[0]).toMatchObject({ status: 'saved' });
      expect(saved.results[0]?.request?.path).toContain(
        `if_seq_no=${version?.seqNo}&if_primary_term=${version?.primaryTerm}`
      );
      expect((await everyDocument(index)).get(`d${EDITED}`)).toEqual({
        ...sourceOf(EDITED),
        name: 'edited'
      });
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

    it('a deleted row is gone from the engine and from the grid', async () => {
      const {
        grid: reading,
        row,
        version,
        values
      } = await openDocument(DELETED);
      const saved = await comm.expect(
        {
          type: 'save',
          gridId: reading.gridId,
          changes: [
            { kind: 'delete', key: 'd', row, version, expected: values }
          ]
        },
        'saved'
      );
      expect(saved.results[0]).toMatchObject({ status: 'saved' });
      expect((await everyDocument(index)).has(`d${DELETED}`)).toBe(false);
      await close(reading);
      const grid = await open();
      expect(grid.total).toBe(DOCS - 1);
      await close(grid);
    });

    describe('%export', () => {
      type Line = { _index: string; _id: string; _source: Source };
      const expected = (n: number): Source =>
        n === EDITED ? { ...sourceOf(n), name: 'edited' } : sourceOf(n);

      it.each([
        ['one cursor', 'all.jsonl', ''],
        ['sliced', 'sliced.jsonl', ' slices=3']
      ])(
        '%s: every document with every field, vectors included; re-imported with _bulk into a fresh index it gives back equal documents',
        async (_label, file, options) => {
          const run = await runCell(
            kernel,
            `%export ${index} ${file}${options}`
          );
          expect(run.status).toBe('ok');
          const lines = exportedLines(dir, file) as Line[];
          expect(lines).toHaveLength(DOCS - 1);
          const byId = new Map(lines.map(l => [l._id, l]));
          expect(byId.size).toBe(DOCS - 1);
          const original = await everyDocument(index);
          expect(original.size).toBe(DOCS - 1);
          for (let n = 0; n < DOCS; n++) {
            const { v: _v, ...fields } = expected(n);
            expect(byId.get(`d${n}`)).toEqual(
              n === DELETED
                ? undefined
                : {
                    _index: index,
                    _id: `d${n}`,
                    _source: { ...fields, v: original.get(`d${n}`)?.['v'] }
                  }
            );
            if (n !== DELETED) {
              expect(byId.get(`d${n}`)?._source.v).toHaveLength(3);
            }
          }
          const copy = `${index}-copy-${randomUUID().slice(0, 6)}`;
          copies.push(copy);
          await reimport(node, copy, MAPPINGS, lines);
          expect(await everyDocument(copy)).toEqual(original);
        },
        // Exports, reads and re-imports 15,000 documents on a node sharing the machine's cores.
        120_000
      );
    });
  }
);
