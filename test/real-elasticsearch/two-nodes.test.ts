/**
 * Two real Elasticsearch 8.19 nodes of one cluster on loopback, connected with `hosts=` both,
 * and the node that answered killed mid-session: the next cell, the open grid's point-in-time
 * paging and %export are answered by the other node, with the same documents, and the cell
 * says which node answered.
 *
 * The cluster is a master-and-data node and a coordinating-only node (node.roles empty), the
 * coordinating one listed first so it answers until it is killed. Why this shape: of two
 * master-eligible nodes only one votes (Elasticsearch keeps the voting configuration odd,
 * https://www.elastic.co/docs/deploy-manage/distributed-architecture/discovery-cluster-formation/modules-discovery-voting),
 * so killing that one leaves the other without an elected master; and a data node killed
 * takes its shard copies and their search contexts with it. With one master-eligible data
 * node that stays and a coordinating node that dies, what dies is exactly the node the kernel
 * talked to, which is what a client's connection pool has to survive. A point in time lives in
 * the cluster: any node can carry on a search with its id.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import type { KernelClient, IopubMessage } from '../support/kernel-client';
import { buildLaunchers } from '../support/real-elasticsearch/build';
import {
  fetchFromNode,
  launchRealNode,
  stopRealNode
} from '../support/real-elasticsearch/launch';
import {
  PARENT_PID_ENV,
  runDir
} from '../support/real-elasticsearch/run-nodes';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS
} from '../support/elasticsearch-targets';
import { KernelMessage } from '../support/kernel-messages';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeReal = skipped ? describe.skip : describe;

const DOCS = 60;
const BLOCK = 10;
const WINDOW = 25;

type Node = Awaited<ReturnType<typeof launchRealNode>>;

/** What a cell showed as text, its error included. */
const plain = (iopub: IopubMessage[]) =>
  iopub
    .filter(
      m =>
        KernelMessage.isDisplayDataMsg(m) ||
        KernelMessage.isExecuteResultMsg(m) ||
        KernelMessage.isErrorMsg(m)
    )
    .map(m =>
      KernelMessage.isErrorMsg(m)
        ? m.content.evalue
        : String(m.content.data['text/plain'])
    )
    .join('\n');
const hostOf = (node: Node) => node.url.replace('http://', '');
const escaped = (text: string) => text.replace(/[.()]/g, '\\$&');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeReal('two real Elasticsearch 8.19 nodes of one cluster', () => {
  let master: Node;
  let coordinating: Node;
  let kernel: KernelClient;
  let comm: PanelCommClient;
  let cwd: string;

  beforeAll(async () => {
    const build = await buildLaunchers();
    if (!build.built) {
      throw new Error(build.reason);
    }
    const home = mkdtempSync(join(runDir(), 'two-nodes-'));
    const parentPid = Number(process.env[PARENT_PID_ENV] ?? process.pid);
    master = await launchRealNode('es-8.19', {
      home: join(home, 'master'),
      parentPid,
      clientCompilerOnly: true,
      cluster: {
        nodeName: 'master-data',
        roles: ['master', 'data'],
        seedTransportPorts: [],
        initialMaster: 'master-data'
      }
    });
    coordinating = await launchRealNode('es-8.19', {
      home: join(home, 'coordinating'),
      parentPid,
      clientCompilerOnly: true,
      cluster: {
        nodeName: 'coordinating',
        roles: [],
        seedTransportPorts: [master.transportPort]
      }
    });
    const headers = { 'content-type': 'application/json' };
    const created = await fetchFromNode(master, '/items', {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        settings: {
          number_of_shards: 1,
          number_of_replicas: 0,
          max_result_window: WINDOW
        },
        mappings: { properties: { n: { type: 'long' } } }
      })
    });
    expect(created.status).toBe(200);
    const bulk = await fetchFromNode(master, '/items/_bulk?refresh=true', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: Array.from(
        { length: DOCS },
        (_, n) =>
          `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify({ n })}\n`
      ).join('')
    });
    expect(bulk.status).toBe(200);
    // Both nodes are one cluster: the coordinating node sees the master's node and index.
    const nodes = (await (
      await fetchFromNode(coordinating, '/_cat/nodes?h=name&format=json')
    ).json()) as { name: string }[];
    expect(nodes.map(n => n.name).sort()).toEqual([
      'coordinating',
      'master-data'
    ]);
    // The one that is killed holds no shard: a coordinating-only node ("-" for no role).
    const roles = (await (
      await fetchFromNode(master, '/_cat/nodes?h=name,node.role&format=json')
    ).json()) as { name: string; 'node.role': string }[];
    expect(roles.find(n => n.name === 'coordinating')?.['node.role']).toBe('-');
    cwd = join(home, 'notebook');
    mkdirSync(cwd);
    ({ kernel, comm } = await kernelWithPanelComm(
      [
        `%connect elasticsearch hosts=${hostOf(coordinating)},${hostOf(master)} auth=none name=cluster`
      ],
      {},
      { cwd }
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    await Promise.all(
      [coordinating, master]
        .filter(node => node !== undefined)
        .map(node => stopRealNode(node.pid))
    );
  }, 60_000);

  it('goes on answering from the other node once the node that answered is killed', async () => {
    const before = await kernel.execute('GET /_nodes/_local/name');
    expect(before.reply.content.status).toBe('ok');
    expect(plain(before.iopub)).not.toContain('answered by');
    // The node that answered is the coordinating one, listed first.
    expect(plain(before.iopub)).toContain('coordinating');
    expect(plain(before.iopub)).not.toContain('master-data');

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
    const rowsOf = (block: number) =>
      Array.from({ length: BLOCK }, (_, i) => block * BLOCK + i);
    // Block 2 ends past max_result_window: the grid reads it through a point in time.
    expect((await read(2)).rows.map(r => r.n)).toEqual(rowsOf(2));

    process.kill(coordinating.pid, 'SIGKILL');
    for (let i = 0; i < 200 && alive(coordinating.pid); i++) {
      await new Promise(r => setTimeout(r, 50));
    }
    expect(alive(coordinating.pid)).toBe(false);

    const after = await kernel.execute('GET /_nodes/_local/name');
    expect(after.reply.content.status).toBe('ok');
    expect(plain(after.iopub)).toMatch(
      new RegExp(
        `answered by ${escaped(hostOf(master))} \\(${escaped(hostOf(coordinating))} did not answer: ECONNREFUSED`
      )
    );
    expect(plain(after.iopub)).toContain('master-data');

    const count = await kernel.execute('GET /items/_count');
    // The text first: when the count fails, the failure shows what the cell said.
    expect(plain(count.iopub)).toMatch(/"count": 60\b/);
    expect(count.reply.content.status).toBe('ok');

    // The point in time opened through the killed node carries on through the other one.
    expect((await read(4)).rows.map(r => r.n)).toEqual(rowsOf(4));

    const exported = await kernel.execute('%export items items.jsonl');
    expect(exported.reply.content.status).toBe('ok');
    const numbers = readFileSync(join(cwd, 'items.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(line => (JSON.parse(line) as { _source: { n: number } })._source.n)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: DOCS }, (_, n) => n));
  }, 60_000);
});
