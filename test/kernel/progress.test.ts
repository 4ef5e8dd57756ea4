/**
 * A request that takes a while says so in place, over ZeroMQ: after a second its output shows
 * what it waits for and for how long (display_data with a display_id, then update_display_data
 * each second), and the answer replaces it. `%connect` to a server that accepts and never
 * answers says what it waits for, then gives up after its bound with advice.
 */
import { createServer as createHttpServer } from 'node:http';
import {
  type AddressInfo,
  createServer,
  type Server,
  type Socket
} from 'node:net';
import {
  JSON_MIME,
  PROGRESS_MIME,
  ProgressPayloadSchema
} from '../../contracts/mime-types';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { type SlowEngine, startSlowEngine } from '../support/slow-engine';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(30_000);

let kernel: KernelClient;
let engine: SlowEngine;
let silent: Server;
let silentPort = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  silent = createServer(socket => void sockets.add(socket));
  await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
  const address = silent.address();
  silentPort = typeof address === 'object' && address ? address.port : 0;
  [kernel, engine] = await Promise.all([
    KernelClient.start(),
    startSlowEngine(2_600)
  ]);
});
afterAll(async () => {
  for (const socket of sockets) {
    socket.destroy();
  }
  await Promise.all([
    kernel?.close(),
    engine?.close(),
    new Promise(r => silent.close(r))
  ]);
});

const displayId = (m: IopubMessage) =>
  'transient' in m.content ? m.content.transient?.display_id : undefined;

it('a slow request shows its elapsed time in place, then the answer replaces it', async () => {
  expect(
    (
      await kernel.execute(
        `%connect elasticsearch ${engine.url} auth=none name=slow`
      )
    ).reply.content.status
  ).toBe('ok');
  const { reply, iopub } = await kernel.execute('GET /slow/_search');
  expect(reply.content.status).toBe('ok');
  const outputs = iopub.filter(
    m =>
      KernelMessage.isDisplayDataMsg(m) ||
      KernelMessage.isUpdateDisplayDataMsg(m)
  );
  const [first, ...updates] = outputs;
  expect(first?.header.msg_type).toBe('display_data');
  const id = first?.content.transient?.display_id;
  expect(id).toEqual(expect.any(String));
  const waiting = ProgressPayloadSchema.parse(
    first?.content.data[PROGRESS_MIME]
  );
  expect(waiting).toMatchObject({
    waitingFor: 'slow: GET /slow/_search',
    stoppable: true
  });
  expect(String(first?.content.data['text/plain'])).toMatch(
    /^slow: GET \/slow\/_search: 1 s \(interrupt the kernel/
  );
  // Every later output updates that one; the clock moves; the last is the answer.
  expect(updates.map(m => [m.header.msg_type, displayId(m)])).toEqual(
    updates.map(() => ['update_display_data', id])
  );
  const clock = updates
    .slice(0, -1)
    .map(
      m => ProgressPayloadSchema.parse(m.content.data[PROGRESS_MIME]).elapsedMs
    );
  expect(clock.length).toBeGreaterThanOrEqual(1);
  expect(clock[0] as number).toBeGreaterThan(waiting.elapsedMs);
  const answer = updates.at(-1)?.content.data;
  expect(answer?.[PROGRESS_MIME]).toBeUndefined();
  expect(
    answer?.[JSON_MIME] ?? answer?.['application/vnd.searchbook.hits+json']
  ).toBeDefined();
});

it('a quick request shows only its answer', async () => {
  const { iopub } = await kernel.execute('GET /');
  expect(
    iopub
      .filter(m => m.header.msg_type.endsWith('display_data'))
      .map(m => [m.header.msg_type, displayId(m)])
  ).toEqual([['display_data', undefined]]);
});

it('%connect to a server that accepts and never answers says what it waits for, then stops at its bound', async () => {
  const started = performance.now();
  const { reply, iopub } = await kernel.execute(
    `%connect elasticsearch http://127.0.0.1:${silentPort} auth=none timeout=2`
  );
  const took = performance.now() - started;
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Connection failed'
  });
  expect(errorOf(reply).evalue).toBe(
    `http://127.0.0.1:${silentPort} accepted the connection but did not answer within 2 s. Check that this is the engine's HTTP address and port (another service may accept connections without answering), or wait longer with timeout=<seconds>.`
  );
  const waiting = iopub.find(KernelMessage.isDisplayDataMsg);
  expect(
    ProgressPayloadSchema.parse(waiting?.content.data[PROGRESS_MIME]).waitingFor
  ).toBe(
    `Connecting to Elasticsearch at http://127.0.0.1:${silentPort}: waiting for its answer (at most 2 s)`
  );
  const last = iopub.filter(KernelMessage.isUpdateDisplayDataMsg).at(-1);
  expect(last?.content.data['text/plain']).toMatch(
    /waiting for its answer \(at most 2 s\): failed after 2\.\d s$/
  );
  expect(took).toBeLessThan(5_000);
});

it('a waiting line whose late answer is odd (JSON nested 100,000 deep) gives way to it and stops ticking', async () => {
  // An engine that answers after the waiting line has appeared, with JSON nested 100,000 deep.
  const deep = createHttpServer((req, res) => {
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (!req.url?.startsWith('/deep')) {
      return void res.end(
        JSON.stringify({
          name: 'deep',
          cluster_name: 'test',
          version: { number: '8.15.0' },
          tagline: 'You Know, for Search'
        })
      );
    }
    const timer = setTimeout(
      () =>
        res.end(
          `{"hits":{"hits":[{"_id":"1","_source":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]}}`
        ),
      1_500
    );
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>(r => deep.listen(0, '127.0.0.1', r));
  try {
    const { port } = deep.address() as AddressInfo;
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch http://127.0.0.1:${port} auth=none name=deep`
        )
      ).reply.content.status
    ).toBe('ok');
    const { reply, iopub } = await kernel.execute('GET /deep/_search');
    // Shown as the text it came as, with a note saying why (not an error of the kernel's own).
    expect(reply.content.status).toBe('ok');
    const waiting = iopub.find(KernelMessage.isDisplayDataMsg);
    const id = waiting?.content.transient?.display_id;
    expect(id).toEqual(expect.any(String));
    // Its last word, before the reply, is the answer, not the clock.
    const last = iopub
      .filter(KernelMessage.isUpdateDisplayDataMsg)
      .filter(m => m.content.transient.display_id === id)
      .at(-1);
    expect(last?.content.data[PROGRESS_MIME]).toBeUndefined();
    expect(last?.content.data['text/plain']).toMatch(
      /^deep: GET \/deep\/_search → 200 in \d/
    );
    // A later cell that waits itself for over two seconds sees no update of that line any more.
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch ${engine.url} auth=none name=slow`
        )
      ).reply.content.status
    ).toBe('ok');
    const later = await kernel.execute('GET /slow/_search');
    expect(
      later.iopub.some(m => m.header.msg_type === 'update_display_data')
    ).toBe(true);
    expect(kernel.iopubMessages().filter(m => displayId(m) === id).length).toBe(
      iopub.filter(m => displayId(m) === id).length
    );
  } finally {
    deep.closeAllConnections();
    await new Promise(r => deep.close(r));
  }
});
