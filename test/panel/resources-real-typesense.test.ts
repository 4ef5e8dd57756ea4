/**
 * Typesense resources over the wire against the run's real Typesense 0.24.1 server (kernel
 * process, ZeroMQ, HTTP): what 0.24 has (each collection's synonyms and overrides, presets,
 * aliases) is listed, changed and read back from the server; what it lacks (stopwords, the
 * global sets of 30) is disabled with the version that brings it and refused before anything
 * is sent.
 */
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import {
  type RunningTsTarget,
  TS_START_TIMEOUT_MS,
  typesenseTargets
} from '../support/typesense-targets';
import { type PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

const REAL = typesenseTargets('29.0').find(t => t.real);
let kernel: KernelClient;
let comm: PanelCommClient;
let engine: RunningTsTarget;
let books = 'books';
let passages = 'passages';

const kindsOf = async () =>
  (
    await comm.expect(
      { type: 'resourceKinds', connection: 'real' },
      'resourceKinds'
    )
  ).kinds;

async function plan(
  kind: string,
  name: string,
  body?: unknown,
  parent?: string
) {
  return comm.call({
    type: 'resourcePlan',
    connection: 'real',
    change: {
      target: { kind, ...(parent ? { parent } : {}) },
      op: 'put',
      name,
      ...(body !== undefined ? { body } : {})
    }
  });
}

async function apply(
  op: 'put' | 'delete',
  kind: string,
  name: string,
  body?: unknown,
  parent?: string
) {
  return comm.expect(
    {
      type: 'resourceApply',
      connection: 'real',
      change: {
        target: { kind, ...(parent ? { parent } : {}) },
        op,
        name,
        ...(body !== undefined ? { body } : {})
      }
    },
    'resourceApplied'
  );
}

const list = async (kind: string, parent?: string) =>
  (
    await comm.expect(
      {
        type: 'resourceList',
        connection: 'real',
        target: { kind, ...(parent ? { parent } : {}) }
      },
      'resourceList'
    )
  ).entries;

(REAL?.skipped ? describe.skip : describe)(
  `real Typesense ${REAL?.version ?? ''}${REAL?.skipped ? ` (skipped: ${REAL.skipped})` : ''}`,
  () => {
    beforeAll(async () => {
      if (!REAL) {
        throw new Error('no real Typesense target');
      }
      engine = await REAL.start([
        {
          schema: {
            name: 'books',
            fields: [
              { name: 'title', type: 'string' },
              { name: 'year', type: 'int32' }
            ]
          },
          docs: [
            { id: '1', title: 'Wool sweater patterns', year: 2001 },
            { id: '2', title: 'Pullover knitting', year: 2003 }
          ]
        },
        {
          schema: {
            name: 'passages',
            fields: [
              { name: 'text', type: 'string' },
              { name: 'vec', type: 'float[]', num_dim: 4 }
            ]
          },
          docs: [{ id: '1', text: 'Wool', vec: [0.1, 0.2, 0.3, 0.4] }]
        }
      ]);
      books = engine.names['books'] ?? books;
      passages = engine.names['passages'] ?? passages;
      ({ kernel, comm } = await kernelWithPanelComm(
        [`%connect typesense ${engine.url} key=\${env:TS_API_KEY} name=real`],
        SECRETS
      ));
    }, TS_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      await engine?.close();
    });

    it('offers what 0.24 has and disables what it lacks, with the version that brings it', async () => {
      const kinds = await kindsOf();
      const of = (kind: string) => kinds.find(k => k.kind === kind);
      for (const kind of ['aliases', 'synonyms', 'overrides', 'presets']) {
        expect(of(kind)?.available).toBe(true);
      }
      expect(of('stopwords')).toMatchObject({
        available: false,
        unavailableReason: expect.stringMatching(
          /^Stopwords come with Typesense 0\.25; this server \(0\.24\.1\) has none\./
        ) as unknown
      });
      expect(of('synonymSets')?.unavailableReason).toMatch(/Typesense 30/);
      const refused = await plan('stopwords', 'common', {
        stopwords: ['the'],
        locale: 'en'
      });
      expect(refused).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/Nothing was sent\.$/) as unknown
      });
    });

    it('the schema view shows a vector field with the dimensions the server holds', async () => {
      const { schema } = await comm.expect(
        { type: 'collectionSchema', connection: 'real', collection: passages },
        'collectionSchema'
      );
      const field = (n: string) => schema.fields.find(f => f.name === n);
      expect(field('vec')).toMatchObject({
        type: 'float[]',
        vector: { numDim: 4 }
      });
      // 0.24 lists no vec_dist (it came with 0.25): the view names none rather than a guess.
      expect(field('vec')?.vector?.vecDist).toBeUndefined();
      expect(field('text')?.vector).toBeUndefined();
      expect(field('text')?.embed).toBeUndefined();
    });

    it("a collection's synonyms and overrides and the presets are written, read back from the server and deleted", async () => {
      await apply(
        'put',
        'synonyms',
        'knit',
        { synonyms: ['sweater', 'pullover'] },
        books
      );
      expect(await list('synonyms', books)).toEqual([
        {
          name: 'knit',
          value: expect.objectContaining({
            synonyms: ['sweater', 'pullover']
          }) as unknown
        }
      ]);
      const found = await fetch(
        `${engine.url}/collections/${books}/documents/search?q=sweater&query_by=title`,
        { headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY } }
      );
      // The synonym applies on the server: pullover finds the knitting book too.
      expect(((await found.json()) as { found: number }).found).toBe(2);
      await apply(
        'put',
        'overrides',
        'pin',
        {
          rule: { query: 'wool', match: 'exact' },
          includes: [{ id: '2', position: 1 }]
        },
        books
      );
      expect((await list('overrides', books)).map(e => e.name)).toEqual([
        'pin'
      ]);
      await apply('put', 'presets', 'short', {
        value: { query_by: 'title', per_page: 1 }
      });
      expect((await list('presets')).map(e => e.name)).toContain('short');
      await apply('delete', 'synonyms', 'knit', undefined, books);
      await apply('delete', 'overrides', 'pin', undefined, books);
      await apply('delete', 'presets', 'short');
      expect(await list('synonyms', books)).toEqual([]);
      expect(await list('overrides', books)).toEqual([]);
      expect((await list('presets')).map(e => e.name)).not.toContain('short');
    });
  }
);
