/**
 * A hostile engine answering a grid's search with far more hits than the block asked for (over
 * ZeroMQ, the panel comm against a loopback server): the grid shows the block it asked for,
 * never a JavaScript error, and the kernel goes on answering.
 */
import type { ServerResponse } from 'node:http';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import type { KernelClient } from '../support/kernel-client';
import {
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from './panel-comm-client';

jest.setTimeout(60_000);

const BLOCK = 10_000;
/** Twenty times the block: one `push(...hits)` of this many arguments overflows the stack. */
const ANSWERED = 204_000;

let engine: HostileEngine;
let kernel: KernelClient;
let comm: PanelCommClient;

const json = (res: ServerResponse, value: unknown) => {
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};

/** Every search answered with ANSWERED hits, whatever size it named. */
function tooManyHits(): string {
  const hits = Array.from(
    { length: ANSWERED },
    (_, n) =>
      `{"_id":"d${n}","_index":"many","_source":{"n":${n}},"sort":[${n}]}`
  );
  return `{"pit_id":"pit-1","hits":{"total":{"value":${ANSWERED},"relation":"eq"},"hits":[${hits.join(',')}]}}`;
}

beforeAll(async () => {
  const answer = tooManyHits();
  engine = await startHostileEngine({
    '/many/_settings': (_req, res) =>
      json(res, { many: { settings: { index: { number_of_shards: '1' } } } }),
    '/many/_mapping': (_req, res) =>
      json(res, {
        many: { mappings: { properties: { n: { type: 'long' } } } }
      }),
    '/many/_pit': (_req, res) => json(res, { id: 'pit-1' }),
    '/_pit': (_req, res) => json(res, { succeeded: true, num_freed: 1 }),
    '/_search': (_req, res) => json(res, answer),
    '/many/_search': (_req, res) => json(res, answer)
  });
  ({ kernel, comm } = await kernelWithPanelComm([
    `%connect elasticsearch ${engine.url} name=es`
  ]));
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

it('shows the block it asked for when the engine answers twenty times as many hits', async () => {
  const reply = await comm.call({
    type: 'open',
    connection: 'es',
    target: 'many',
    blockSize: BLOCK
  });
  const opened = expectReply(reply, 'opened');
  expect(opened.first.rows).toHaveLength(BLOCK);
  expect(opened.first.rows.map(r => r.n)).toEqual(
    Array.from({ length: BLOCK }, (_, n) => n)
  );
  const { reply: after } = await kernel.execute('%vars');
  expect(after.content.status).toBe('ok');
});
