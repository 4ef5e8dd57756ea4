/**
 * Each answer is kept once, and exactly: a kernel over ZeroMQ talks to the sandbox
 * engines through a recording proxy, and the engine's bytes are rebuilt from the display_data
 * alone: the answer's text, and the grid's rows from it.
 */
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  answerValue,
  hitsPayloadRows,
  swapQuotes,
  tablePayloadRows
} from '../../contracts/answer-rows';
import {
  HITS_MIME,
  HitsPayloadSchema,
  TABLE_MIME,
  TablePayloadSchema
} from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import { KernelClient } from '../support/kernel-client';
import { displays, type MimeBundle } from '../support/shown-text';
import {
  ANSWER_FORMAT,
  COMPRESSED_ANSWER_BYTES,
  COMPRESSED_ANSWER_FORMAT,
  swappedAnswerText
} from '../../contracts/answer-format';

/** Forwards every request to `target` and keeps the last body answered to each path, byte for byte. */
async function recordingProxy(target: string): Promise<{
  url: string;
  answerTo: (path: string) => string;
  close: () => Promise<void>;
}> {
  const answers = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k]) => k !== 'host' && k !== 'connection'
        )
      );
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void request(`${target}${req.url ?? '/'}`, {
        method: req.method as 'GET',
        headers: headers as Record<string, string>,
        body
      }).then(async answer => {
        const bytes = Buffer.from(await answer.body.arrayBuffer());
        answers.set(req.url ?? '/', bytes.toString('utf8'));
        for (const [k, v] of Object.entries(answer.headers)) {
          if (
            v !== undefined &&
            k !== 'content-length' &&
            k !== 'connection' &&
            k !== 'keep-alive'
          ) {
            res.setHeader(k, v);
          }
        }
        res.writeHead(answer.statusCode).end(bytes);
      });
    });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    answerTo: path => answers.get(path) ?? '',
    close: () => new Promise(r => server.close(() => r()))
  };
}

let kernel: KernelClient;
let sandbox: RunningSandbox;
let es: Awaited<ReturnType<typeof recordingProxy>>;
let ts: Awaited<ReturnType<typeof recordingProxy>>;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS, SEARCHBOOK_MAX_ROWS: '10000' }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 1500
    })
  ]);
  [es, ts] = await Promise.all([
    recordingProxy(sandbox.esUrl),
    recordingProxy(sandbox.tsUrl)
  ]);
  const connected = await kernel.execute(
    `%connect elasticsearch ${es.url} auth=basic user=elastic password=\${env:ES_PASSWORD} name=es`
  );
  expect(connected.reply.content.status).toBe('ok');
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await Promise.all([es?.close(), ts?.close()]);
  await sandbox?.close();
});

async function display(code: string): Promise<MimeBundle> {
  const { reply, iopub } = await kernel.execute(code);
  expect(reply.content.status).toBe('ok');
  const data = displays(iopub);
  expect(data).toHaveLength(1);
  return data[0] ?? {};
}

it('a 1,000-hit search: the engine bytes come back from the notebook output, and the grid rows from them', async () => {
  const data = await display(
    'GET /products/_search\n{"size": 1000, "query": {"match_all": {}}}'
  );
  expect(Object.keys(data).sort()).toEqual([
    HITS_MIME,
    'text/html',
    'text/plain'
  ]);
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  expect(swapQuotes(swappedAnswerText(payload) as string)).toBe(
    es.answerTo('/products/_search')
  );
  const engine = JSON.parse(es.answerTo('/products/_search')) as {
    hits: { hits: { _id: string; _source: { name: string } }[] };
  };
  const rows = hitsPayloadRows(payload);
  expect(rows).toHaveLength(1000);
  expect(rows.map(r => [r._id, r.name])).toEqual(
    engine.hits.hits.map(h => [h._id, h._source.name])
  );
  expect(JSON.stringify(data).length).toBeLessThan(
    es.answerTo('/products/_search').length * 1.15
  );
});

