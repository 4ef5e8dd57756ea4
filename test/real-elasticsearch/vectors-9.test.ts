/**
 * Dense vectors on a real Elasticsearch 9.5.3 node, which leaves them out of `_source` unless
 * a read asks: the panel's grid rows carry them, `%export` (one cursor and sliced) writes
 * them, a re-import of the JSONL with `_bulk` into a fresh index gives back equal documents,
 * and an edit of another field keeps them. All through the kernel's own wire.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import { displaysAndUpdates } from '../support/shown-text';
import { REAL_FLAVOURS } from '../support/real-elasticsearch/flavours';
import { java21Missing } from '../support/real-elasticsearch/jvm';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import { runCell } from './console-smoke';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { scratchDir } from '../support/scratch-dir';

const FLAVOUR = 'es-9.5';
const spec = REAL_FLAVOURS[FLAVOUR];
const skipped =
  elasticsearchTargets().find(t => t.engine === 'real')?.skipped ??
  java21Missing(FLAVOUR);
const describeNode = skipped ? describe.skip : describe;

type Doc = { title: string; n: number; v: number[]; meta: { color: string } };
const DOCS: Record<string, Doc> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `d${i}`,
    {
      title: `doc ${i}`,
      n: i,
      v: [i / 10, 0.2 + i, -0.3 * i],
      meta: { color: 'red' }
    }
  ])
);
const MAPPINGS = {
  properties: {
    title: { type: 'keyword' },
    n: { type: 'integer' },
    v: { type: 'dense_vector', dims: 3 },
    meta: { properties: { color: { type: 'keyword' } } }
  }
};

describeNode(
  skipped
    ? `dense vectors on Elasticsearch ${spec.version} (skipped: ${skipped})`
    : `dense vectors on Elasticsearch ${spec.version}`,
  () => {
    const index = `vectors-${randomUUID().slice(0, 8)}`;
    const copies: string[] = [];
    const cwd = scratchDir('searchbook-vectors-');
    let node: RealNodeAddress;
    let headers: Record<string, string>;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    const call = async (method: string, path: string, body?: string) => {
      const res = await fetchFromNode(node, path, {
        method,
        headers,
        ...(body === undefined ? {} : { body })
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    /** Every document of an index as the engine stores it, vectors asked for. */
    const stored = async (name: string) => {
      const { body } = await call(
        'POST',
        `/${name}/_search`,
        JSON.stringify({ size: 100, _source: { exclude_vectors: false } })
      );
      const hits = (body as { hits: { hits: { _id: string; _source: Doc }[] } })
        .hits.hits;
      return Object.fromEntries(hits.map(h => [h._id, h._source]));
    };

    beforeAll(async () => {
      node = await suitesNode(FLAVOUR);
      headers = { ...authHeaders(node), 'content-type': 'application/json' };
      expect(
        (
          await call(
            'PUT',
            `/${index}`,
            JSON.stringify({
              settings: { number_of_shards: 2, number_of_replicas: 0 },
              mappings: MAPPINGS
            })
          )
        ).status
      ).toBe(200);
      const bulk = Object.entries(DOCS)
        .map(
          ([id, doc]) =>
            `${JSON.stringify({ index: { _index: index, _id: id } })}\n${JSON.stringify(doc)}\n`
        )
        .join('');
      expect((await call('POST', '/_bulk?refresh=true', bulk)).status).toBe(
        200
      );
      ({ kernel, comm } = await kernelWithPanelComm(
        [`%connect elasticsearch ${node.url} auth=none name=es`],
        { ...SECRETS },
        { cwd }
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (node) {
        for (const name of [index, ...copies]) {
          await fetchFromNode(node, `/${name}`, { method: 'DELETE', headers });
        }
      }
    });

    it('the engine leaves vectors out of a plain search (what the kernel must ask around)', async () => {
      const { body } = await call('POST', `/${index}/_search`, '{"size": 1}');
      const source = (body as { hits: { hits: { _source: object }[] } }).hits
        .hits[0]?._source;
      expect(source).toBeDefined();
      expect(source).not.toHaveProperty('v');
    });

    it('a console search is sent as written; its grid says under it that the vectors were left out and how to ask for them', async () => {
      const NOTE =
        'Elasticsearch 9.x leaves dense_vector fields out of _source unless a search asks for them, so v is not in these hits (not empty in the index). To see them, add \\"_source\\": {\\"exclude_vectors\\": false} to the search body.';
      const plain = await runCell(kernel, `GET /${index}/_search`);
      expect(plain.status).toBe('ok');
      expect(plain.hits?.rows.every(row => row['v'] === undefined)).toBe(true);
      expect(plain.text).toContain(NOTE);
      const asked = await runCell(
        kernel,
        `GET /${index}/_search\n{"_source": {"exclude_vectors": false}}`
      );
      expect(asked.status).toBe('ok');
      expect(asked.hits?.rows).toHaveLength(10);
      expect(asked.hits?.rows.every(row => Array.isArray(row['v']))).toBe(true);
      expect(asked.text).not.toContain('leaves dense_vector fields out');
    });

    it('an _msearch says under each search whose hits lack the vectors, and only there', async () => {
      const { reply, iopub } = await kernel.execute(
        [
          'POST /_msearch',
          `{"index": "${index}"}`,
          '{"_source": {"exclude_vectors": false}, "size": 3}',
          `{"index": "${index}"}`,
          '{"size": 3}'
        ].join('\n')
      );
      expect(reply.content['status']).toBe('ok');
      const shown = displaysAndUpdates(iopub).map(bundle =>
        bundle['application/vnd.searchbook.hits+json'] !== undefined
          ? 'grid'
          : String(bundle['text/plain'])
      );
      expect(shown).toEqual([
        'grid',
        'grid',
        'Search 2 of 2: Elasticsearch 9.x leaves dense_vector fields out of _source unless a search asks for them, so v is not in these hits (not empty in the index). To see them, add "_source": {"exclude_vectors": false} to the search body.'
      ]);
    });

    it("the panel grid's rows carry every vector as the engine stores it", async () => {
      const engine = await stored(index);
      const grid = await comm.expect(
        { type: 'open', connection: 'es', target: index, blockSize: 50 },
        'opened'
      );
      expect(grid.first.rows).toHaveLength(12);
      for (const row of grid.first.rows) {
        const id = String(row['_id']);
        expect(row['v']).toEqual(engine[id]?.v);
        expect(row['v']).toHaveLength(3);
      }
    });

    it("the grid's request as a cell asks for the vectors too: run in the console, its rows carry them", async () => {
      const grid = await comm.expect(
        { type: 'open', connection: 'es', target: index, blockSize: 50 },
        'opened'
      );
      expect(grid.request.cell).toContain('"exclude_vectors": false');
      const run = await runCell(kernel, grid.request.cell);
      expect(run.status).toBe('ok');
      expect(run.hits?.rows).toHaveLength(12);
      expect(run.hits?.rows.every(row => Array.isArray(row['v']))).toBe(true);
      expect(run.text).not.toContain('leaves dense_vector fields out');
    });

    it.each([
      ['one cursor', ''],
      ['sliced', ' slices=2']
    ])(
      '%%export (%s) writes the vectors; its JSONL re-imported with _bulk gives back equal documents',
      async (_label, options) => {
        const file = `out-${randomUUID().slice(0, 6)}.jsonl`;
        const { reply } = await kernel.execute(
          `%export ${index} ${file}${options}`
        );
        expect(reply.content['status']).toBe('ok');
        const lines = readFileSync(join(cwd, file), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(
            l => JSON.parse(l) as { _index: string; _id: string; _source: Doc }
          );
        expect(lines).toHaveLength(12);
        for (const line of lines) {
          expect(line._source.v).toHaveLength(3);
        }
        const copy = `${index}-copy-${randomUUID().slice(0, 6)}`;
        copies.push(copy);
        await call('PUT', `/${copy}`, JSON.stringify({ mappings: MAPPINGS }));
        const bulk = lines
          .map(
            l =>
              `${JSON.stringify({ index: { _index: copy, _id: l._id } })}\n${JSON.stringify(l._source)}\n`
          )
          .join('');
        const loaded = await call('POST', '/_bulk?refresh=true', bulk);
        expect((loaded.body as { errors: boolean }).errors).toBe(false);
        const original = await stored(index);
        expect(await stored(copy)).toEqual(original);
        expect(Object.keys(original)).toHaveLength(12);
      }
    );

    it('%export to CSV and to JSON writes the vectors too', async () => {
      const engine = await stored(index);
      expect(
        (await kernel.execute(`%export ${index} all.json`)).reply.content[
          'status'
        ]
      ).toBe('ok');
      const documents = JSON.parse(
        readFileSync(join(cwd, 'all.json'), 'utf8')
      ) as { _id: string; _source: Doc }[];
      expect(documents).toHaveLength(12);
      for (const doc of documents) {
        expect(doc._source.v).toEqual(engine[doc._id]?.v);
      }
      expect(
        (await kernel.execute(`%export ${index} all.csv`)).reply.content[
          'status'
        ]
      ).toBe('ok');
      const [header, ...records] = readFileSync(join(cwd, 'all.csv'), 'utf8')
        .split(/\r?\n/)
        .filter(Boolean);
      const column = (header ?? '').split(',').indexOf('v');
      expect(column).toBeGreaterThan(0);
      expect(records).toHaveLength(12);
      for (const record of records) {
        expect(record).toMatch(/"\[-?[\d.e-]+,-?[\d.e-]+,-?[\d.e-]+\]"/);
      }
    });

    it('an export body may ask for _source options: the fields it names, vectors kept', async () => {
      const file = 'source-options.jsonl';
      const { reply } = await kernel.execute(
        `%export ${index} ${file}\n{"query": {"range": {"n": {"lt": 3}}}, "_source": {"excludes": ["title"]}}`
      );
      expect(reply.content['status']).toBe('ok');
      const sources = readFileSync(join(cwd, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(l => (JSON.parse(l) as { _source: Partial<Doc> })._source);
      expect(sources).toHaveLength(3);
      for (const source of sources) {
        expect(Object.keys(source).sort()).toEqual(['meta', 'n', 'v']);
      }
    });

    it('an edit of another field keeps the vector; the whole value of a vector cell is the vector', async () => {
      const grid = await comm.expect(
        { type: 'open', connection: 'es', target: index, blockSize: 50 },
        'opened'
      );
      const at = grid.first.rows.findIndex(r => r['_id'] === 'd4');
      const before = (await stored(index))['d4'];
      const whole = await comm.expect(
        {
          type: 'wholeValue',
          gridId: grid.gridId,
          row: grid.first.keys?.[at],
          column: 'v'
        },
        'wholeValue'
      );
      expect(whole.value).toEqual(before?.v);
      const saved = await comm.expect(
        {
          type: 'save',
          gridId: grid.gridId,
          changes: [
            {
              kind: 'update',
              key: 'k1',
              row: grid.first.keys?.[at],
              version: grid.first.versions?.[at] ?? undefined,
              fields: { title: 'renamed' }
            }
          ]
        },
        'saved'
      );
      expect(saved.results[0]?.status).toBe('saved');
      const after = (await stored(index))['d4'];
      expect(after).toEqual({ ...before, title: 'renamed' });
      expect(after?.v).toHaveLength(3);
    });

    it('an edit of a dotted column (read first with _mget) keeps the vector', async () => {
      const grid = await comm.expect(
        { type: 'open', connection: 'es', target: index, blockSize: 50 },
        'opened'
      );
      const at = grid.first.rows.findIndex(r => r['_id'] === 'd7');
      const before = (await stored(index))['d7'];
      const saved = await comm.expect(
        {
          type: 'save',
          gridId: grid.gridId,
          changes: [
            {
              kind: 'update',
              key: 'k2',
              row: grid.first.keys?.[at],
              version: grid.first.versions?.[at] ?? undefined,
              fields: { 'meta.color': 'blue' }
            }
          ]
        },
        'saved'
      );
      expect(saved.results[0]?.status).toBe('saved');
      expect((await stored(index))['d7']).toEqual({
        ...before,
        meta: { color: 'blue' }
      });
    });
  }
);
