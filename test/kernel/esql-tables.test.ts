/**
 * ES|QL answers over the wire: the kernel process over ZeroMQ, and an engine on 127.0.0.1 that
 * answers `GET /` as Elasticsearch 8.19 does and `/_query` with answers in the shape Elastic
 * documents (https://www.elastic.co/docs/reference/query-languages/esql/esql-rest): `columns`
 * with their ES|QL types and `values`. No node built here serves ES|QL (its plugin is not on
 * Maven Central), so the answers are the documented ones. A cell's answer is a typed table:
 * the table payload with the columns in the answer's order and their types, exact values,
 * nulls, multi-valued fields as arrays, the row cap, and the text and HTML fallbacks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tablePayloadRows } from '../../contracts/answer-rows';
import {
  JSON_MIME,
  TABLE_MIME,
  TablePayloadSchema
} from '../../contracts/mime-types';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { displaysAndUpdates, type MimeBundle } from '../support/shown-text';
import { ExactNumber } from '../../contracts/exact-json';

/** The documented answer of `FROM library | KEEP author, name, page_count, release_date | SORT page_count DESC | LIMIT 5`. */
const LIBRARY = {
  took: 28,
  is_partial: false,
  columns: [
    { name: 'author', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'page_count', type: 'integer' },
    { name: 'release_date', type: 'date' }
  ],
  values: [
    ['Peter F. Hamilton', "Pandora's Star", 768, '2004-03-02T00:00:00.000Z'],
    ['Vernor Vinge', 'A Fire Upon the Deep', 613, '1992-06-01T00:00:00.000Z'],
    ['Frank Herbert', 'Dune', 604, '1965-06-01T00:00:00.000Z'],
    ['Alastair Reynolds', 'Revelation Space', 585, '2000-03-15T00:00:00.000Z'],
    ['James S.A. Corey', 'Leviathan Wakes', 561, '2011-06-02T00:00:00.000Z']
  ]
};

/**
 * `STATS c = COUNT(*) BY brand` over products, written as text so the long past 2^53 reaches
 * the kernel with every digit; a null count, a multi-valued keyword and markup in a value.
 */
const STATS_TEXT =
  '{"took":3,"is_partial":false,"documents_found":12,"values_loaded":24,' +
  '"columns":[{"name":"c","type":"long"},{"name":"brand","type":"keyword"},{"name":"tags","type":"keyword"}],' +
  '"values":[[3,"acme",["new","sale"]],[9007199254740993,"<b>big</b>",null],[null,"none","solo"]]}';

/** A partial answer: one cluster of a cross-cluster query did not answer. */
const PARTIAL = {
  took: 40,
  is_partial: true,
  columns: [{ name: 'brand', type: 'keyword' }],
  values: [['acme']],
  _clusters: {
    total: 2,
    successful: 1,
    running: 0,
    skipped: 0,
    partial: 1,
    failed: 0,
    details: {}
  }
};

/** `drop_null_columns=true`: the column whose every value is null is only in `all_columns`. */
const DROPPED = {
  took: 2,
  all_columns: [
    { name: 'brand', type: 'keyword' },
    { name: 'discontinued', type: 'boolean' }
  ],
  columns: [{ name: 'brand', type: 'keyword' }],
  values: [['acme'], ['zenith']]
};

/** `"columnar": true`: one array per column. */
const COLUMNAR = {
  took: 1,
  columns: [
    { name: 'brand', type: 'keyword' },
    { name: 'price', type: 'double' }
  ],
  values: [
    ['acme', 'zenith', 'orbit'],
    [9.5, 12.25, null]
  ]
};

/** Eight rows, past the kernel's row cap of five in this test. */
const MANY = {
  took: 1,
  columns: [{ name: 'n', type: 'integer' }],
  values: Array.from({ length: 8 }, (_, i) => [i + 1])
};

/** An async query that finished within its wait, kept for later (`keep_on_completion`). */
const ASYNC_DONE = {
  id: 'FmNJRUZ1YWZCU3dHY1BIOUhaenVSRkEaaXFlZ3h4c1RTWFNocDdnY2FSaERnUTozNDE=',
  is_running: false,
  took: 5,
  columns: [{ name: 'brand', type: 'keyword' }],
  values: [['acme']]
};

/** An async query still running: no columns yet, so no table. */
const ASYNC_RUNNING = {
  id: 'FmNJRUZ1YWZCU3dHY1BIOUhaenVSRkEaaXFlZ3h4c1RTWFNocDdnY2FSaERnUTozNDE=',
  is_running: true
};

