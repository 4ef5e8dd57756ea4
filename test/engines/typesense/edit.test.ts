/**
 * Editing from the document grid over the wire (kernel over ZeroMQ, the Typesense sandbox over
 * HTTP), what is Typesense's own: PATCH with only the changed fields typed by the schema (an
 * object leaf sent with its object whole, so its other leaves stay); an update or deletion made
 * against values someone changed since (read and compared first, as Typesense keeps no
 * versions); int64 past 2^53; keys named __proto__; emptying collections, only on 28.0 and
 * later. What every engine does when editing is in test/engines/contract.
 */
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import type { GridReply } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import {
  type BreakingProxy,
  startBreakingProxy
} from '../../support/breaking-proxy';
import type { KernelClient } from '../../support/kernel-client';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../../panel/panel-comm-client';

type Opened = Extract<GridReply, { type: 'opened' }>;
type Saved = Extract<GridReply, { type: 'saved' }>;

const SCHEMA = {
  enable_nested_fields: true,
  fields: [
    { name: 'title', type: 'string' },
    { name: 'pages', type: 'int32', optional: true },
    { name: 'big', type: 'int64', optional: true },
    { name: 'price', type: 'float', optional: true },
    { name: 'in_print', type: 'bool', optional: true },
    { name: 'tags', type: 'string[]', optional: true },
    { name: 'meta', type: 'object', optional: true },
    { name: 'meta.city', type: 'string', optional: true },
    { name: 'meta.floor', type: 'int32', optional: true },
    { name: 'variants', type: 'object[]', optional: true },
    { name: 'variants.sku', type: 'string[]', optional: true }
  ]
};

const DOCS = [
  {
    id: 'b1',
    title: 'Dune',
    pages: 412,
    price: 9.5,
    in_print: true,
    tags: ['sf'],
    meta: { city: 'Paris', floor: 3 },
    variants: [{ sku: 'D1' }]
  },
  { id: 'b2', title: 'Emma', pages: 300 },
  {
    id: 'b3',
    title: 'Long',
    tags: Array.from({ length: 1500 }, (_, n) => `tag-${n}`)
  },
  { id: 'b4', title: 'Spare' }
];

/** The same field stored under a flat dotted key, nested, and both ways (ingested logs hold all three). */
const LOGS = [
  { id: 'flat', 'a.b': 'flat', n: 1 },
  { id: 'nested', a: { b: 'nested', c: 'kept' }, n: 2 },
  { id: 'both', 'a.b': 'flat', a: { b: 'nested' }, n: 3 }
];

let servers: ListeningServer[] = [];
let kernel: KernelClient;
let comm: PanelCommClient;
let url30 = '';
let url27 = '';
/** The kernel reaches the 30.0 sandbox through it: it records every request and can break an answer. */
let proxy: BreakingProxy;
const writesSeen = () =>
  proxy.seen.filter(
    r => r.method !== 'GET' && !r.url.startsWith('/multi_search')
  );

async function engineCall(
  method: string,
  path: string,
  body?: unknown,
  url = url30
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: {
      'x-typesense-api-key': SECRETS.TS_API_KEY,
      'content-type': 'application/json'
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  });
  return {
    status: answer.status,
    body: (await answer.json()) as Record<string, unknown>
  };
}
const stored = async (id: string, collection = 'books') =>
  engineCall('GET', `/collections/${collection}/documents/${id}`);

