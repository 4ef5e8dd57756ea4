/**
 * Answers shown as what they are, over ZeroMQ against a loopback engine that answers oddly:
 * a redirect shows its status and Location and fails the cell; an error status without a body
 * shows the status alone; a compressed answer is decompressed (within the connection's cap) or
 * named; JSON that does not parse, or nests too deep to walk, is shown as text and said so;
 * control characters from the engine are escaped in text/plain and in error texts.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { hitsPayloadRows } from '../../contracts/answer-rows';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { displays } from '../support/shown-text';

jest.setTimeout(30_000);

let kernel: KernelClient;
let engine: HostileEngine;

const SEARCH = JSON.stringify({
  took: 1,
  timed_out: false,
  hits: {
    total: { value: 2, relation: 'eq' },
    hits: [1, 2].map(i => ({
      _index: 'p',
      _id: String(i),
      _score: 1,
      _source: { name: `item ${i}` }
    }))
  }
});
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

const empty =
  (status: number, headers: Record<string, string> = {}) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'x-elastic-product': 'Elasticsearch', ...headers });
    res.end();
  };
const body =
  (status: number, headers: Record<string, string>, bytes: Buffer | string) =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'x-elastic-product': 'Elasticsearch', ...headers });
    res.end(bytes);
  };
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  engine = await startHostileEngine({
    '/moved/_search': empty(301, {
      location: 'http://elsewhere.example:9200/moved/_search'
    }),
    '/e500': empty(500),
    '/e502': empty(502),
    '/e503': empty(503),
    '/e429': empty(429),
    '/busy/_search': body(
      429,
      json,
      JSON.stringify({
        error: {
          root_cause: [
            {
              type: 'es_rejected_execution_exception',
              reason: 'rejected execution of coordinating operation'
            }
          ],
          type: 'es_rejected_execution_exception',
          reason: 'rejected execution of coordinating operation'
        },
        status: 429
      })
    ),
    '/gzip/_search': body(
      200,
      { ...json, 'content-encoding': 'gzip' },
      gzipSync(SEARCH)
    ),
    '/deflate/_search': body(
      200,
      { ...json, 'content-encoding': 'deflate' },
      deflateSync(SEARCH)
    ),
    '/br/_search': body(
      200,
      { ...json, 'content-encoding': 'br' },
      brotliCompressSync(SEARCH)
    ),
    '/bomb/_search': body(
      200,
      { ...json, 'content-encoding': 'gzip' },
      gzipSync(Buffer.alloc(5_000_000, 0x20))
    ),
    '/zstd/_search': body(
      200,
      { ...json, 'content-encoding': 'zstd' },
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3])
    ),
    '/broken/_search': body(200, json, '{"hits": {"hits": [1, 2,'),
    '/_cat/health': body(
      200,
      { 'content-type': 'text/plain' },
      '1700000000 12:00:00 test \u001b[31mred\u001b[0m 1 1\u0007\n'
    ),
    '/ansi/_search': body(
      400,
      json,
      JSON.stringify({
        error: {
          type: 'parsing_exception',
          reason: 'bad \u001b[2J\u001b[31mquery'
        },
        status: 400
      })
    ),
    '/deep/_search': body(200, json, DEEP),
    '/cut/_search': (_req, res) => {
      res.writeHead(200, {
        'x-elastic-product': 'Elasticsearch',
        ...json,
        'content-length': '100000'
      });
      res.write('{"hits": {"hits": [');
      setTimeout(() => res.destroy(), 20);
    }
  });
  kernel = await KernelClient.start();
  expect(
    (
      await kernel.execute(
        `%connect elasticsearch ${engine.url} auth=none name=odd`
      )
    ).reply.content.status
  ).toBe('ok');
});
afterAll(async () => {
  await Promise.all([kernel?.close(), engine?.close()]);
});

const plainTexts = (iopub: IopubMessage[]) =>
  displays(iopub).map(d => String(d['text/plain'] ?? ''));

it('a redirect fails the cell, showing its status and Location, with no made-up body', async () => {
  const { reply, iopub } = await kernel.execute('GET /moved/_search');
  expect(reply.content).toMatchObject({ status: 'error', ename: 'Redirected' });
  expect(errorOf(reply).evalue).toBe(
    'Elasticsearch answered 301 Moved Permanently to http://elsewhere.example:9200/moved/_search. searchbook does not follow redirects, so nothing was read from there; if the engine moved, %connect to the address it names.'
  );
  const [shown] = displays(iopub);
  expect(shown?.['text/plain']).toMatch(
    /^odd: GET \/moved\/_search → 301 in \d+ ms\n301 Moved Permanently \(the answer has no body\)\nLocation: http:\/\/elsewhere\.example:9200\/moved\/_search$/
  );
  expect(Object.keys(shown ?? {})).toEqual(['text/plain']);
});

it.each([
  [500, 'Internal Server Error'],
  [502, 'Bad Gateway'],
  [503, 'Service Unavailable']
])(
  'an empty %i answer shows its status and reason phrase alone',
  async (status, phrase) => {
    const { reply, iopub } = await kernel.execute(`GET /e${status}`);
    expect(reply.content).toMatchObject({
      status: 'error',
      evalue: `Elasticsearch answered ${status}: ${phrase} (the answer has no body)`
    });
    const [shown] = displays(iopub);
    expect(Object.keys(shown ?? {})).toEqual(['text/plain']);
    expect(String(shown?.['text/plain']).split('\n').slice(1)).toEqual([
      `${status} ${phrase} (the answer has no body)`
    ]);
  }
);

const WAIT_AND_RETRY =
  'The cluster is too busy for this request now: wait a little and run it again; if it keeps answering 429, send smaller requests (fewer documents a _bulk, a smaller size) or fewer at once.';

it("a 429 answer keeps its status and the engine's reason, and advises waiting and running the cell again", async () => {
  const empty429 = await kernel.execute('GET /e429');
  expect(empty429.reply.content).toMatchObject({
    status: 'error',
    evalue: `Elasticsearch answered 429: Too Many Requests (the answer has no body). ${WAIT_AND_RETRY}`
  });
  const busy = await kernel.execute('GET /busy/_search');
  expect(busy.reply.content).toMatchObject({
    status: 'error',
    evalue: `Elasticsearch answered 429: es_rejected_execution_exception: rejected execution of coordinating operation. ${WAIT_AND_RETRY}`
  });
});

it.each(['gzip', 'deflate', 'br'])(
  'a %s-compressed answer is decompressed and shown as the search it is',
  async coding => {
    const { reply, iopub } = await kernel.execute(`GET /${coding}/_search`);
    expect(reply.content.status).toBe('ok');
    const payload = HitsPayloadSchema.parse(displays(iopub)[0]?.[HITS_MIME]);
    expect(hitsPayloadRows(payload).map(r => r.name)).toEqual([
      'item 1',
      'item 2'
    ]);
  }
);

it('a compressed answer that grows past the cap once decompressed is dropped with the cap named', async () => {
  expect(
    (
      await kernel.execute(
        `%connect elasticsearch ${engine.url} auth=none name=small max_answer=1MiB`
      )
    ).reply.content.status
  ).toBe('ok');
  const { reply } = await kernel.execute('GET /bomb/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Answer too large'
  });
  expect(errorOf(reply).evalue).toContain(
    'larger than the 1 MiB one answer may hold in memory (max_answer of this connection): it grew past that once decompressed'
  );
  expect((await kernel.execute('%use odd')).reply.content.status).toBe('ok');
});

it('an encoding searchbook cannot decode is named, not shown as bytes', async () => {
  const { reply, iopub } = await kernel.execute('GET /zstd/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Unreadable answer',
    evalue:
      'The answer came encoded as "zstd" (its Content-Encoding header), which searchbook cannot decode; it reads gzip, deflate and br.'
  });
  expect(displays(iopub)).toEqual([]);
});

it('JSON that does not parse is shown as text, and a note says what it is', async () => {
  const { reply, iopub } = await kernel.execute('GET /broken/_search');
  expect(reply.content.status).toBe('ok');
  const [answer, note] = plainTexts(iopub);
  expect(answer).toMatch(/\n\{"hits": \{"hits": \[1, 2,$/);
  expect(note).toBe(
    'The answer says it is application/json (its Content-Type) but is not valid JSON (at character 24: the text ends before the value does (a bracket or quote is not closed)), so it is shown as the text it came as.'
  );
});

it('control characters from the engine are escaped in text/plain and in error texts', async () => {
  const cat = await kernel.execute('GET /_cat/health');
  expect(cat.reply.content.status).toBe('ok');
  const [text] = plainTexts(cat.iopub);
  expect(text).toContain('test \\u001b[31mred\\u001b[0m 1 1\\u0007\n');
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  const failed = await kernel.execute('GET /ansi/_search');
  expect(failed.reply.content).toMatchObject({
    status: 'error',
    ename: 'RequestFailed'
  });
  expect(errorOf(failed.reply).evalue).toBe(
    'Elasticsearch answered 400: parsing_exception: bad \\u001b[2J\\u001b[31mquery'
  );
});

it('an answer nested 100,000 levels deep is shown as text and explained, and the kernel answers at once after it', async () => {
  const { reply, iopub } = await kernel.execute('GET /deep/_search');
  expect(reply.content.status).toBe('ok');
  const [answer, note] = plainTexts(iopub);
  expect(answer).toContain('[[[[[[');
  expect(note).toBe(
    'The answer nests arrays and objects deeper than 1000 levels, more than searchbook reads as JSON, so it is shown as the text it came as. Ask the engine for only the parts you need.'
  );
  const info = await kernel.request('shell', 'kernel_info_request', {}, 5_000);
  expect(info.content.status).toBe('ok');
  expect((await kernel.execute('GET /gzip/_search')).reply.content.status).toBe(
    'ok'
  );
});

it('an answer cut off after its status says so, and does not send the user after an https:// address', async () => {
  const { reply, iopub } = await kernel.execute('GET /cut/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Connection failed'
  });
  const text = `${errorOf(reply).evalue}\n${plainTexts(iopub).join('\n')}`;
  expect(text).toMatch(
    /answered 200 and then closed the connection before the whole answer came after 19 bytes of it/
  );
  expect(text).not.toMatch(/https:\/\//);
  expect(displays(iopub).some(d => HITS_MIME in d)).toBe(false);
});
