/**
 * Secrets masked without leaking and without rewriting answers, over ZeroMQ against a loopback
 * engine that echoes what it is sent: a long secret an output cuts short (a plain table's
 * cell, a `%vars` preview) shows none of its first characters; the panel's grid rows and
 * grid errors are masked as cell outputs are; a secret that is also an ordinary value of
 * answers (`true`, `1000`, `name`, `products`) is not masked, `%connect` says so, and every
 * answer keeps its JSON, keys and values exactly.
 */
import type { ServerResponse } from 'node:http';
import { swapQuotes } from '../../contracts/answer-rows';
import {
  HITS_MIME,
  type HitsPayload,
  HitsPayloadSchema
} from '../../contracts/mime-types';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import type { KernelClient, IopubMessage } from '../support/kernel-client';
import {
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { KernelMessage } from '../support/kernel-messages';
import {
  COMPRESSED_ANSWER_FORMAT,
  swappedAnswerText
} from '../../contracts/answer-format';

jest.setTimeout(60_000);

/** Sixty characters, as an API token is: a plain table clips it after 39, an HTML one after 199. */
const LONG_SECRET =
  'tok-7Hq2Lx9Vb4Nw8Zr3Kd6Fp1Mc5Gs0Jt2Yh7Ue4Ra9Wi3Ox6Pl8Sn1Bv5Qe';
/** Secrets that are also ordinary values of the answer below. */
const PLAIN = { W_TRUE: 'true', W_NUM: '1000', W_NAME: 'name' };
const W_INDEX = 'products';
/** The first characters of a secret that count as shown. */
const PIECE = 8;

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};

/** Documents that store the secret, one after 50 other characters (a `%vars` preview cuts it). */
const ECHOED = JSON.stringify({
  took: 1,
  timed_out: false,
  hits: {
    total: { value: 2, relation: 'eq' },
    hits: [
      {
        _index: 'vault',
        _id: '1',
        _score: 1,
        _source: {
          note: LONG_SECRET,
          padded: `${'x'.repeat(50)}${LONG_SECRET}`
        }
      },
      {
        _index: 'vault',
        _id: '2',
        _score: 1,
        _source: { note: `${'y'.repeat(170)}${LONG_SECRET}` }
      }
    ]
  }
});

/** The same documents among 400 others: an answer over 64 KiB, which the notebook keeps compressed. */
const ECHOED_LARGE = JSON.stringify({
  ...(JSON.parse(ECHOED) as object),
  hits: {
    total: { value: 402, relation: 'eq' },
    hits: [
      ...(JSON.parse(ECHOED) as { hits: { hits: unknown[] } }).hits.hits,
      ...Array.from({ length: 400 }, (_, n) => ({
        _index: 'vault',
        _id: `filler-${n}`,
        _score: 1,
        _source: { note: `filler ${n} ${'z'.repeat(200)}` }
      }))
    ]
  }
});

const PLAIN_ANSWER = JSON.stringify({
  took: 1,
  timed_out: false,
  hits: {
    total: { value: 1000, relation: 'eq' },
    hits: [
      {
        _index: 'products',
        _id: '1000',
        _score: 1,
        _source: { name: 'name', in_stock: true, price: 1000 }
      }
    ]
  }
});

let engine: HostileEngine;
let kernel: KernelClient;
let comm: PanelCommClient;
let connected = '';

const POINT_IN_TIME = { id: 'pit-1' };