it('large answers in a row each arrive signed and exact, the first output the hits grid', async () => {
  for (const size of [400, 1200, 800, 1500]) {
    const path = '/products/_search';
    // The client checks every message's signature with the connection key: a wrong one fails here.
    const data = await display(
      `GET ${path}\n{"size": ${size}, "query": {"match_all": {}}}`
    );
    expect(Object.keys(data)[0]).toBe(HITS_MIME);
    const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
    expect(swapQuotes(swappedAnswerText(payload) as string)).toBe(
      es.answerTo(path)
    );
    expect(hitsPayloadRows(payload)).toHaveLength(size);
    expect(String(data['text/plain'])).toContain(`${size} shown`);
  }
});

it('a table (_cat/indices as JSON) keeps the engine array once', async () => {
  const data = await display('GET /_cat/indices?format=json');
  const payload = TablePayloadSchema.parse(data[TABLE_MIME]);
  expect(answerValue(payload)).toEqual(
    JSON.parse(es.answerTo('/_cat/indices?format=json'))
  );
  expect(tablePayloadRows(payload).some(row => row.index === 'products')).toBe(
    true
  );
});

it('an answer over 64 KiB is kept gzip-compressed in base64, which base64 -d | gunzip reads back, and its grid rows are the same', async () => {
  const data = await display(
    'GET /products/_search\n{"size": 1000, "query": {"match_all": {}}}'
  );
  const engine = es.answerTo('/products/_search');
  expect(Buffer.byteLength(engine)).toBeGreaterThan(COMPRESSED_ANSWER_BYTES);
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  expect(payload.answerFormat).toBe(COMPRESSED_ANSWER_FORMAT);
  const answer = payload.answer ?? '';
  expect(answer).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  // As a command line reads it, without searchbook.
  expect(
    swapQuotes(gunzipSync(Buffer.from(answer, 'base64')).toString('utf8'))
  ).toBe(engine);
  expect(JSON.stringify(data[HITS_MIME]).length).toBeLessThan(
    engine.length / 3
  );
  const hits = (
    JSON.parse(engine) as {
      hits: { hits: { _id: string; _source: Record<string, unknown> }[] };
    }
  ).hits.hits;
  const rows = hitsPayloadRows(payload);
  expect(rows.map(r => [r._id, r.name, r.price])).toEqual(
    hits.map(h => [h._id, h._source.name, h._source.price])
  );
  // The same answer as notebooks saved before kept it (and, older still, without answerFormat).
  const plain = swapQuotes(engine);
  const { answerFormat: _, ...older } = payload;
  for (const saved of [
    { ...payload, answer: plain, answerFormat: ANSWER_FORMAT },
    { ...older, answer: plain }
  ]) {
    const read = HitsPayloadSchema.parse(JSON.parse(JSON.stringify(saved)));
    expect(hitsPayloadRows(read)).toEqual(rows);
    expect(answerValue(read)).toEqual(answerValue(payload));
  }
});

it('an answer of 64 KiB or less stays plain swapped text in the payload', async () => {
  const data = await display(
    'GET /products/_search\n{"size": 5, "query": {"match_all": {}}}'
  );
  const engine = es.answerTo('/products/_search');
  expect(Buffer.byteLength(engine)).toBeLessThanOrEqual(
    COMPRESSED_ANSWER_BYTES
  );
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  expect(payload.answerFormat).toBe(ANSWER_FORMAT);
  expect(swapQuotes(payload.answer ?? '')).toBe(engine);
  expect(hitsPayloadRows(payload)).toHaveLength(5);
});

it('a Typesense search keeps its answer once; rows come from the hits documents', async () => {
  await display(`%connect typesense ${ts.url} key=\${env:TS_API_KEY} name=ts`);
  const data = await display(
    'GET /collections/books/documents/search?q=*&per_page=50'
  );
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  expect(swapQuotes(swappedAnswerText(payload) as string)).toBe(
    ts.answerTo('/collections/books/documents/search?q=*&per_page=50')
  );
  const engine = JSON.parse(
    ts.answerTo('/collections/books/documents/search?q=*&per_page=50')
  ) as { hits: { document: { id: string; title: string } }[] };
  expect(hitsPayloadRows(payload).map(r => [r.id, r.title])).toEqual(
    engine.hits.map(h => [h.document.id, h.document.title])
  );
});