const answers: Record<string, string> = {
  'FROM library': JSON.stringify(LIBRARY),
  'FROM products | STATS': STATS_TEXT,
  'FROM remote:products': JSON.stringify(PARTIAL),
  'FROM products | KEEP brand, discontinued': JSON.stringify(DROPPED),
  'FROM products | KEEP brand, price': JSON.stringify(COLUMNAR),
  'ROW n': JSON.stringify(MANY)
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const reply = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, {
    'x-elastic-product': 'Elasticsearch',
    'content-type': 'application/json'
  });
  res.end(text);
};

/** `POST /_query`: the documented answer of the query the body names. */
async function query(req: IncomingMessage, res: ServerResponse) {
  const body = JSON.parse(await readBody(req)) as { query?: string };
  const key = Object.keys(answers).find(k => body.query?.startsWith(k));
  if (key === undefined) {
    reply(
      res,
      400,
      JSON.stringify({
        error: {
          type: 'verification_exception',
          reason: `Found 1 problem\nline 1:6: Unknown index [${String(body.query)}]`
        },
        status: 400
      })
    );
    return;
  }
  reply(res, 200, answers[key] as string);
}

let engine: HostileEngine;
let kernel: KernelClient;

beforeAll(async () => {
  engine = await startHostileEngine({
    '/': (_req, res) =>
      reply(
        res,
        200,
        JSON.stringify({
          name: 'node-1',
          cluster_name: 'esql',
          version: { number: '8.19.0', build_flavor: 'default' },
          tagline: 'You Know, for Search'
        })
      ),
    '/_query': (req, res) => void query(req, res),
    '/_query/async': (_req, res) => reply(res, 200, JSON.stringify(ASYNC_DONE)),
    [`/_query/async/${ASYNC_RUNNING.id}`]: (_req, res) =>
      reply(res, 200, JSON.stringify(ASYNC_RUNNING))
  });
  kernel = await KernelClient.start({ SEARCHBOOK_MAX_ROWS: '5' });
  const connected = await kernel.execute(
    `%connect elasticsearch ${engine.url} auth=none name=es`
  );
  expect(connected.reply.content.status).toBe('ok');
});

afterAll(async () => {
  await Promise.all([kernel?.close(), engine?.close()]);
});

const displays = (iopub: IopubMessage[]) =>
  displaysAndUpdates(iopub).filter(
    d => !('application/vnd.searchbook.progress+json' in d)
  );

/** Runs an ES|QL cell and returns the one output it shows. */
async function run(
  query: string,
  options: { path?: string; extra?: string } = {}
): Promise<MimeBundle> {
  const cell = `POST ${options.path ?? '/_query'}\n${JSON.stringify({ query, ...(options.extra ? JSON.parse(options.extra) : {}) })}`;
  const { reply, iopub } = await kernel.execute(cell);
  expect(reply.content.status).toBe('ok');
  const shown = displays(iopub);
  expect(shown).toHaveLength(1);
  return shown[0] ?? {};
}

it("shows the documented answer as a table: the answer's columns in order, typed, each row a line of values", async () => {
  const bundle = await run(
    'FROM library | KEEP author, name, page_count, release_date | SORT page_count DESC | LIMIT 5'
  );
  expect(bundle[JSON_MIME]).toBeUndefined();
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  expect(payload.columns).toEqual([
    'author',
    'name',
    'page_count',
    'release_date'
  ]);
  expect(payload.types).toEqual(['text', 'text', 'integer', 'date']);
  expect(payload.omittedRows).toBe(0);
  expect(payload.notes).toBeUndefined();
  expect(tablePayloadRows(payload).map(row => ({ ...row }))).toEqual(
    LIBRARY.values.map(([author, name, pages, date]) => ({
      author,
      name,
      page_count: pages,
      release_date: date
    }))
  );
  const plain = String(bundle['text/plain']).split('\n');
  expect(plain[0]).toMatch(/^es: POST \/_query → 200 in \d+ ms \(5 rows\)$/);
  expect(plain[1]).toMatch(/^author +name +page_count +release_date$/);
  expect(plain[2]).toMatch(/^text +text +integer +date$/);
  expect(plain.slice(4).join('\n')).toContain('Vernor Vinge');
  expect(String(bundle['text/html'])).toContain(
    '<th>page_count<br><small>integer</small></th>'
  );
  // The raw answer stays for Raw JSON, as the engine sent it.
  expect(payload.answer).toBeDefined();
});

