/**
 * A connection to two nodes of one cluster, over ZeroMQ: one Elasticsearch sandbox (one
 * cluster state) served on two loopback ports. %connect lists both nodes; cells, the panel's
 * grid (its point in time opened through the first node) and %export keep working once the
 * first node stops, each answer saying which node gave it; with both stopped, the cell's error
 * names each node and why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import type { KernelClient, IopubMessage } from '../support/kernel-client';
import {
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { scratchDir } from '../support/scratch-dir';
import { errorOf } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(60_000);

const DOCS = 60;
const BLOCK = 10;
let first: ListeningServer;
let second: ListeningServer;
let kernel: KernelClient;
let comm: PanelCommClient;
let cwd: string;
let config: string;
let connected: IopubMessage[];

const plain = (iopub: IopubMessage[]) =>
  iopub
    .filter(
      m =>
        KernelMessage.isDisplayDataMsg(m) || KernelMessage.isExecuteResultMsg(m)
    )
    .map(m => String(m.content.data['text/plain']))
    .join('\n');
const host = (s: ListeningServer) => `127.0.0.1:${s.port}`;
const stopped = new Set<ListeningServer>();
/** Stops a node (its port then refuses connections), once. */
const stop = async (node: ListeningServer | undefined) => {
  if (node && !stopped.has(node)) {
    stopped.add(node);
    await node.close();
  }
};

beforeAll(async () => {
  const cluster = createElasticsearchSandbox({
    version: '8.19.0',
    security: false,
    password: 'unused'
  });
  // Past 25 rows the grid pages through a point in time, which lives in the cluster, not a node.
  cluster.loadIndex(
    'items',
    { properties: { n: { type: 'long' } } },
    Array.from({ length: DOCS }, (_, n) => ({ id: `d${n}`, source: { n } })),
    { 'index.max_result_window': '25' }
  );
  first = await listen(cluster.handler, { port: 0 });
  second = await listen(cluster.handler, { port: 0 });
  cwd = scratchDir('searchbook-nodes-');
  config = join(cwd, 'config');
  ({ kernel, comm } = await kernelWithPanelComm(
    [],
    { JUPYTER_CONFIG_DIR: config },
    { cwd }
  ));
  const result = await kernel.execute(
    `%connect elasticsearch hosts=${host(first)},${host(second)} auth=none --save cluster`
  );
  expect(result.reply.content.status).toBe('ok');
  connected = result.iopub;
});
afterAll(async () => {
  await kernel?.close();
  await Promise.all([stop(first), stop(second)]);
});

it('%connect, %connections and the saved profile list the nodes', async () => {
  expect(plain(connected)).toContain(
    `Nodes: ${host(first)}, ${host(second)}. Requests go to the first that answers;`
  );
  const listed = await kernel.execute('%connections');
  expect(plain(listed.iopub)).toContain(`${host(first)}, ${host(second)}`);
  const saved = JSON.parse(
    readFileSync(join(config, 'searchbook', 'profiles.json'), 'utf8')
  ) as { profiles: Record<string, unknown>[] };
  expect(saved.profiles).toEqual([
    expect.objectContaining({
      name: 'cluster',
      host: '127.0.0.1',
      port: first.port,
      hosts: [host(first), host(second)]
    })
  ]);
});

it('keeps answering cells, the grid and %export from the second node once the first stops', async () => {
  const before = await kernel.execute('GET /items/_search?size=1');
  expect(before.reply.content.status).toBe('ok');
  expect(plain(before.iopub)).not.toContain('answered by');

  const opened = expectReply(
    await comm.call({
      type: 'open',
      connection: 'cluster',
      target: 'items',
      blockSize: BLOCK
    }),
    'opened'
  );
  const read = async (block: number) =>
    expectReply(
      await comm.call({ type: 'read', gridId: opened.gridId, block }),
      'block'
    ).block;
  expect((await read(1)).rows.map(r => r.n)).toEqual(
    Array.from({ length: BLOCK }, (_, i) => BLOCK + i)
  );

  await stop(first);

  const after = await kernel.execute('GET /items/_search?size=1');
  expect(after.reply.content.status).toBe('ok');
  expect(plain(after.iopub)).toMatch(
    new RegExp(
      `answered by ${host(second).replace(/\./g, '\\.')} \\(${host(first).replace(/\./g, '\\.')} did not answer: ECONNREFUSED`
    )
  );

  // Copy as curl names the node that answers now.
  const curl = expectReply(
    await comm.call({ type: 'curl', cell: 'GET /items/_search' }),
    'curl'
  );
  expect(curl.commands).toEqual([
    expect.stringContaining(`http://${host(second)}/items/_search`)
  ]);

  // Rows 40-49 are past max_result_window: read through the point in time opened before.
  expect((await read(4)).rows.map(r => r.n)).toEqual(
    Array.from({ length: BLOCK }, (_, i) => 4 * BLOCK + i)
  );

  const exported = await kernel.execute('%export items items.jsonl');
  expect(exported.reply.content.status).toBe('ok');
  const lines = readFileSync(join(cwd, 'items.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  expect(lines).toHaveLength(DOCS);

  // Connecting again (the saved profile) while the first node is down says which node answered.
  const reconnected = await kernel.execute('%connect cluster');
  expect(reconnected.reply.content.status).toBe('ok');
  expect(plain(reconnected.iopub)).toContain(
    `It was answered by ${host(second)} (${host(first)} did not answer: ECONNREFUSED`
  );
});

it('names each node and why when none answers', async () => {
  await stop(second);
  const { reply } = await kernel.execute('GET /items/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Connection failed'
  });
  const message = errorOf(reply).evalue;
  expect(message).toContain('no node of connection cluster answered:');
  // Each line names its node's address; the head names the connection once.
  expect(message).toContain(
    `- ${host(first)}: nothing accepts connections at http://${host(first)} (ECONNREFUSED`
  );
  expect(message).toContain(
    `- ${host(second)}: nothing accepts connections at http://${host(second)} (ECONNREFUSED`
  );
  // The saved profile tries both nodes too.
  const again = await kernel.execute('%connect cluster');
  expect(again.reply.content.status).toBe('error');
  expect(errorOf(again.reply).evalue).toMatch(
    new RegExp(
      `no node of connection cluster answered:\\n- ${host(first).replace(/\./g, '\\.')}: .*\\n- ${host(second).replace(/\./g, '\\.')}: `
    )
  );
});
