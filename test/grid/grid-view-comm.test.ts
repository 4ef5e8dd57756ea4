/**
 * The grid's filter bar and engine sorting over the wire (kernel over ZeroMQ, engines over
 * HTTP): the rows a filtered, sorted grid pages through equal what the engine answers to
 * the request the grid offers as a console cell and as curl; totals follow the filter;
 * refused filters send nothing; dropped sorts come back as notes. The Elasticsearch part runs
 * against the sandbox and the real nodes alike; Typesense against its sandbox.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import { listen, type ListeningServer } from '../../examples/sandbox/serve';
import { createTypesenseSandbox } from '../../examples/sandbox/typesense';
import type { FilterRow, GridReply, GridView } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import { describeEachTarget, elasticsearchTargets, REAL_START_TIMEOUT_MS, type RunningEsTarget } from '../support/elasticsearch-targets';
import { generateProducts } from '../../examples/data/generate-products';
import { REAL_NODE_PRODUCTS } from '../support/real-elasticsearch/products';
import { KernelClient } from '../support/kernel-client';
import { GridCommClient } from './grid-comm-client';

const run = promisify(execFile);
const WINDOW = 20;
const BLOCK = 8;
const DOCS = 120;
const TAGS = ['red', 'green', 'blue'];

const SHOP_DOCS = Array.from({ length: DOCS }, (_, n) => ({
  title: `Product ${String(n).padStart(3, '0')}`,
  tag: TAGS[n % 3] ?? 'red',
  // Distinct prices, not in id order, so a sort is visible and has no ties.
  price: ((n * 37) % DOCS) + 0.5,
  rank: n,
  added: new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10),
  variants: [
    { sku: `S${n % 5}`, stock: n % 2 },
    { sku: `T${n % 4}`, stock: 1 - (n % 2) },
  ],
}));

/** Titles where words, word starts and parts of words differ: "arden" is inside words only, "Gla" starts words but few titles. */
const TITLES = ['The Glass Castle', 'Glass Houses', 'A Garden of Verses', 'Gardens of the Moon', 'The Secret Garden', 'Gladiator', 'The Glade', 'Wardens of the Glen', 'GLASS and Steel', 'Night Garden'];
const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');

let tsServer: ListeningServer;

beforeAll(async () => {
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: SECRETS.TS_API_KEY });
  ts.createCollection({
    name: 'items',
    fields: [
      { name: 'title', type: 'string', sort: true },
      { name: 'tag', type: 'string', facet: true },
      { name: 'price', type: 'float' },
      { name: 'rank', type: 'int32' },
    ],
  });
  ts.loadDocuments(
    'items',
    Array.from({ length: 700 }, (_, n) => ({ id: `i${n}`, title: `Item ${String(n).padStart(4, '0')}`, tag: TAGS[n % 3] ?? 'red', price: ((n * 37) % 700) + 0.5, rank: n })),
  );
  ts.createCollection({ name: 'titles', fields: [{ name: 'title', type: 'string' }] });
  ts.loadDocuments('titles', TITLES.map((title, n) => ({ id: `t${n}`, title })));
  tsServer = await listen(ts.handler, { port: 0 });
});

afterAll(async () => {
  await tsServer?.close();
});