beforeAll(async () => {
  for (const version of ['30.0', '27.1']) {
    const ts = createTypesenseSandbox({ version, apiKey: SECRETS.TS_API_KEY });
    ts.createCollection({ name: 'books', ...SCHEMA });
    ts.loadDocuments('books', DOCS);
    ts.createCollection({
      name: 'shelf',
      fields: [{ name: 'title', type: 'string' }]
    });
    ts.createCollection({
      name: 'logs',
      enable_nested_fields: true,
      fields: [{ name: '.*', type: 'auto' }]
    });
    ts.loadDocuments('logs', LOGS);
    ts.loadDocuments('shelf', [
      { id: 's1', title: 'One' },
      { id: 's2', title: 'Two' }
    ]);
    // Field names as parsed JSON holds them: a literal `{__proto__: …}` would set a prototype, not a field.
    ts.createCollection(
      JSON.parse(
        '{"name": "keys", "fields": [{"name": "title", "type": "string"}, {"name": "__proto__", "type": "string"}, {"name": "constructor", "type": "string"}]}'
      )
    );
    ts.loadDocuments('keys', [
      JSON.parse(
        '{"id": "k", "title": "Keys", "__proto__": "old proto", "constructor": "old constructor"}'
      )
    ]);
    servers.push(await listen(ts.handler, { port: 0 }));
  }
  [url30, url27] = servers.map(s => s.url) as [string, string];
  proxy = await startBreakingProxy(url30);
  ({ kernel, comm } = await kernelWithPanelComm(
    [
      `%connect typesense ${proxy.url} key=\${env:TS_API_KEY} name=ts`,
      `%connect typesense ${url27} key=\${env:TS_API_KEY} name=ts27`
    ],
    { ...SECRETS }
  ));
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await proxy?.close();
  await Promise.all(servers.map(s => s.close()));
  servers = [];
});

const open = (target = 'books') =>
  comm.expect(
    { type: 'open', connection: 'ts', target, blockSize: 50 },
    'opened'
  );
const save = (grid: Opened, changes: unknown[]) =>
  comm.expect({ type: 'save', gridId: grid.gridId, changes }, 'saved');
const rowOf = (grid: Opened, id: string) => {
  const at = grid.first.rows.findIndex(r => r.id === id);
  if (at < 0) {
    throw new Error(`no row ${id}`);
  }
  return { row: grid.first.keys?.[at], at };
};
const saved = (reply: Saved, key: string) => {
  const result = reply.results.find(r => r.key === key);
  if (result?.status !== 'saved') {
    throw new Error(`${key} not saved: ${JSON.stringify(reply)}`);
  }
  return result;
};

it('an edit PATCHes only the changed fields, typed by the schema; the stored document changes only there', async () => {
  const grid = await open();
  const { row } = rowOf(grid, 'b1');
  const changes = [
    {
      kind: 'update',
      key: 'k',
      row,
      fields: {
        pages: '500',
        in_print: 'false',
        price: '12',
        tags: '["sf", "classic"]',
        big: '9007199254740991'
      }
    }
  ];
  const plan = await comm.expect(
    { type: 'plan', gridId: grid.gridId, changes },
    'plan'
  );
  expect(plan).toMatchObject({
    refusals: [],
    requests: [
      {
        key: 'k',
        method: 'PATCH',
        path: '/collections/books/documents/b1',
        body: {
          pages: 500,
          in_print: false,
          price: 12,
          tags: ['sf', 'classic'],
          big: 9007199254740991
        }
      }
    ]
  });
  const result = saved(await save(grid, changes), 'k');
  expect(result.request).toMatchObject({
    method: 'PATCH',
    path: '/collections/books/documents/b1',
    status: 200
  });
  const doc = (await stored('b1')).body;
  expect(doc).toEqual({
    ...DOCS[0],
    pages: 500,
    in_print: false,
    price: 12,
    tags: ['sf', 'classic'],
    big: 9007199254740991
  });
  expect(result.document).toMatchObject({
    id: 'b1',
    pages: 500,
    'meta.city': 'Paris'
  });
});

it('an edit of an object leaf sends the object whole, so its other leaves stay', async () => {
  const grid = await open();
  const { row } = rowOf(grid, 'b1');
  const plan = await comm.expect(
    {
      type: 'plan',
      gridId: grid.gridId,
      changes: [
        { kind: 'update', key: 'm', row, fields: { 'meta.city': 'Oslo' } }
      ]
    },
    'plan'
  );
  expect(plan.requests[0]?.body).toEqual({ meta: { city: 'Oslo', floor: 3 } });
  saved(
    await save(grid, [
      { kind: 'update', key: 'm', row, fields: { 'meta.city': 'Oslo' } }
    ]),
    'm'
  );
  expect((await stored('b1')).body.meta).toEqual({ city: 'Oslo', floor: 3 });
});

