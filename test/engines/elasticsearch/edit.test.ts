/**
 * Editing from the document grid over the wire (kernel over ZeroMQ, Elasticsearch over HTTP),
 * what is Elasticsearch's own, against the sandbox and the real nodes alike: values typed by the
 * mapping (a date's format, an ip, a nested array's JSON column), dotted keys written where the
 * document holds them, whole numbers past 2^53, keys named __proto__, a new row sent again with
 * the version its conflict gave, rows found through an alias, an index pattern that offers no
 * deletion. What every engine does when editing is in test/engines/contract.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { GridReply } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../../support/elasticsearch-targets';
import type { KernelClient } from '../../support/kernel-client';
import {
  type PanelCommClient,
  kernelWithPanelCommBeside
} from '../../panel/panel-comm-client';

type Opened = Extract<GridReply, { type: 'opened' }>;
type Saved = Extract<GridReply, { type: 'saved' }>;

const Stored = z
  .object({
    found: z.boolean(),
    _index: z.string(),
    _source: z.record(z.string(), z.unknown()).optional(),
    _seq_no: z.number().optional(),
    _primary_term: z.number().optional()
  })
  .loose();

const MAPPINGS = {
  properties: {
    title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    pages: { type: 'integer' },
    price: { type: 'double' },
    in_print: { type: 'boolean' },
    published: { type: 'date' },
    released: { type: 'date', format: 'yyyy/MM/dd' },
    host: { type: 'ip' },
    address: {
      properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } }
    },
    variants: {
      type: 'nested',
      properties: { sku: { type: 'keyword' }, stock: { type: 'integer' } }
    },
    notes: { type: 'keyword' }
  }
};

const DOCS: Record<string, Record<string, unknown>> = {
  d1: {
    title: 'Dune',
    pages: 412,
    price: 9.5,
    in_print: true,
    published: '1965-08-01',
    address: { city: 'Paris', zip: '75001' },
    variants: [{ sku: 'D1', stock: 3 }]
  },
  d2: { title: 'Emma', pages: 300, price: 5, in_print: false },
  d3: { title: 'Ulysses', pages: 730 },
  d4: {
    title: 'Long',
    notes: Array.from({ length: 1500 }, (_, n) => `note-${n}`)
  },
  d5: { title: 'Spare' }
};

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'editing from the grid', target => {
  const BOOKS = `edit-books-${randomUUID().slice(0, 8)}`;
  let engine: RunningEsTarget;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  const engineCall = async (
    method: string,
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: unknown }> => {
    const answer = await fetch(`${engine.url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : {
            body: JSON.stringify(body),
            headers: { 'content-type': 'application/json' }
          })
    });
    const text = await answer.text();
    return {
      status: answer.status,
      body: text ? (JSON.parse(text) as unknown) : null
    };
  };
  const stored = async (id: string, index = BOOKS) =>
    Stored.parse((await engineCall('GET', `/${index}/_doc/${id}`)).body);
  const open = (gridTarget = BOOKS) =>
    comm.expect(
      { type: 'open', connection: 'es', target: gridTarget, blockSize: 50 },
      'opened'
    );
  const save = (grid: Opened, changes: unknown[]) =>
    comm.expect({ type: 'save', gridId: grid.gridId, changes }, 'saved');
  const plan = (grid: Opened, changes: unknown[]) =>
    comm.expect({ type: 'plan', gridId: grid.gridId, changes }, 'plan');
  /** The row of a grid's first block with this id: its key and version as read. */
  const rowOf = (grid: Opened, id: string) => {
    const at = grid.first.rows.findIndex(r => r._id === id);
    if (at < 0) {
      throw new Error(`no row ${id}`);
    }
    return {
      row: grid.first.keys?.[at],
      version: grid.first.versions?.[at] ?? undefined,
      values: grid.first.rows[at],
      at
    };
  };
  const saved = (reply: Saved, key: string) => {
    const result = reply.results.find(r => r.key === key);
    if (result?.status !== 'saved') {
      throw new Error(`${key} not saved: ${JSON.stringify(reply)}`);
    }
    return result;
  };

  beforeAll(async () => {
    engine = await target.start({ security: false });
    // The kernel starts while the index is made.
    ({ kernel, comm } = await kernelWithPanelCommBeside(
      async () => {
        const created = await engineCall('PUT', `/${BOOKS}`, {
          settings: { number_of_shards: 1, number_of_replicas: 0 },
          mappings: MAPPINGS
        });
        expect(created.status).toBe(200);
        for (const [id, doc] of Object.entries(DOCS)) {
          await engineCall('PUT', `/${BOOKS}/_doc/${id}`, doc);
        }
        await engineCall('POST', `/${BOOKS}/_refresh`);
      },
      [`%connect elasticsearch ${engine.url} name=es`],
      { ...SECRETS }
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    if (engine) {
      await Promise.all(
        [
          BOOKS,
          `${BOOKS}-a`,
          `${BOOKS}-b`,
          `${BOOKS}-gone`,
          `${BOOKS}-dot`,
          `${BOOKS}-big`,
          `${BOOKS}-arr`,
          `${BOOKS}-proto`,
          `${BOOKS}-keys`
        ].map(index => engineCall('DELETE', `/${index}`).catch(() => undefined))
      );
    }
    await engine?.close();
  });

  it('an edit sends only the changed fields to _update with the version read; the stored document changes only there', async () => {
    const grid = await open();
    const { row, version } = rowOf(grid, 'd1');
    const changes = [
      {
        kind: 'update',
        key: 'k1',
        row,
        version,
        fields: {
          pages: '500',
          'address.city': 'Oslo',
          in_print: 'FALSE',
          published: '2001-02-03T04:05:06Z'
        }
      }
    ];
    const shown = await plan(grid, changes);
    expect(shown.refusals).toEqual([]);
    expect(shown.requests).toEqual([
      {
        key: 'k1',
        method: 'POST',
        path: `/${BOOKS}/_update/d1?refresh=wait_for&_source=true&if_seq_no=${version?.seqNo}&if_primary_term=${version?.primaryTerm}`,
        body: {
          doc: {
            pages: 500,
            address: { city: 'Oslo' },
            in_print: false,
            published: '2001-02-03T04:05:06Z'
          }
        }
      }
    ]);
    const result = saved(await save(grid, changes), 'k1');
    const doc = await stored('d1');
    expect(doc._source).toEqual({
      ...DOCS.d1,
      pages: 500,
      in_print: false,
      published: '2001-02-03T04:05:06Z',
      address: { city: 'Oslo', zip: '75001' }
    });
    expect(result.version).toEqual({
      seqNo: doc._seq_no,
      primaryTerm: doc._primary_term
    });
    expect(result.request).toMatchObject({ method: 'POST', status: 200 });
    // The grid row of the stored document, the fields not edited included.
    expect(result.document).toMatchObject({
      _id: 'd1',
      _index: BOOKS,
      pages: 500,
      'address.city': 'Oslo',
      'address.zip': '75001',
      title: 'Dune'
    });
    // refresh=wait_for: a grid opened now shows the saved value.
    expect(rowOf(await open(), 'd1').values?.pages).toBe(500);
  });

  it('an edit writes a field where the document holds it: a flat dotted key is replaced, a nested one stays nested; a document holding both is refused', async () => {
    const DOT = `${BOOKS}-dot`;
    await engineCall('PUT', `/${DOT}/_doc/flat`, { 'a.b': 'flat', n: 1 });
    await engineCall('PUT', `/${DOT}/_doc/nested`, {
      a: { b: 'nested', c: 'kept' },
      n: 2
    });
    await engineCall('PUT', `/${DOT}/_doc/both`, {
      'a.b': 'flat',
      a: { b: 'nested' },
      n: 3
    });
    await engineCall('POST', `/${DOT}/_refresh`);
    const grid = await open(DOT);
    const flat = rowOf(grid, 'flat');
    const nested = rowOf(grid, 'nested');
    const changes = [
      {
        kind: 'update',
        key: 'f',
        row: flat.row,
        version: flat.version,
        fields: { 'a.b': 'edited' }
      },
      {
        kind: 'update',
        key: 'n',
        row: nested.row,
        version: nested.version,
        fields: { 'a.b': 'edited' }
      }
    ];
    const shown = await plan(grid, changes);
    expect(shown.requests.map(r => r.body)).toEqual([
      { doc: { 'a.b': 'edited' } },
      { doc: { a: { b: 'edited' } } }
    ]);
    const reply = await save(grid, changes);
    expect(saved(reply, 'f').document).toMatchObject({ 'a.b': 'edited' });
    saved(reply, 'n');
    // The engine holds the new value once: the old flat value is gone, not left beside it.
    expect((await stored('flat', DOT))._source).toEqual({
      'a.b': 'edited',
      n: 1
    });
    expect((await stored('nested', DOT))._source).toEqual({
      a: { b: 'edited', c: 'kept' },
      n: 2
    });

    const both = rowOf(grid, 'both');
    const before = await stored('both', DOT);
    const refused = await save(grid, [
      {
        kind: 'update',
        key: 'b',
        row: both.row,
        version: both.version,
        fields: { 'a.b': 'edited', n: '4' }
      }
    ]);
    expect(refused.results).toEqual([]);
    expect(refused.refusals).toEqual([
      {
        key: 'b',
        column: 'a.b',
        message: expect.stringContaining(
          'a.b is stored twice in this document, as {"a.b": …} and as {"a": {"b": …}}'
        ) as unknown
      }
    ]);
    expect(await stored('both', DOT)).toEqual(before);
  });

  it('a dotted column that crosses an array of objects in the stored document is refused: the write would put an object in place of the array', async () => {
    const ARR = `${BOOKS}-arr`;
    await engineCall('PUT', `/${ARR}/_doc/one`, { a: { b: 'z', c: 3 }, n: 1 });
    await engineCall('PUT', `/${ARR}/_doc/list`, {
      a: [
        { b: 'x', c: 1 },
        { b: 'y', c: 2 }
      ],
      n: 2
    });
    await engineCall('POST', `/${ARR}/_refresh`);
    const grid = await open(ARR);
    const list = rowOf(grid, 'list');
    const one = rowOf(grid, 'one');
    expect(list.values?.['a.b']).toEqual(['x', 'y']);
    const before = await stored('list', ARR);
    const changes = [
      {
        kind: 'update',
        key: 'l',
        row: list.row,
        version: list.version,
        fields: { 'a.b': '["x", "w"]' }
      },
      // The column holds JSON (an array in another row), so a string is written quoted.
      {
        kind: 'update',
        key: 'o',
        row: one.row,
        version: one.version,
        fields: { 'a.b': '"edited"' }
      }
    ];
    const refused = await save(grid, changes);
    expect(refused.results).toEqual([]);
    expect(refused.refusals).toEqual([
      {
        key: 'l',
        column: 'a.b',
        message:
          'a.b lists one value per element of a and is read-only: edit the array in its JSON column a.'
      }
    ]);
    expect(await stored('list', ARR)).toEqual(before);
    // The same column of a document holding an object there is written as usual.
    saved(await save(grid, changes.slice(1)), 'o');
    expect((await stored('one', ARR))._source).toEqual({
      a: { b: 'edited', c: 3 },
      n: 1
    });
  });

  it('a whole number past 2^53 is written as a JSON number with every digit, never as a string', async () => {
    const BIG = `${BOOKS}-big`;
    await engineCall('PUT', `/${BIG}`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: { stock: { type: 'long' }, counts: { type: 'long' } }
      }
    });
    await engineCall('PUT', `/${BIG}/_doc/1?refresh=true`, {
      stock: 1,
      counts: [1]
    });
    const grid = await open(BIG);
    const { row, version } = rowOf(grid, '1');
    const changes = [
      {
        kind: 'update',
        key: 'k',
        row,
        version,
        fields: {
          stock: '9007199254740993',
          counts: '[-9223372036854775808, 2]'
        }
      }
    ];
    const [request] = (await plan(grid, changes)).requests;
    expect(request?.bodyText).toBe(
      '{\n  "doc": {\n    "stock": 9007199254740993,\n    "counts": [\n      -9223372036854775808,\n      2\n    ]\n  }\n}'
    );
    saved(await save(grid, changes), 'k');
    // Read as text: JSON.parse would round the digits this checks.
    const source = await (await fetch(`${engine.url}/${BIG}/_source/1`)).text();
    expect(source.replace(/\s/g, '')).toBe(
      '{"stock":9007199254740993,"counts":[-9223372036854775808,2]}'
    );
    // Saving again is safe: what is stored already is reported saved, not a conflict.
    expect((await save(grid, changes)).results[0]).toMatchObject({
      key: 'k',
      status: 'saved'
    });
  });

  it('a new row whose object holds a key named __proto__ keeps it, in the stored document and in the grid row shown for it', async () => {
    const PROTO = `${BOOKS}-proto`;
    await engineCall('PUT', `/${PROTO}/_doc/old?refresh=true`, {
      meta: { a: 1 }
    });
    const grid = await open(PROTO);
    const reply = await save(grid, [
      {
        kind: 'insert',
        key: 'p',
        index: PROTO,
        id: 'new',
        fields: { meta: '{"__proto__": "p", "a": 2}' }
      }
    ]);
    const { document } = saved(reply, 'p');
    expect(
      JSON.stringify((await engineCall('GET', `/${PROTO}/_source/new`)).body)
    ).toBe('{"meta":{"__proto__":"p","a":2}}');
    expect(document?.['meta.a']).toBe(2);
    expect(
      document && Object.hasOwn(document, 'meta.__proto__')
        ? document['meta.__proto__']
        : 'missing'
    ).toBe('p');
  });

  it('an edit of fields named __proto__ and constructor writes them; the stored document and the grid row shown for it hold the values typed', async () => {
    const KEYS = `${BOOKS}-keys`;
    // As parsed JSON holds them: a literal `{__proto__: …}` would set a prototype, not a field.
    const document = (text: string) =>
      JSON.parse(text) as Record<string, unknown>;
    await engineCall(
      'PUT',
      `/${KEYS}/_doc/k?refresh=true`,
      document(
        '{"__proto__": "old proto", "constructor": "old constructor", "title": "Keys"}'
      )
    );
    const grid = await open(KEYS);
    const { row, version } = rowOf(grid, 'k');
    const result = saved(
      await save(grid, [
        {
          kind: 'update',
          key: 'k',
          row,
          version,
          fields: document(
            '{"__proto__": "new proto", "constructor": "new constructor"}'
          )
        }
      ]),
      'k'
    );
    const source = (await engineCall('GET', `/${KEYS}/_source/k`))
      .body as Record<string, unknown>;
    expect(Object.entries(source).sort()).toEqual([
      ['__proto__', 'new proto'],
      ['constructor', 'new constructor'],
      ['title', 'Keys']
    ]);
    const shown = result.document ?? {};
    expect([
      Object.hasOwn(shown, '__proto__') && shown['__proto__'],
      Object.hasOwn(shown, 'constructor') && shown['constructor']
    ]).toEqual(['new proto', 'new constructor']);
  });

  it('a new row whose id exists is a conflict with the stored document; sent again with its version it replaces it', async () => {
    const grid = await open();
    const before = await stored('d5');
    const reply = await save(grid, [
      {
        kind: 'insert',
        key: 'x',
        index: BOOKS,
        id: 'd5',
        fields: { title: 'Mine' }
      }
    ]);
    const [conflict] = reply.results;
    expect(conflict).toMatchObject({
      key: 'x',
      status: 'conflict',
      current: { _id: 'd5', title: 'Spare' },
      version: { seqNo: before._seq_no, primaryTerm: before._primary_term }
    });
    expect(conflict?.status === 'conflict' && conflict.message).toContain(
      'already exists'
    );
    expect((await stored('d5'))._source).toEqual(DOCS.d5);
    const again = saved(
      await save(grid, [
        {
          kind: 'insert',
          key: 'x',
          index: BOOKS,
          id: 'd5',
          version:
            conflict?.status === 'conflict' ? conflict.version : undefined,
          fields: { title: 'Mine' }
        }
      ]),
      'x'
    );
    expect(again.request.path).toBe(
      `/${BOOKS}/_doc/d5?refresh=wait_for&if_seq_no=${before._seq_no}&if_primary_term=${before._primary_term}`
    );
    expect((await stored('d5'))._source).toEqual({ title: 'Mine' });
  });

  it('typed values are refused under their cells, all of them, and nothing is sent', async () => {
    const grid = await open();
    const { row, version } = rowOf(grid, 'd2');
    const before = await stored('d2');
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'bad',
        row,
        version,
        fields: {
          pages: '12.5',
          price: 'cheap',
          in_print: 'yes',
          published: '17/05/2024',
          released: '2024-05-17',
          variants: '[{"sku": "A",\n  "stock": }]',
          'variants.sku': '["Z"]',
          _id: 'other',
          _index: 'elsewhere'
        }
      },
      {
        kind: 'insert',
        key: 'bad-new',
        index: BOOKS,
        fields: { pages: '2147483648', _score: '1', _id: 'typed-here' }
      }
    ]);
    expect(reply.results).toEqual([]);
    const by = (column: string) =>
      reply.refusals.find(r => r.column === column);
    expect(by('pages')?.message).toMatch(/fraction.*whole numbers/);
    expect(by('price')?.message).toContain('not a number');
    expect(by('in_print')?.message).toContain('true or false');
    expect(by('published')?.message).toContain(
      'strict_date_optional_time||epoch_millis'
    );
    expect(by('released')?.message).toContain('yyyy/MM/dd');
    expect(by('variants')).toMatchObject({ line: 2, col: 12 });
    expect(by('variants.sku')?.message).toContain(
      'edit the array in its JSON column variants'
    );
    expect(by('_id')?.message).toContain('read-only');
    expect(by('_index')?.message).toContain('read-only');
    expect(
      reply.refusals.filter(r => r.key === 'bad-new').map(r => r.column)
    ).toEqual(['pages', '_score', '_id']);
    expect(
      reply.refusals.find(r => r.key === 'bad-new' && r.column === '_id')
        ?.message
    ).toContain("the new row's id");
    expect(
      reply.refusals.find(r => r.key === 'bad-new' && r.column === 'pages')
        ?.message
    ).toContain('outside');
    const after = await stored('d2');
    expect(after._seq_no).toBe(before._seq_no);
    expect(after._source).toEqual(DOCS.d2);
    // The same values in the right form go through.
    saved(
      await save(grid, [
        {
          kind: 'update',
          key: 'ok',
          row,
          version,
          fields: {
            released: '2024/05/17',
            variants: '[{"sku": "A", "stock": 2}]',
            price: '7.25'
          }
        }
      ]),
      'ok'
    );
    expect((await stored('d2'))._source).toEqual({
      ...DOCS.d2,
      released: '2024/05/17',
      variants: [{ sku: 'A', stock: 2 }],
      price: 7.25
    });
  });

  it('rows found through an alias are written to their own index', async () => {
    for (const suffix of ['a', 'b']) {
      await engineCall('PUT', `/${BOOKS}-${suffix}`, {
        settings: { number_of_shards: 1, number_of_replicas: 0 },
        mappings: MAPPINGS,
        aliases: { [`${BOOKS}-all`]: {} }
      });
    }
    await engineCall('PUT', `/${BOOKS}-b/_doc/only-b?refresh=true`, {
      title: 'In B',
      pages: 1
    });
    const grid = await open(`${BOOKS}-all`);
    const { row, version } = rowOf(grid, 'only-b');
    expect(row).toEqual({ index: `${BOOKS}-b`, id: 'only-b' });
    const result = saved(
      await save(grid, [
        { kind: 'update', key: 'b', row, version, fields: { pages: '2' } }
      ]),
      'b'
    );
    expect(result.request.path).toMatch(
      new RegExp(`^/${BOOKS}-b/_update/only-b\\?`)
    );
    expect((await stored('only-b', `${BOOKS}-b`))._source).toEqual({
      title: 'In B',
      pages: 2
    });
  });

  it('an index is deleted only with its name typed: DELETE /<index>; Elasticsearch offers no empty', async () => {
    await engineCall('PUT', `/${BOOKS}-gone`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 }
    });
    const actions = await comm.expect(
      { type: 'targetActions', connection: 'es', target: `${BOOKS}-gone` },
      'targetActions'
    );
    expect(actions.actions).toEqual([
      {
        action: 'delete',
        label: 'Delete index',
        request: `DELETE /${BOOKS}-gone`
      }
    ]);
    const refused = await comm.call({
      type: 'targetAction',
      connection: 'es',
      target: `${BOOKS}-gone`,
      action: 'delete',
      confirmName: `${BOOKS}-gon`
    });
    expect(refused).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Nothing was deleted')
    });
    expect((await engineCall('HEAD', `/${BOOKS}-gone`)).status).toBe(200);
    const done = await comm.expect(
      {
        type: 'targetAction',
        connection: 'es',
        target: `${BOOKS}-gone`,
        action: 'delete',
        confirmName: `${BOOKS}-gone`
      },
      'targetActionDone'
    );
    expect(done.request).toMatchObject({
      method: 'DELETE',
      path: `/${BOOKS}-gone`,
      status: 200
    });
    expect((await engineCall('HEAD', `/${BOOKS}-gone`)).status).toBe(404);
    const pattern = await comm.expect(
      { type: 'targetActions', connection: 'es', target: `${BOOKS}-*` },
      'targetActions'
    );
    expect(pattern.actions[0]?.unavailable).toContain('several indices');
  });
});