function expectType<T extends GridReply['type']>(reply: GridReply, type: T): Extract<GridReply, { type: T }> {
  if (reply.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(reply).slice(0, 400)}`);
  return reply as Extract<GridReply, { type: T }>;
}

type Opened = Extract<GridReply, { type: 'opened' }>;

/** A kernel with the grid comm open, connected by the given `%connect` lines. */
async function gridKernel(connects: string[]): Promise<{ kernel: KernelClient; comm: GridCommClient }> {
  const kernel = await KernelClient.start({ ...SECRETS });
  for (const line of connects) {
    const { reply } = await kernel.execute(line);
    expect(reply.content.status).toBe('ok');
  }
  return { kernel, comm: await GridCommClient.open(kernel) };
}

const open = async (comm: GridCommClient, connection: string, target: string, view: Partial<GridView>, blockSize = BLOCK) =>
  expectType(await comm.call({ type: 'open', connection, target, blockSize, view }), 'opened');

/** Every row of a grid, block by block as the panel scrolls. */
async function allRows(comm: GridCommClient, grid: Opened): Promise<Record<string, unknown>[]> {
  const rows = [...grid.first.rows];
  for (let block = 1; block * grid.blockSize < grid.total; block++) rows.push(...expectType(await comm.call({ type: 'read', gridId: grid.gridId, block }), 'block').block.rows);
  await comm.call({ type: 'close', gridId: grid.gridId });
  return rows;
}

/** Runs the grid's "Copy as curl" command with the credential in the environment, as a user would. */
async function curl(command: string): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', command], { env: { PATH: process.env.PATH ?? '', TYPESENSE_API_KEY: SECRETS.TS_API_KEY } });
  return JSON.parse(stdout);
}

const SearchAnswer = z.object({ hits: z.object({ total: z.object({ value: z.number() }), hits: z.array(z.object({ _id: z.string() })) }) });
const IndexStats = z.object({ _all: z.object({ total: z.object({ search: z.object({ open_contexts: z.number() }) }) }) });

describeEachTarget(elasticsearchTargets(), "the grid's filters and engine sorting", (target) => {
  // This run's own index: a real node is shared by the run's suites.
  const SHOP = `grid-view-shop-${randomUUID().slice(0, 8)}`;
  let engine: RunningEsTarget;
  let kernel: KernelClient;
  let comm: GridCommClient;
  const call = (data: Record<string, unknown>) => comm.call(data);
  const openShop = (view: Partial<GridView>) => open(comm, 'es', SHOP, view);
  const close = (grid: Opened) => call({ type: 'close', gridId: grid.gridId });

  const engineCall = async (method: string, path: string, body?: string, contentType = 'application/json'): Promise<unknown> => {
    const answer = await fetch(`${engine.url}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': contentType } }) });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
    return JSON.parse(text) as unknown;
  };
  /** Search contexts open on the index, by the engine's own stats: one per point in time. */
  const openContexts = async () => IndexStats.parse(await engineCall('GET', `/${SHOP}/_stats/search`))._all.total.search.open_contexts;

  beforeAll(async () => {
    engine = await target.start({ security: false });
    const mappings = {
      properties: {
        title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
        tag: { type: 'keyword' },
        price: { type: 'double' },
        rank: { type: 'integer' },
        added: { type: 'date' },
        variants: { type: 'nested', properties: { sku: { type: 'keyword' }, stock: { type: 'integer' } } },
      },
    };
    await engineCall('PUT', `/${SHOP}`, JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0, max_result_window: WINDOW }, mappings }));
    const lines = SHOP_DOCS.map((doc, n) => `${JSON.stringify({ index: { _id: `p${n}` } })}\n${JSON.stringify(doc)}\n`);
    await engineCall('POST', `/${SHOP}/_bulk?refresh=true`, lines.join(''), 'application/x-ndjson');
    ({ kernel, comm } = await gridKernel([`%connect elasticsearch ${engine.url} name=es`, `%connect typesense ${tsServer.url} key=\${env:TS_API_KEY} name=ts`]));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    if (engine) await engineCall('DELETE', `/${SHOP}`).catch(() => undefined);
    await engine?.close();
  });

  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'in list', value: ['red', 'blue'] },
      { column: 'price', operator: 'greater than', value: '15' },
    ],
    sort: [{ column: 'price', direction: 'desc' }],
  };

  it("a filtered, sorted grid pages past max_result_window through exactly the engine's answer to its cell", async () => {
    const grid = await openShop(view);
    const [requestLine, ...bodyLines] = grid.request.cell.split('\n');
    expect(requestLine).toBe(`POST /${SHOP}/_search`);
    expect(grid.matchCaseSupported).toBe(true);
    expect(grid.rawFilterHint).toContain('query string');
    // The same request, straight to the engine, asking for everything at once (the window does not bind a fresh search of this size).
    const body = JSON.parse(bodyLines.join('\n')) as Record<string, unknown>;
    const answer = SearchAnswer.parse(await engineCall('POST', `/${SHOP}/_search`, JSON.stringify({ ...body, size: WINDOW })));
    const expectedTotal = Array.from({ length: DOCS }, (_, n) => n).filter((n) => n % 3 !== 1 && ((n * 37) % DOCS) + 0.5 > 15).length;
    expect(grid.total).toBe(expectedTotal);
    expect(answer.hits.total.value).toBe(expectedTotal);
    const rows = await allRows(comm, grid);
    expect(rows).toHaveLength(expectedTotal);
    expect(rows.slice(0, WINDOW).map((r) => r._id)).toEqual(answer.hits.hits.map((h) => h._id));
    const prices = rows.map((r) => Number(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(rows.every((r) => r.tag !== 'green' && Number(r.price) > 15)).toBe(true);
  });

  it('a far jump in a filtered, sorted grid walks the sorted order: the block equals the scrolled rows', async () => {
    const sortedView: Partial<GridView> = { filters: [{ column: 'tag', operator: 'not equals', value: 'green' }], sort: [{ column: 'price', direction: 'asc' }] };
    const scrolled = await allRows(comm, await openShop(sortedView));
    const jumped = await openShop(sortedView);
    const far = expectType(await call({ type: 'read', gridId: jumped.gridId, block: 9 }), 'block').block;
    expect(far.requests.some((r) => r.path.includes('filter_path=pit_id,hits.hits.sort'))).toBe(true);
    expect(far.rows.map((r) => r._id)).toEqual(scrolled.slice(72, 80).map((r) => r._id));
    await close(jumped);
  });

  it("a sort on a nested leaf column: the first window is the engine's answer to the cell and a far jump lands in the scrolled order", async () => {
    const nestedView: Partial<GridView> = { sort: [{ column: 'variants.sku', direction: 'desc' }, { column: 'price', direction: 'asc' }] };
    const grid = await openShop(nestedView);
    expect(grid.sortedBy).toEqual(['variants.sku', 'price']);
    const body = JSON.parse(grid.request.cell.split('\n').slice(1).join('\n')) as Record<string, unknown>;
    const answer = SearchAnswer.parse(await engineCall('POST', `/${SHOP}/_search`, JSON.stringify({ ...body, size: WINDOW })));
    const scrolled = await allRows(comm, grid);
    expect(scrolled.slice(0, WINDOW).map((r) => r._id)).toEqual(answer.hits.hits.map((h) => h._id));
    const jumped = await openShop(nestedView);
    const far = expectType(await call({ type: 'read', gridId: jumped.gridId, block: 12 }), 'block').block;
    expect(far.rows.map((r) => r._id)).toEqual(scrolled.slice(96, 104).map((r) => r._id));
    await close(jumped);
  });

  it('a text column sorts on its keyword subfield; _id is dropped with a note and the rows keep their order for it', async () => {
    const grid = await openShop({ sort: [{ column: '_id', direction: 'asc' }, { column: 'title', direction: 'desc' }], filters: [{ column: 'rank', operator: 'less than', value: '30' }] });
    expect(grid.notes).toEqual([expect.stringContaining('Not sorted by _id')]);
    expect(grid.sortedBy).toEqual(['title']);
    const rows = await allRows(comm, grid);
    expect(rows.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, n) => 29 - n));
  });

  it('nested rows on different elements match more documents than the same rows grouped on one element', async () => {
    const rows = (element?: string): FilterRow[] => [
      { column: 'variants.sku', operator: 'equals', value: 'S0', ...(element ? { element } : {}) },
      { column: 'variants.stock', operator: 'equals', value: '1', ...(element ? { element } : {}) },
    ];
    const apart = await openShop({ filters: rows() });
    const together = await openShop({ filters: rows('1') });
    // S0 is every fifth product; its stock is 1 only on even ones, while the other element covers the odd ones.
    expect(apart.total).toBe(DOCS / 5);
    expect(together.total).toBe(DOCS / 10);
    await Promise.all([apart, together].map(close));
  });

  it('the raw row is a query_string; the case control off matches any case', async () => {
    const raw = await openShop({ raw: 'tag:green AND rank:<10' });
    expect(raw.total).toBe(3);
    const anyCase = await openShop({ filters: [{ column: 'tag', operator: 'equals', value: 'RED' }], matchCase: false });
    expect(anyCase.total).toBe(DOCS / 3);
    const exact = await openShop({ filters: [{ column: 'tag', operator: 'equals', value: 'RED' }], matchCase: true });
    expect(exact.total).toBe(0);
    await Promise.all([raw, anyCase, exact].map(close));
  });

  it('string filters ignore case until Match case is ticked: a lowercase contains headphones finds the names holding Headphones', async () => {
    const holding = [...generateProducts(REAL_NODE_PRODUCTS)].filter((p) => String(p.source.name).includes('Headphones'));
    expect(holding.length).toBeGreaterThan(0);
    const filters: FilterRow[] = [{ column: 'name', operator: 'contains', value: 'headphones' }];
    // A view as the panel's bar first sends it: Match case not ticked.
    const anyCase = await open(comm, 'es', 'products', { filters, matchCase: false });
    expect(anyCase.first.rows.map((r) => r._id).sort()).toEqual(holding.map((p) => p.id).sort());
    expect(anyCase.total).toBe(holding.length);
    expect(anyCase.operators.find((o) => o.operator === 'contains')).toMatchObject({ label: 'contains', does: expect.stringContaining('In any case unless Match case is on') as unknown });
    // A view that does not say matches any case too.
    const unsaid = await open(comm, 'es', 'products', { filters });
    expect(unsaid.total).toBe(holding.length);
    const exact = await open(comm, 'es', 'products', { filters, matchCase: true });
    expect(exact.total).toBe(0);
    await Promise.all([anyCase, unsaid, exact].map(close));
  });

  /** Operators on keyword, text, number, date and nested columns, each total against the same predicate over the loaded documents. */
  const rowCases: { row: FilterRow; matchCase?: boolean; holds: (doc: (typeof SHOP_DOCS)[number]) => boolean }[] = [
    { row: { column: 'tag', operator: 'contains', value: 're' }, holds: (d) => d.tag.includes('re') },
    { row: { column: 'tag', operator: 'contains', value: 'RE' }, holds: (d) => d.tag.includes('RE') },
    { row: { column: 'tag', operator: 'contains', value: 'RE' }, matchCase: false, holds: (d) => d.tag.includes('re') },
    { row: { column: 'tag', operator: 'not contains', value: 'lu' }, holds: (d) => !d.tag.includes('lu') },
    { row: { column: 'tag', operator: 'ends with', value: 'EN' }, matchCase: false, holds: (d) => d.tag.endsWith('en') },
    { row: { column: 'tag', operator: 'not in list', value: ['RED', 'blue'] }, matchCase: false, holds: (d) => d.tag === 'green' },
    { row: { column: 'title', operator: 'starts with', value: 'Product 01' }, holds: (d) => d.title.startsWith('Product 01') },
    { row: { column: 'title', operator: 'starts with', value: 'product 01' }, holds: (d) => d.title.startsWith('product 01') },
    { row: { column: 'title', operator: 'starts with', value: 'product 01' }, matchCase: false, holds: (d) => d.title.toLowerCase().startsWith('product 01') },
    { row: { column: 'title', operator: 'ends with', value: '7' }, holds: (d) => d.title.endsWith('7') },
    { row: { column: 'title', operator: 'contains', value: '*' }, holds: (d) => d.title.includes('*') },
    { row: { column: 'title', operator: 'matches regex', value: 'Product 1[01].' }, holds: (d) => /^Product 1[01].$/.test(d.title) },
    { row: { column: 'title', operator: 'matches regex', value: 'PRODUCT 0.5' }, matchCase: false, holds: (d) => /^PRODUCT 0.5$/i.test(d.title) },
    { row: { column: 'variants.sku', operator: 'starts with', value: 'S' }, holds: (d) => d.variants.some((v) => v.sku.startsWith('S')) },
    { row: { column: 'title', operator: 'contains', value: '?' }, holds: (d) => d.title.includes('?') },
    // A text column with a keyword subfield equals exactly through it, in any case only with the case control off.
    { row: { column: 'title', operator: 'equals', value: 'product 011' }, holds: (d) => d.title === 'product 011' },
    { row: { column: 'title', operator: 'equals', value: 'product 011' }, matchCase: false, holds: (d) => d.title.toLowerCase() === 'product 011' },
    { row: { column: 'title', operator: 'not equals', value: 'PRODUCT 011' }, matchCase: false, holds: (d) => d.title.toLowerCase() !== 'product 011' },
    { row: { column: 'price', operator: 'between', value: ['10', '20'] }, holds: (d) => d.price >= 10 && d.price <= 20 },
    { row: { column: 'rank', operator: 'in list', value: ['1', '2', '300'] }, holds: (d) => [1, 2, 300].includes(d.rank) },
    { row: { column: 'tag', operator: 'is not empty', value: '' }, holds: (d) => d.tag !== '' },
    { row: { column: 'tag', operator: 'is empty', value: '' }, holds: (d) => d.tag === '' },
    { row: { column: 'added', operator: 'equals', value: '2024-02-29' }, holds: (d) => d.added === '2024-02-29' },
    { row: { column: 'added', operator: 'greater than', value: '2024-03-01' }, holds: (d) => Date.parse(d.added) > Date.parse('2024-03-01') },
    { row: { column: 'added', operator: 'between', value: ['2024-01-10', '2024-01-20'] }, holds: (d) => d.added >= '2024-01-10' && d.added <= '2024-01-20' },
    { row: { column: 'added', operator: 'less than', value: '2024-01-05T12:00:00Z' }, holds: (d) => Date.parse(d.added) < Date.parse('2024-01-05T12:00:00Z') },
    { row: { column: 'variants.stock', operator: 'greater or equal', value: '1' }, holds: (d) => d.variants.some((v) => v.stock >= 1) },
  ];

  it.each(rowCases.map((c) => ({ matchCase: true, ...c })))('filter row $row.column $row.operator $row.value (match case $matchCase) counts what the predicate counts', async ({ row, matchCase, holds }) => {
    const grid = await openShop({ filters: [row], matchCase });
    expect(grid.total).toBe(SHOP_DOCS.filter(holds).length);
    await close(grid);
  });

  it('a value that does not fit its column is refused under its row and nothing reaches the engine', async () => {
    const before = await openContexts();
    const reply = expectType(await call({ type: 'open', connection: 'es', target: SHOP, view: { filters: [{ column: 'tag', operator: 'equals', value: 'red' }, { column: 'price', operator: 'less than', value: 'cheap' }] } }), 'error');
    expect(reply.filterRow).toBe(1);
    expect(reply.message).toContain('price (double): "cheap" is not a number');
    expect(await openContexts()).toBe(before);
  });

  it("a raw row the engine cannot parse comes back as the engine's error and leaves no point in time open", async () => {
    const before = await openContexts();
    const reply = await call({ type: 'open', connection: 'es', target: SHOP, view: { raw: 'tag:(red' } });
    expect(expectType(reply, 'error').message).toContain('Failed to parse query [tag:(red]');
    expect(await openContexts()).toBe(before);
  });

  it('refresh keeps the view', async () => {
    const grid = await openShop({ filters: [{ column: 'tag', operator: 'equals', value: 'red' }] });
    const refreshed = expectType(await call({ type: 'refresh', gridId: grid.gridId }), 'opened');
    expect(refreshed.total).toBe(DOCS / 3);
    await close(refreshed);
  });

  it("the cells' Copy as curl: each request on the connection it would use; the engine answers the command as it answers the cell", async () => {
    const reply = expectType(await call({ type: 'curl', cell: `%use es\nPOST /${SHOP}/_search\n{"query": {"term": {"tag": "red"}}, "size": 0}\n%use ts\nGET /collections/items/documents/search?q=*&filter_by=rank:<3` }), 'curl');
    expect(reply.commands).toHaveLength(2);
    const [es, ts] = (await Promise.all(reply.commands.map(curl))) as [{ hits: { total: { value: number } } }, { found: number }];
    expect(es.hits.total.value).toBe(DOCS / 3);
    expect(ts.found).toBe(3);
    expect(reply.commands[1]).toContain('$TYPESENSE_API_KEY');
    expect(reply.commands.join('\n')).not.toContain(SECRETS.TS_API_KEY);
  });
});