it('an edit of fields named __proto__ and constructor, made against the values read, writes them; the stored document holds the values typed', async () => {
  const grid = await open('keys');
  const { row, at } = rowOf(grid, 'k');
  const read = grid.first.rows[at] ?? {};
  const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
  const expected = json(
    '{"__proto__": "old proto", "constructor": "old constructor"}'
  );
  expect([
    Object.hasOwn(read, '__proto__') && read['__proto__'],
    Object.hasOwn(read, 'constructor') && read['constructor']
  ]).toEqual(['old proto', 'old constructor']);
  const result = saved(
    await save(grid, [
      {
        kind: 'update',
        key: 'k',
        row,
        expected,
        fields: json(
          '{"__proto__": "new proto", "constructor": "new constructor"}'
        )
      }
    ]),
    'k'
  );
  expect(result.request).toMatchObject({
    method: 'PATCH',
    path: '/collections/keys/documents/k',
    status: 200
  });
  expect(Object.entries((await stored('k', 'keys')).body).sort()).toEqual([
    ['__proto__', 'new proto'],
    ['constructor', 'new constructor'],
    ['id', 'k'],
    ['title', 'Keys']
  ]);
  // Made against values someone changed since: a conflict, nothing written.
  const stale = await save(grid, [
    {
      kind: 'update',
      key: 's',
      row,
      expected: json('{"__proto__": "old proto"}'),
      fields: json('{"__proto__": "late"}')
    }
  ]);
  expect(stale.results).toMatchObject([{ key: 's', status: 'conflict' }]);
  expect((await stored('k', 'keys')).body['__proto__']).toBe('new proto');
});

it('an update saying what it read is written only while the stored fields still hold it; a change made meanwhile is a conflict, and nothing is written', async () => {
  await engineCall('POST', '/collections/books/documents', {
    id: 'race',
    title: 'Race',
    pages: 100,
    meta: { city: 'Rome', floor: 1 }
  });
  const grid = await open();
  const { row, at } = rowOf(grid, 'race');
  const read = grid.first.rows[at] as Record<string, unknown>;
  expect(read).toMatchObject({ pages: 100, 'meta.city': 'Rome' });
  // Read as the grid read it: saved, with one GET before the PATCH.
  proxy.seen.length = 0;
  saved(
    await save(grid, [
      {
        kind: 'update',
        key: 'same',
        row,
        expected: { pages: read['pages'], 'meta.city': read['meta.city'] },
        fields: { pages: '101' }
      }
    ]),
    'same'
  );
  expect(proxy.seen.map(r => `${r.method} ${r.url}`)).toEqual([
    'GET /collections/books/documents/race',
    'PATCH /collections/books/documents/race'
  ]);
  // Someone else writes pages and an object leaf meanwhile.
  await engineCall('PATCH', '/collections/books/documents/race', {
    pages: 250,
    meta: { city: 'Oslo', floor: 1 }
  });
  proxy.seen.length = 0;
  const reply = await save(grid, [
    {
      kind: 'update',
      key: 'late',
      row,
      expected: { pages: 101, 'meta.city': 'Rome', title: 'Race' },
      fields: { pages: '102', 'meta.city': 'Milan' }
    }
  ]);
  expect(reply.results).toEqual([
    expect.objectContaining({
      key: 'late',
      status: 'conflict',
      message: expect.stringMatching(
        /^Someone changed pages, meta\.city in this document after the grid read it, so your change was not written/
      ),
      current: expect.objectContaining({ pages: 250, 'meta.city': 'Oslo' }),
      request: expect.objectContaining({ method: 'GET', status: 200 })
    })
  ]);
  expect(writesSeen()).toEqual([]);
  expect((await stored('race')).body).toMatchObject({
    pages: 250,
    meta: { city: 'Oslo', floor: 1 }
  });
  // Overwrite: the same fields, expecting what the conflict showed.
  saved(
    await save(grid, [
      {
        kind: 'update',
        key: 'over',
        row,
        expected: { pages: 250, 'meta.city': 'Oslo' },
        fields: { pages: '102', 'meta.city': 'Milan' }
      }
    ]),
    'over'
  );
  expect((await stored('race')).body).toMatchObject({
    pages: 102,
    meta: { city: 'Milan', floor: 1 }
  });
  // A field the document no longer has is expected as null.
  await engineCall('PATCH', '/collections/books/documents/race', {
    pages: null
  });
  saved(
    await save(grid, [
      {
        kind: 'update',
        key: 'empty',
        row,
        expected: { pages: null },
        fields: { pages: '7' }
      }
    ]),
    'empty'
  );
  expect((await stored('race')).body).toMatchObject({ pages: 7 });
});

