/**
 * The grid's filter bar and engine sorting over the wire (kernel over ZeroMQ, sandbox engines
 * over HTTP): the rows a filtered, sorted grid pages through equal what the engine answers to
 * the request the grid offers as a console cell and as curl; totals follow the filter;
 * refused filters send nothing; dropped sorts come back as notes.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createElasticsearchSandbox, type ElasticsearchSandbox } from '../../examples/sandbox/elasticsearch';
import { listen, type ListeningServer } from '../../examples/sandbox/serve';
import { createTypesenseSandbox } from '../../examples/sandbox/typesense';
import { GRID_COMM_TARGET, GRID_PROTOCOL_VERSION, type FilterRow, type GridReply, GridReplySchema, type GridView } from '../../kernel/src/grid/grid-protocol';
import { SECRETS } from '../drivers/helpers';
import { KernelClient } from '../support/kernel-client';

const run = promisify(execFile);
const WINDOW = 20;
const BLOCK = 8;
const DOCS = 120;
const TAGS = ['red', 'green', 'blue'];

let kernel: KernelClient;
let es: ElasticsearchSandbox;
let servers: ListeningServer[] = [];
let commId: string;

beforeAll(async () => {
  es = createElasticsearchSandbox({ version: '8.15.0', security: false, password: 'unused' });
  es.loadIndex(
    'shop',
    {
      properties: {
        title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
        tag: { type: 'keyword' },
        price: { type: 'double' },
        rank: { type: 'integer' },
        variants: { type: 'nested', properties: { sku: { type: 'keyword' }, stock: { type: 'integer' } } },
      },
    },
    Array.from({ length: DOCS }, (_, n) => ({
      id: `p${n}`,
      source: {
        title: `Product ${String(n).padStart(3, '0')}`,
        tag: TAGS[n % 3] ?? 'red',
        // Distinct prices, not in id order, so a sort is visible and has no ties.
        price: ((n * 37) % DOCS) + 0.5,
        rank: n,
        variants: [
          { sku: `S${n % 5}`, stock: n % 2 },
          { sku: `T${n % 4}`, stock: 1 - (n % 2) },
        ],
      },
    })),
    { max_result_window: String(WINDOW) },
  );
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
  servers = [await listen(es.handler, { port: 0 }), await listen(ts.handler, { port: 0 })];
  kernel = await KernelClient.start({ ...SECRETS });
  for (const line of [`%connect elasticsearch ${servers[0]?.url} name=es`, `%connect typesense ${servers[1]?.url} key=\${env:TS_API_KEY} name=ts`]) {
    const { reply } = await kernel.execute(line);
    expect(reply.content.status).toBe('ok');
  }
  commId = randomUUID();
  await kernel.submit('shell', 'comm_open', { comm_id: commId, target_name: GRID_COMM_TARGET, data: {} });
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function call(data: Record<string, unknown>): Promise<GridReply> {
  const requestId = randomUUID();
  await kernel.submit('shell', 'comm_msg', { comm_id: commId, data: { v: GRID_PROTOCOL_VERSION, requestId, ...data } });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = kernel.iopubMessages().find((m) => m.header.msg_type === 'comm_msg' && (m.content.data as { requestId?: unknown }).requestId === requestId);
    if (found) return GridReplySchema.parse(found.content.data);
    if (Date.now() > deadline) throw new Error(`no reply: ${kernel.stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function expectType<T extends GridReply['type']>(reply: GridReply, type: T): Extract<GridReply, { type: T }> {
  if (reply.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(reply).slice(0, 400)}`);
  return reply as Extract<GridReply, { type: T }>;
}

type Opened = Extract<GridReply, { type: 'opened' }>;
const open = async (connection: string, target: string, view: Partial<GridView>, blockSize = BLOCK) => expectType(await call({ type: 'open', connection, target, blockSize, view }), 'opened');

/** Every row of a grid, block by block as the panel scrolls. */
async function allRows(grid: Opened): Promise<Record<string, unknown>[]> {
  const rows = [...grid.first.rows];
  for (let block = 1; block * grid.blockSize < grid.total; block++) rows.push(...expectType(await call({ type: 'read', gridId: grid.gridId, block }), 'block').block.rows);
  await call({ type: 'close', gridId: grid.gridId });
  return rows;
}

/** Runs the grid's "Copy as curl" command with the credential in the environment, as a user would. */
async function curl(command: string): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', command], { env: { PATH: process.env.PATH ?? '', TYPESENSE_API_KEY: SECRETS.TS_API_KEY } });
  return JSON.parse(stdout);
}