describe('Typesense', () => {
  let kernel: KernelClient;
  let comm: GridCommClient;
  const call = (data: Record<string, unknown>) => comm.call(data);

  beforeAll(async () => {
    ({ kernel, comm } = await gridKernel([`%connect typesense ${tsServer.url} key=\${env:TS_API_KEY} name=ts`]));
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'not equals', value: 'green' },
      { column: 'price', operator: 'between', value: ['100', '600'] },
    ],
    sort: [{ column: 'price', direction: 'asc' }],
  };

  it("a filtered, sorted grid equals the engine's answer to its curl command, run with the key in the environment", async () => {
    const grid = await open(comm, 'ts', 'items', view, 250);
    expect(grid.matchCaseSupported).toBe(false);
    expect(grid.request.curl).toContain('$TYPESENSE_API_KEY');
    expect(grid.request.curl).not.toContain(SECRETS.TS_API_KEY);
    expect(JSON.parse(grid.request.cell.split('\n').slice(1).join('\n'))).toEqual({
      searches: [{ collection: 'items', q: '*', filter_by: 'tag:!=`green` && price:[100..600]', sort_by: 'price:asc', offset: 0, limit: 250 }],
    });
    const answer = (await curl(grid.request.curl)) as { results: { found: number; hits: { document: { id: string } }[] }[] };
    const rows = await allRows(comm, grid);
    const expected = Array.from({ length: 700 }, (_, n) => n).filter((n) => n % 3 !== 1 && ((n * 37) % 700) + 0.5 >= 100 && ((n * 37) % 700) + 0.5 <= 600);
    expect(grid.total).toBe(expected.length);
    expect(answer.results[0]?.found).toBe(expected.length);
    expect(rows.slice(0, 250).map((r) => r.id)).toEqual(answer.results[0]?.hits.map((h) => h.document.id));
    expect(rows.map((r) => r.id)).toEqual(expected.sort((a, b) => ((a * 37) % 700) - ((b * 37) % 700)).map((n) => `i${n}`));
  });

  it('a sort the schema does not allow is dropped with a note; the read does not fail', async () => {
    const grid = await open(comm, 'ts', 'items', { sort: [{ column: 'tag', direction: 'asc' }, { column: 'rank', direction: 'desc' }] }, 250);
    expect(grid.notes).toEqual([expect.stringContaining('Not sorted by tag')]);
    expect(grid.first.rows[0]?.id).toBe('i699');
    await call({ type: 'close', gridId: grid.gridId });
  });

  it('an operator the engine cannot express is refused under its row with what serves instead, never "contains"', async () => {
    const endsWith = expectType(await call({ type: 'open', connection: 'ts', target: 'items', view: { filters: [{ column: 'title', operator: 'ends with', value: '7' }] } }), 'error');
    expect(endsWith.filterRow).toBe(0);
    expect(endsWith.message).toBe(
      'Typesense cannot filter with "ends with": Typesense filters match whole words and word starts, never the end of a value. To find text inside or at the end of words, declare the field infix: true in the schema and search it in a cell (q=<text>, query_by=<field>, infix=always); to match whole values, use equals or in list.',
    );
    const isNull = expectType(await call({ type: 'open', connection: 'ts', target: 'items', view: { filters: [{ column: 'title', operator: 'is null', value: '' }] } }), 'error');
    expect(isNull.message).toMatch(/^Typesense cannot filter with "is null": Typesense's filter_by has no test for a missing, null or empty value\. /);
    for (const message of [endsWith.message, isNull.message]) expect(message).not.toMatch(/contains/);
  });

  it('contains and starts with are named as Typesense does them: has word, has word starting with; the rows are word matches in any case', async () => {
    const titles = await open(comm, 'ts', 'titles', {}, 250);
    const named = new Map(titles.operators.map((o) => [o.operator, o]));
    expect(named.get('contains')).toMatchObject({ label: 'has word', does: expect.stringContaining('infix: true') as unknown });
    expect(named.get('not contains')?.label).toBe('lacks word');
    expect(named.get('starts with')?.label).toBe('has word starting with');
    expect(named.get('ends with')?.unavailable).toContain('infix: true');
    await call({ type: 'close', gridId: titles.gridId });
    const found = async (operator: FilterRow['operator'], value: string) => (await allRows(comm, await open(comm, 'ts', 'titles', { filters: [{ column: 'title', operator, value }] }, 250))).map((r) => r.title).sort();
    // A whole word, in any case: "Gardens" is another word.
    expect(await found('contains', 'garden')).toEqual(TITLES.filter((t) => words(t).includes('garden')).sort());
    // Inside words only: no word is "arden", though five titles hold it.
    expect(TITLES.filter((t) => t.toLowerCase().includes('arden'))).toHaveLength(5);
    expect(await found('contains', 'arden')).toEqual([]);
    // Any word's start: "The Glass Castle" does not start with Gla, yet it has a word that does.
    const glaWords = TITLES.filter((t) => words(t).some((w) => w.startsWith('gla'))).sort();
    expect(glaWords).toContain('The Glass Castle');
    expect(await found('starts with', 'Gla')).toEqual(glaWords);
    expect(await found('not contains', 'glass')).toEqual(TITLES.filter((t) => !words(t).includes('glass')).sort());
  });

  it("a cell's Copy as curl: an environment variable the cell reads stays a reference, never its value", async () => {
    const reply = expectType(await call({ type: 'curl', cell: '%use ts\nPOST /multi_search\n{"searches": [{"collection": "items", "q": "${env:TS_API_KEY}"}]}' }), 'curl');
    expect(reply.commands[0]).toContain('"q":"$TS_API_KEY"');
    expect(reply.commands[0]).not.toContain(SECRETS.TS_API_KEY);
  });
});