it('a deletion saying what it read deletes only while the document still holds it', async () => {
  await engineCall('POST', '/collections/books/documents', {
    id: 'doomed',
    title: 'Doomed',
    pages: 5
  });
  const grid = await open();
  const { row, at } = rowOf(grid, 'doomed');
  const read = grid.first.rows[at] as Record<string, unknown>;
  await engineCall('PATCH', '/collections/books/documents/doomed', {
    title: 'Saved by an edit'
  });
  proxy.seen.length = 0;
  const reply = await save(grid, [
    { kind: 'delete', key: 'd', row, expected: read }
  ]);
  expect(reply.results).toEqual([
    expect.objectContaining({
      key: 'd',
      status: 'conflict',
      message: expect.stringMatching(
        /^Someone changed title in this document after the grid read it, so it was not deleted/
      ),
      current: expect.objectContaining({ title: 'Saved by an edit' })
    })
  ]);
  expect(writesSeen()).toEqual([]);
  expect((await stored('doomed')).body).toMatchObject({
    title: 'Saved by an edit'
  });
  saved(
    await save(grid, [
      {
        kind: 'delete',
        key: 'd2',
        row,
        expected: { ...read, title: 'Saved by an edit' }
      }
    ]),
    'd2'
  );
  expect((await stored('doomed')).status).toBe(404);
});