beforeAll(async () => {
  engine = await startHostileEngine({
    '/vault/_search': (_req, res) => json(res, 200, ECHOED),
    '/large-vault/_search': (_req, res) => json(res, 200, ECHOED_LARGE),
    '/products/_search': (_req, res) => json(res, 200, PLAIN_ANSWER),
    '/vault/_settings': (_req, res) =>
      json(res, 200, { vault: { settings: { index: {} } } }),
    '/vault/_mapping': (_req, res) =>
      json(res, 200, { vault: { mappings: { properties: {} } } }),
    '/vault/_pit': (_req, res) => json(res, 200, POINT_IN_TIME),
    '/_pit': (_req, res) => json(res, 200, { succeeded: true }),
    '/_search': (_req, res) => json(res, 200, ECHOED),
    '/broken/_settings': (_req, res) =>
      json(res, 400, {
        error: {
          type: 'illegal_argument_exception',
          reason: `token [${LONG_SECRET}] is not allowed here`
        },
        status: 400
      })
  });
  ({ kernel, comm } = await kernelWithPanelComm([], {
    LONG_SECRET,
    ...PLAIN,
    W_INDEX,
    ES_PW: 'true'
  }));
  const { iopub } = await kernel.execute(
    `%connect elasticsearch ${engine.url} user=elastic password=\${env:ES_PW} name=es`
  );
  connected = allText(iopub);
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

function allText(messages: IopubMessage[]): string {
  return messages.map(m => JSON.stringify(m)).join('\n');
}

/** No run of the secret's first PIECE characters, in any form JSON or HTML could write it. */
function expectNoPrefix(text: string): void {
  expect(text).not.toContain(LONG_SECRET.slice(0, PIECE));
}

it('a long secret cut short in a plain or HTML table cell shows none of its first characters', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /vault/_search?q=${env:LONG_SECRET}'
  );
  expect(reply.content.status).toBe('ok');
  const text = allText(iopub);
  expectNoPrefix(text);
  const data = iopub.find(KernelMessage.isDisplayDataMsg)?.content.data;
  // The table is still there, the cut cell says where the secret was.
  expect(String(data?.['text/plain'])).toContain('${env:LONG_SECRET}');
});

it('an answer over 64 KiB is masked before it is compressed: its notebook text holds the secret’s form, not the secret', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /large-vault/_search?q=${env:LONG_SECRET}'
  );
  expect(reply.content.status).toBe('ok');
  expectNoPrefix(allText(iopub));
  const payload = HitsPayloadSchema.parse(
    iopub.find(KernelMessage.isDisplayDataMsg)?.content.data[HITS_MIME]
  );
  expect(payload.answerFormat).toBe(COMPRESSED_ANSWER_FORMAT);
  const kept = swapQuotes(swappedAnswerText(payload) ?? '');
  expectNoPrefix(kept);
  const hits = (
    JSON.parse(kept) as { hits: { hits: { _source: { note: string } }[] } }
  ).hits.hits;
  expect(hits).toHaveLength(402);
  expect(hits[0]?._source.note).toBe('${env:LONG_SECRET}');
});

it('a %vars preview that cuts a secret short shows none of it', async () => {
  await kernel.execute('GET /vault/_search?q=${env:LONG_SECRET}');
  const set = await kernel.execute('%set padded = hits.hits[0]._source.padded');
  expect(set.reply.content.status).toBe('ok');
  const { iopub } = await kernel.execute('%vars');
  const text = allText(iopub);
  expect(text).toContain('padded');
  expectNoPrefix(text);
});

it('grid rows sent to the panel mask an echoed secret', async () => {
  await kernel.execute('GET /vault/_search?q=${env:LONG_SECRET}');
  const before = kernel.iopubMessages().length;
  const opened = expectReply(
    await comm.call({
      type: 'open',
      connection: 'es',
      target: 'vault',
      blockSize: 10
    }),
    'opened'
  );
  expect(opened.first.rows).toHaveLength(2);
  expect(JSON.stringify(opened.first.rows)).toContain('${env:LONG_SECRET}');
  expectNoPrefix(allText(kernel.iopubMessages().slice(before)));
});

it('a grid error that repeats a secret masks it', async () => {
  const reply = await comm.call({
    type: 'open',
    connection: 'es',
    target: 'broken',
    blockSize: 10
  });
  const error = expectReply(reply, 'error');
  expect(error.message).toContain('${env:LONG_SECRET}');
  expectNoPrefix(JSON.stringify(reply));
});