describe('Elasticsearch', () => {
  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'in list', value: ['red', 'blue'] },
      { column: 'price', operator: 'greater than', value: '15' },
    ],
    sort: [{ column: 'price', direction: 'desc' }],
  };

  it("a filtered, sorted grid pages past max_result_window through exactly the engine's answer to its cell", async () => {
    const grid = await open('es', 'shop', view);
    expect(grid.request.cell.split('\n')[0]).toBe('POST /shop/_search');
    expect(grid.matchCaseSupported).toBe(true);
    expect(grid.rawFilterHint).toContain('query string');
    // The same request, straight to the engine, asking for everything at once (the window does not bind a fresh search of this size).
    const body = JSON.parse(grid.request.cell.split('\n').slice(1).join('\n')) as Record<string, unknown>;
    const answer = (await (await fetch(`${servers[0]?.url}/shop/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, size: WINDOW }) })).json()) as {
      hits: { total: { value: number }; hits: { _id: string }[] };
    };
    const expectedTotal = Array.from({ length: DOCS }, (_, n) => n).filter((n) => n % 3 !== 1 && ((n * 37) % DOCS) + 0.5 > 15).length;
    expect(grid.total).toBe(expectedTotal);
    expect(answer.hits.total.value).toBe(expectedTotal);
    const rows = await allRows(grid);
    expect(rows).toHaveLength(expectedTotal);
    expect(rows.slice(0, WINDOW).map((r) => r._id)).toEqual(answer.hits.hits.map((h) => h._id));
    const prices = rows.map((r) => Number(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(rows.every((r) => r.tag !== 'green' && Number(r.price) > 15)).toBe(true);
  });

  it('a far jump in a filtered, sorted grid walks the sorted order: the block equals the scrolled rows', async () => {
    const sortedView: Partial<GridView> = { filters: [{ column: 'tag', operator: 'not equals', value: 'green' }], sort: [{ column: 'price', direction: 'asc' }] };
    const scrolled = await allRows(await open('es', 'shop', sortedView));
    const jumped = await open('es', 'shop', sortedView);
    const far = expectType(await call({ type: 'read', gridId: jumped.gridId, block: 9 }), 'block').block;
    expect(far.requests.some((r) => r.path.includes('filter_path=pit_id,hits.hits.sort'))).toBe(true);
    expect(far.rows.map((r) => r._id)).toEqual(scrolled.slice(72, 80).map((r) => r._id));
    await call({ type: 'close', gridId: jumped.gridId });
  });

  it('a text column sorts on its keyword subfield; _id is dropped with a note and the rows keep their order for it', async () => {
    const grid = await open('es', 'shop', { sort: [{ column: '_id', direction: 'asc' }, { column: 'title', direction: 'desc' }], filters: [{ column: 'rank', operator: 'less than', value: '30' }] });
    expect(grid.notes).toEqual([expect.stringContaining('Not sorted by _id')]);
    expect(grid.sortedBy).toEqual(['title']);
    const rows = await allRows(grid);
    expect(rows.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, n) => 29 - n));
  });

  it('nested rows on different elements match more documents than the same rows grouped on one element', async () => {
    const rows = (element?: string): FilterRow[] => [
      { column: 'variants.sku', operator: 'equals', value: 'S0', ...(element ? { element } : {}) },
      { column: 'variants.stock', operator: 'equals', value: '1', ...(element ? { element } : {}) },
    ];
    const apart = await open('es', 'shop', { filters: rows() });
    const together = await open('es', 'shop', { filters: rows('1') });
    // S0 is every fifth product; its stock is 1 only on even ones, while the other element covers the odd ones.
    expect(apart.total).toBe(DOCS / 5);
    expect(together.total).toBe(DOCS / 10);
    await call({ type: 'close', gridId: apart.gridId });
    await call({ type: 'close', gridId: together.gridId });
  });

  it('the raw row is a query_string; the case control off matches any case', async () => {
    const raw = await open('es', 'shop', { raw: 'tag:green AND rank:<10' });
    expect(raw.total).toBe(3);
    const anyCase = await open('es', 'shop', { filters: [{ column: 'tag', operator: 'equals', value: 'RED' }], matchCase: false });
    expect(anyCase.total).toBe(DOCS / 3);
    const exact = await open('es', 'shop', { filters: [{ column: 'tag', operator: 'equals', value: 'RED' }] });
    expect(exact.total).toBe(0);
    await Promise.all([raw, anyCase, exact].map((g) => call({ type: 'close', gridId: g.gridId })));
  });

  it('a value that does not fit its column is refused under its row and nothing reaches the engine', async () => {
    const pits = es.state.pits.size;
    const reply = expectType(await call({ type: 'open', connection: 'es', target: 'shop', view: { filters: [{ column: 'tag', operator: 'equals', value: 'red' }, { column: 'price', operator: 'less than', value: 'cheap' }] } }), 'error');
    expect(reply.filterRow).toBe(1);
    expect(reply.message).toContain('price (double): "cheap" is not a number');
    expect(es.state.pits.size).toBe(pits);
  });

  it('refresh keeps the view', async () => {
    const grid = await open('es', 'shop', { filters: [{ column: 'tag', operator: 'equals', value: 'red' }] });
    const refreshed = expectType(await call({ type: 'refresh', gridId: grid.gridId }), 'opened');
    expect(refreshed.total).toBe(DOCS / 3);
    await call({ type: 'close', gridId: grid.gridId });
  });
});

describe('Typesense', () => {
  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'not equals', value: 'green' },
      { column: 'price', operator: 'between', value: ['100', '600'] },
    ],
    sort: [{ column: 'price', direction: 'asc' }],
  };

  it("a filtered, sorted grid equals the engine's answer to its curl command, run with the key in the environment", async () => {
    const grid = await open('ts', 'items', view, 250);
    expect(grid.matchCaseSupported).toBe(false);
    expect(grid.request.curl).toContain('$TYPESENSE_API_KEY');
    expect(grid.request.curl).not.toContain(SECRETS.TS_API_KEY);
    expect(JSON.parse(grid.request.cell.split('\n').slice(1).join('\n'))).toEqual({
      searches: [{ collection: 'items', q: '*', filter_by: 'tag:!=`green` && price:[100..600]', sort_by: 'price:asc', offset: 0, limit: 250 }],
    });
    const answer = (await curl(grid.request.curl)) as { results: { found: number; hits: { document: { id: string } }[] }[] };
    const rows = await allRows(grid);
    const expected = Array.from({ length: 700 }, (_, n) => n).filter((n) => n % 3 !== 1 && ((n * 37) % 700) + 0.5 >= 100 && ((n * 37) % 700) + 0.5 <= 600);
    expect(grid.total).toBe(expected.length);
    expect(answer.results[0]?.found).toBe(expected.length);
    expect(rows.slice(0, 250).map((r) => r.id)).toEqual(answer.results[0]?.hits.map((h) => h.document.id));
    expect(rows.map((r) => r.id)).toEqual(expected.sort((a, b) => ((a * 37) % 700) - ((b * 37) % 700)).map((n) => `i${n}`));
  });

  it('a sort the schema does not allow is dropped with a note; the read does not fail', async () => {
    const grid = await open('ts', 'items', { sort: [{ column: 'tag', direction: 'asc' }, { column: 'rank', direction: 'desc' }] }, 250);
    expect(grid.notes).toEqual([expect.stringContaining('Not sorted by tag')]);
    expect(grid.first.rows[0]?.id).toBe('i699');
    await call({ type: 'close', gridId: grid.gridId });
  });

  it('an operator the engine cannot express is refused with its message, under its row', async () => {
    const reply = expectType(await call({ type: 'open', connection: 'ts', target: 'items', view: { filters: [{ column: 'title', operator: 'ends with', value: '7' }] } }), 'error');
    expect(reply.filterRow).toBe(0);
    expect(reply.message).toBe('Typesense cannot filter with "ends with": the engine has no such filter. Use contains or a raw filter instead.');
  });
});

describe("the cells' Copy as curl", () => {
  it("each request of a cell on the connection it would use; the engine answers the command as it answers the cell", async () => {
    const reply = expectType(await call({ type: 'curl', cell: '%use es\nPOST /shop/_search\n{"query": {"term": {"tag": "red"}}, "size": 0}\n%use ts\nGET /collections/items/documents/search?q=*&filter_by=rank:<3' }), 'curl');
    expect(reply.commands).toHaveLength(2);
    const [es, ts] = (await Promise.all(reply.commands.map(curl))) as [{ hits: { total: { value: number } } }, { found: number }];
    expect(es.hits.total.value).toBe(DOCS / 3);
    expect(ts.found).toBe(3);
    expect(reply.commands[1]).toContain('$TYPESENSE_API_KEY');
    expect(reply.commands.join('\n')).not.toContain(SECRETS.TS_API_KEY);
  });

  it('an environment variable the cell reads stays a reference, never its value', async () => {
    const reply = expectType(await call({ type: 'curl', cell: '%use ts\nPOST /multi_search\n{"searches": [{"collection": "items", "q": "${env:TS_API_KEY}"}]}' }), 'curl');
    expect(reply.commands[0]).toContain('"q":"$TS_API_KEY"');
    expect(reply.commands[0]).not.toContain(SECRETS.TS_API_KEY);
  });
});