it('an edit writes a field where the document holds it: a flat dotted key is replaced, a nested one stays nested; a document holding both is refused', async () => {
  const grid = await open('logs');
  const changes = [
    {
      kind: 'update',
      key: 'f',
      row: rowOf(grid, 'flat').row,
      fields: { 'a.b': 'edited' }
    },
    {
      kind: 'update',
      key: 'n',
      row: rowOf(grid, 'nested').row,
      fields: { 'a.b': 'edited' }
    }
  ];
  const plan = await comm.expect(
    { type: 'plan', gridId: grid.gridId, changes },
    'plan'
  );
  expect(plan.requests.map(r => r.body)).toEqual([
    { 'a.b': 'edited' },
    { a: { b: 'edited', c: 'kept' } }
  ]);
  const reply = await save(grid, changes);
  saved(reply, 'f');
  saved(reply, 'n');
  expect((await stored('flat', 'logs')).body).toEqual({
    id: 'flat',
    'a.b': 'edited',
    n: 1
  });
  expect((await stored('nested', 'logs')).body).toEqual({
    id: 'nested',
    a: { b: 'edited', c: 'kept' },
    n: 2
  });

  const writesBefore = writesSeen().length;
  const refused = await save(grid, [
    {
      kind: 'update',
      key: 'b',
      row: rowOf(grid, 'both').row,
      fields: { 'a.b': 'edited' }
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
  expect((await stored('both', 'logs')).body).toEqual(LOGS[2]);
  expect(writesSeen().length).toBe(writesBefore);
});

it('an int64 past 2^53 goes to the engine as a JSON number with every digit, never as a string', async () => {
  const grid = await open();
  const { row } = rowOf(grid, 'b4');
  const changes = [
    { kind: 'update', key: 'big', row, fields: { big: '9007199254740993' } }
  ];
  const plan = await comm.expect(
    { type: 'plan', gridId: grid.gridId, changes },
    'plan'
  );
  expect(plan.requests[0]?.bodyText).toBe('{\n  "big": 9007199254740993\n}');
  saved(await save(grid, changes), 'big');
  // The bytes the engine was sent: Typesense reads an int64 literal exactly (the sandbox, a
  // JavaScript stand-in, keeps only the nearest double of it, so its stored copy cannot show this).
  const patch = writesSeen()
    .filter(r => r.method === 'PATCH' && r.url.endsWith('/documents/b4'))
    .at(-1);
  expect(patch?.body).toBe('{"big":9007199254740993}');
});

it('typed values are refused under their cells, all of them, and nothing is sent', async () => {
  const grid = await open();
  const { row } = rowOf(grid, 'b2');
  const writesBefore = writesSeen().length;
  const reply = await save(grid, [
    {
      kind: 'update',
      key: 'bad',
      row,
      fields: {
        pages: '12.5',
        big: '9223372036854775808',
        price: 'cheap',
        in_print: 'yes',
        tags: '["a",\n "b" "c"]',
        variants: '[{"sku": ["x"]}]',
        'variants.sku': '[["y"]]',
        id: 'other'
      }
    },
    {
      kind: 'update',
      key: 'bad2',
      row,
      fields: { pages: '3000000000', tags: '[1, 2]' }
    }
  ]);
  expect(reply.results).toEqual([]);
  const by = (key: string, column: string) =>
    reply.refusals.find(r => r.key === key && r.column === column);
  expect(by('bad', 'pages')?.message).toMatch(
    /fraction.*int32 holds whole numbers/
  );
  expect(by('bad', 'big')?.message).toContain('outside');
  expect(by('bad', 'price')?.message).toContain('not a number');
  expect(by('bad', 'in_print')?.message).toContain('true or false');
  expect(by('bad', 'tags')).toMatchObject({ line: 2, col: 6 });
  expect(by('bad', 'variants')).toBeUndefined();
  expect(by('bad', 'variants.sku')?.message).toContain('JSON column variants');
  expect(by('bad', 'id')?.message).toContain('read-only');
  expect(by('bad2', 'pages')?.message).toContain('outside');
  expect(by('bad2', 'tags')?.message).toContain('must be a string');
  expect((await stored('b2')).body).toEqual(DOCS[1]);
  expect(writesSeen().length).toBe(writesBefore);
});

it('a collection is emptied (truncate, schema kept) or deleted only with its name typed; before 28.0 emptying says it needs 28.0', async () => {
  const actions = await comm.expect(
    { type: 'targetActions', connection: 'ts', target: 'shelf' },
    'targetActions'
  );
  expect(actions.actions).toEqual([
    {
      action: 'delete',
      label: 'Delete collection',
      request: 'DELETE /collections/shelf'
    },
    {
      action: 'empty',
      label: 'Empty collection',
      request: 'DELETE /collections/shelf/documents?truncate=true'
    }
  ]);
  const wrong = await comm.call({
    type: 'targetAction',
    connection: 'ts',
    target: 'shelf',
    action: 'empty',
    confirmName: 'Shelf'
  });
  expect(wrong).toMatchObject({
    type: 'error',
    message: expect.stringContaining('Nothing was deleted')
  });
  expect(
    (await engineCall('GET', '/collections/shelf')).body.num_documents
  ).toBe(2);
  const emptied = await comm.expect(
    {
      type: 'targetAction',
      connection: 'ts',
      target: 'shelf',
      action: 'empty',
      confirmName: 'shelf'
    },
    'targetActionDone'
  );
  expect(emptied.request).toMatchObject({
    method: 'DELETE',
    path: '/collections/shelf/documents?truncate=true',
    status: 200
  });
  expect(emptied.message).toContain('2 documents deleted');
  const kept = await engineCall('GET', '/collections/shelf');
  expect(kept.body).toMatchObject({ name: 'shelf', num_documents: 0 });
  const deleted = await comm.expect(
    {
      type: 'targetAction',
      connection: 'ts',
      target: 'shelf',
      action: 'delete',
      confirmName: 'shelf'
    },
    'targetActionDone'
  );
  expect(deleted.request).toMatchObject({
    method: 'DELETE',
    path: '/collections/shelf',
    status: 200
  });
  expect((await engineCall('GET', '/collections/shelf')).status).toBe(404);

  const old = await comm.expect(
    { type: 'targetActions', connection: 'ts27', target: 'shelf' },
    'targetActions'
  );
  expect(old.actions.find(a => a.action === 'empty')?.unavailable).toContain(
    'needs Typesense 28.0 or later; this server runs 27.1'
  );
  const refused = await comm.call({
    type: 'targetAction',
    connection: 'ts27',
    target: 'shelf',
    action: 'empty',
    confirmName: 'shelf'
  });
  expect(refused).toMatchObject({
    type: 'error',
    message: expect.stringContaining('Nothing was sent')
  });
  expect(
    (await engineCall('GET', '/collections/shelf', undefined, url27)).body
      .num_documents
  ).toBe(2);
});