it('%connect says a password of one plain word is too plain to be masked', () => {
  expect(connected).toMatch(/Warning: the secret of password= is too short/);
});

it('secrets that are ordinary values of an answer leave it exactly as the engine sent it', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /${env:W_INDEX}/_search?q=${env:W_NAME}:${env:W_NUM}&track=${env:W_TRUE}'
  );
  expect(reply.content.status).toBe('ok');
  const data = iopub.find(KernelMessage.isDisplayDataMsg)?.content.data ?? {};
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  expect(JSON.parse(swapQuotes(swappedAnswerText(payload) ?? ''))).toEqual(
    JSON.parse(PLAIN_ANSWER)
  );
  expect(payload.columns.map(c => c.name)).toEqual([
    '_id',
    '_index',
    '_score',
    'name',
    'in_stock',
    'price'
  ]);
  expect(payload.total).toEqual({ value: 1000, relation: 'eq' });
  // The status line shows the request as the cell wrote it; the answer's values as they came.
  const [status, ...table] = String(data['text/plain']).split('\n');
  expect(status).toContain('(1000 total, 1 shown)');
  expect(table.join('\n')).not.toContain('${env:');
  expect(table.join('\n')).toMatch(/1000 +products +1 +name +true +1000/);
  expect(String(data['text/html']).split('</caption>')[1]).not.toContain(
    '${env:'
  );
});

/** What searchbook's Python magics say of each request: the answer as a buffer of the message. */
const AS_BUFFER = { searchbook: { answerAsBuffer: true } };

/** The answer's own JSON text, sent as a buffer of the display_data message, and its payload. */
function bufferedAnswer(iopub: IopubMessage[]): {
  text: string;
  payload: HitsPayload;
} {
  const output = iopub.find(KernelMessage.isDisplayDataMsg);
  const payload = HitsPayloadSchema.parse(output?.content.data[HITS_MIME]);
  expect(payload.answer).toBeUndefined();
  const at = payload.answerBuffer ?? -1;
  return {
    text: (output?.buffers?.[at] ?? Buffer.alloc(0)).toString(),
    payload
  };
}

it('an answer sent as a message buffer masks an echoed secret inside its strings, as the answer string is masked', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /vault/_search?q=${env:LONG_SECRET}',
    {},
    AS_BUFFER
  );
  expect(reply.content.status).toBe('ok');
  const { text } = bufferedAnswer(iopub);
  expectNoPrefix(text);
  expectNoPrefix(allText(iopub));
  const sent = JSON.parse(text) as {
    hits: { hits: { _source: Record<string, string> }[] };
  };
  const [first, second] = sent.hits.hits;
  expect(first?._source.note).toBe('${env:LONG_SECRET}');
  expect(first?._source.padded).toBe(`${'x'.repeat(50)}\${env:LONG_SECRET}`);
  expect(second?._source.note).toBe(`${'y'.repeat(170)}\${env:LONG_SECRET}`);
  // The same answer as the string a notebook keeps.
  const shown = await kernel.execute('GET /vault/_search?q=${env:LONG_SECRET}');
  const payload = HitsPayloadSchema.parse(
    shown.iopub.find(KernelMessage.isDisplayDataMsg)?.content.data[HITS_MIME]
  );
  expect(sent).toEqual(
    JSON.parse(swapQuotes(swappedAnswerText(payload) ?? ''))
  );
});

it("an answer sent as a message buffer holding no secret is the engine's own bytes", async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /${env:W_INDEX}/_search?q=${env:W_NAME}:${env:W_NUM}&track=${env:W_TRUE}',
    {},
    AS_BUFFER
  );
  expect(reply.content.status).toBe('ok');
  const { text, payload } = bufferedAnswer(iopub);
  expect(text).toBe(PLAIN_ANSWER);
  expect(payload.answerBuffer).toBe(0);
});
