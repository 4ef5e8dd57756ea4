/**
 * Answers as values, over ZeroMQ against the sandbox engines: `%set name = <JMESPath>` reads
 * the last answer or one kept with `%name`, and the value goes into the next request through
 * `${name}`; `%vars` says where each value came from. A bad expression, an expression over
 * no answer, or over an answer the cell has not got yet, is refused and nothing is sent.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { hitsPayloadRows } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { displays, plainText } from '../support/shown-text';

jest.setTimeout(60_000);

let kernel: KernelClient;
let sandbox: RunningSandbox;

const esAuth = {
  authorization: `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`,
  'content-type': 'application/json'
};

/** Asks the sandbox directly, as a second opinion on what the kernel did. */
async function es(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.esUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: esAuth,
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  });
  return response.json();
}

const texts = (iopub: IopubMessage[]): string =>
  displays(iopub).map(plainText).join('\n');

/** `%vars` as its HTML table shows it: one row of cell texts a variable. */
function varsRows(iopub: IopubMessage[]): Map<string, string[]> {
  const html = displays(iopub)
    .map(d => d['text/html'])
    .join('\n');
  const unescape = (text: string): string =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const rows = new Map<string, string[]>();
  for (const [, row] of html.matchAll(/<tr>((?:<td>.*?<\/td>)+)<\/tr>/g)) {
    const cells = [...(row ?? '').matchAll(/<td>(.*?)<\/td>/g)].map(c =>
      unescape(c[1] ?? '')
    );
    rows.set(cells[0] ?? '', cells.slice(1));
  }
  return rows;
}

const answerJson = (iopub: IopubMessage[]): unknown[] =>
  displays(iopub)
    .map(d => d['application/json'])
    .filter(v => v !== undefined);

async function ok(code: string): Promise<IopubMessage[]> {
  const { reply, iopub } = await kernel.execute(code);
  expect(reply.content).toMatchObject({ status: 'ok' });
  return iopub;
}