it('keeps a long past 2^53 digit for digit, nulls as nulls, a multi-valued field as an array, markup as text', async () => {
  const bundle = await run('FROM products | STATS c = COUNT(*) BY brand');
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  expect(payload.columns).toEqual(['c', 'brand', 'tags']);
  expect(payload.types).toEqual(['long', 'keyword', 'keyword']);
  // JupyterLab reads a bundle with JSON.parse: rows holding such a long cross as exact text.
  expect(payload.rows).toBeUndefined();
  expect(payload.exactRows).toContain('9007199254740993');
  expect(tablePayloadRows(payload).map(row => ({ ...row }))).toEqual([
    { c: 3, brand: 'acme', tags: ['new', 'sale'] },
    { c: new ExactNumber('9007199254740993'), brand: '<b>big</b>', tags: null },
    { c: null, brand: 'none', tags: 'solo' }
  ]);
  const plain = String(bundle['text/plain']);
  expect(plain).toContain('9007199254740993');
  expect(plain).not.toContain('9007199254740992');
  expect(plain).toContain('["new","sale"]');
  const html = String(bundle['text/html']);
  expect(html).toContain('&lt;b&gt;big&lt;/b&gt;');
  expect(html).not.toContain('<b>big</b>');
  expect(payload.notes).toEqual(['12 documents found, 24 values loaded.']);
  expect(plain.split('\n').at(-1)).toBe(
    '12 documents found, 24 values loaded.'
  );
});

it('says under the table that a partial answer may miss rows', async () => {
  const bundle = await run('FROM remote:products | KEEP brand');
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  const said =
    'Partial answer (is_partial): some shards or clusters did not answer, so rows may be missing. Their failures are in Raw JSON (_clusters).';
  expect(payload.notes).toEqual([said]);
  expect(String(bundle['text/plain']).split('\n').at(-1)).toBe(said);
  expect(String(bundle['text/html'])).toContain(`<p>${said}</p>`);
});

it('names the columns drop_null_columns left out, with their types', async () => {
  const bundle = await run('FROM products | KEEP brand, discontinued', {
    path: '/_query?drop_null_columns=true'
  });
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  expect(payload.columns).toEqual(['brand']);
  expect(payload.notes).toEqual([
    'Columns left out because every value is null (drop_null_columns): discontinued (boolean).'
  ]);
});

it('reads a columnar answer (one array per column) into the same rows', async () => {
  const bundle = await run('FROM products | KEEP brand, price', {
    extra: '{"columnar": true}'
  });
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  expect(payload.types).toEqual(['keyword', 'double']);
  expect(tablePayloadRows(payload).map(row => ({ ...row }))).toEqual([
    { brand: 'acme', price: 9.5 },
    { brand: 'zenith', price: 12.25 },
    { brand: 'orbit', price: null }
  ]);
});

it('keeps the first SEARCHBOOK_MAX_ROWS rows and says how many were left out', async () => {
  const bundle = await run('ROW n = 1');
  const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
  expect(payload.omittedRows).toBe(3);
  expect(tablePayloadRows(payload).map(row => row.n)).toEqual([1, 2, 3, 4, 5]);
  const plain = String(bundle['text/plain']);
  expect(plain.split('\n')[0]).toMatch(
    /\(8 rows; 3 rows left out of the notebook, raise Rows kept in notebook outputs in searchbook's settings \(or SEARCHBOOK_MAX_ROWS\) to keep more\)$/
  );
  expect(plain).toContain('3 more rows of the answer are not in the notebook');
});

it('shows a finished async query as a table, and one still running as its JSON', async () => {
  const done = await run('FROM products | KEEP brand', {
    path: '/_query/async'
  });
  expect(TablePayloadSchema.parse(done[TABLE_MIME]).types).toEqual(['keyword']);
  const { reply, iopub } = await kernel.execute(
    `GET /_query/async/${ASYNC_RUNNING.id}`
  );
  expect(reply.content.status).toBe('ok');
  const [running] = displays(iopub);
  expect(running?.[TABLE_MIME]).toBeUndefined();
  expect(running?.[JSON_MIME]).toBeDefined();
  expect(running?.['application/json']).toEqual(ASYNC_RUNNING);
});

it('shows an ES|QL error as the failure it is, not as a table', async () => {
  const { reply } = await kernel.execute(
    `POST /_query\n${JSON.stringify({ query: 'FROM nowhere' })}`
  );
  expect(reply.content.status).toBe('error');
  expect(errorOf(reply).evalue).toContain('Unknown index');
});