async function refused(
  code: string
): Promise<{ ename: string; evalue: string; traceback: string }> {
  const { reply } = await kernel.execute(code);
  expect(reply.content.status).toBe('error');
  return {
    ename: errorOf(reply).ename,
    evalue: errorOf(reply).evalue,
    traceback: errorOf(reply).traceback.join('\n')
  };
}

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 20
    })
  ]);
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('an expression before any answer is refused, saying there is none and how to store text', async () => {
  await ok(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=es`
  );
  const r = await refused('%set ids = hits.hits[*]._id\nPUT /never-made');
  expect(r.ename).toBe('NoAnswer');
  expect(r.evalue).toContain('No request has answered in this kernel yet');
  expect(r.evalue).toContain('Nothing was sent');
  expect(r.traceback).toContain('%set name = "hits.hits[*]._id"');
  expect(await es('/never-made/_count')).toMatchObject({ status: 404 });
});

it('ids read from a search go into an _mget, which gets those documents', async () => {
  const search = { size: 3, sort: [{ price: 'desc' }] };
  const expected = (
    (await es('/products/_search', search)) as {
      hits: { hits: { _id: string }[] };
    }
  ).hits.hits.map(h => h._id);
  expect(expected).toHaveLength(3);
  await ok(`GET /products/_search\n${JSON.stringify(search)}`);
  await ok('%set ids = hits.hits[*]._id');
  const mget = await ok('GET /products/_mget\n{"ids": ${ids}}');
  const [answer] = answerJson(mget) as {
    docs: { _id: string; found: boolean }[];
  }[];
  expect(answer?.docs.map(d => [d._id, d.found])).toEqual(
    expected.map(id => [id, true])
  );
  // %vars: the value's preview, its type, and the expression over which request's answer.
  expect(varsRows(await ok('%vars')).get('ids')).toEqual([
    JSON.stringify(expected),
    'array of 3',
    'hits.hits[*]._id over last answer (es: GET /products/_search)'
  ]);
});

it('an aggregation kept with %name is read in a later cell, after other answers', async () => {
  const aggs = {
    size: 0,
    aggs: { by_category: { terms: { field: 'category', size: 50 } } }
  };
  const direct = (await es('/products/_search', aggs)) as {
    aggregations: { by_category: { buckets: { key: string }[] } };
  };
  const keys = direct.aggregations.by_category.buckets.map(b => b.key);
  expect(keys.length).toBeGreaterThan(1);
  const named = await ok(
    `GET /products/_search\n${JSON.stringify(aggs)}\n%name categories`
  );
  expect(texts(named)).toContain(
    'Named the answer of es: GET /products/_search categories'
  );
  await ok('GET /products/_count');
  await ok(
    '%set cats = categories: aggregations.by_category.buckets[*].key\n%set total = count'
  );
  await ok('%set size = 3');
  const vars = varsRows(await ok('%vars'));
  expect(vars.get('cats')).toEqual([
    JSON.stringify(keys),
    `array of ${keys.length}`,
    'aggregations.by_category.buckets[*].key over answer categories (es: GET /products/_search)'
  ]);
  expect(vars.get('total')).toEqual([
    '20',
    'number',
    'count over last answer (es: GET /products/_count)'
  ]);
  // A literal stays a literal, and says so.
  expect(vars.get('size')).toEqual(['3', 'number', 'JSON value']);
});

it('refuses a bad expression, one that matches nothing, an unknown answer name, and one over an answer the cell has not got; nothing is sent', async () => {
  const bad = await refused('%set ids = hits.hits[*\nPUT /never-made');
  expect(bad.ename).toBe('InvalidExpression');
  expect(bad.evalue).toContain(
    'is neither a JSON value nor a JMESPath expression'
  );
  expect(bad.traceback).toContain('%set ids = hits.hits[*]._id');
  const nothing = await refused('%set ids = hits.hitz[*]._id\nPUT /never-made');
  expect(nothing.ename).toBe('InvalidExpression');
  expect(nothing.evalue).toContain('matched nothing in the last answer');
  const unknown = await refused(
    '%set ids = nope: hits.hits[*]._id\nPUT /never-made'
  );
  expect(unknown.ename).toBe('NoAnswer');
  expect(unknown.evalue).toContain('No answer is named nope');
  expect(unknown.traceback).toContain('Named answers: categories');
  const sameCell = await refused(
    'PUT /never-made\n%set ids = hits.hits[*]._id\nGET /products/_mget\n{"ids": ${ids}}'
  );
  expect(sameCell.ename).toBe('NoAnswer');
  expect(sameCell.evalue).toContain(
    'a request above it in this cell has not answered yet'
  );
  expect(sameCell.traceback).toContain('top of the next cell');
  expect(await es('/never-made/_count')).toMatchObject({ status: 404 });
  // A literal %set still refuses broken JSON as JSON.
  expect((await refused('%set q = {"size": }')).ename).toBe('InvalidJSON');
});

it('Typesense: ids from a search, joined by JMESPath, filter the next search', async () => {
  await ok(
    `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
  );
  await ok(
    'GET /collections/books/documents/search?q=*&query_by=title&sort_by=year:asc&per_page=3'
  );
  await ok("%set ids = join(',', hits[*].document.id)");
  const picked = await ok(
    'GET /collections/books/documents/search?q=*&query_by=title&filter_by=id:[${ids}]&per_page=10'
  );
  const payload = HitsPayloadSchema.parse(displays(picked)[0]?.[HITS_MIME]);
  const [value, type, from] = varsRows(await ok('%vars')).get('ids') ?? [];
  const ids = (JSON.parse(value ?? '""') as string).split(',');
  expect(ids).toHaveLength(3);
  expect(payload.total?.value).toBe(3);
  expect(hitsPayloadRows(payload).map(row => row.id)).toEqual(
    expect.arrayContaining(ids)
  );
  expect(type).toBe('string');
  expect(from).toBe(
    "join(',', hits[*].document.id) over last answer (ts: GET /collections/books/documents/search?q=*&query_by=title&sort_by=year:asc&per_page=3)"
  );
});
