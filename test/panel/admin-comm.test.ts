/**
 * The side panel's administration over the wire (kernel process, ZeroMQ, sandbox engines over
 * HTTP): what each connection offers, Typesense keys listed, added (the value given once and
 * found in no other message, output or log line), deleted and refused, the Typesense dashboard
 * with figures an older server does not send, and the Elasticsearch cluster overview (against
 * the sandbox and the real nodes alike).
 */
import {
  constants,
  generateKeyPairSync,
  privateDecrypt,
  randomUUID
} from 'node:crypto';
import { z } from 'zod';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import type { Metric, MetricsSnapshot } from '../../contracts/admin-protocol';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { KernelClient } from '../support/kernel-client';
import { PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

const SEARCH_ONLY_KEY = 'ts-search-only-key-4e8a';

let kernel: KernelClient;
let comm: PanelCommClient;
let servers: ListeningServer[] = [];
let tsUrl = '';

async function typesense(
  path: string,
  init: RequestInit = {}
): Promise<Response> {
  return fetch(`${tsUrl}${path}`, {
    ...init,
    headers: {
      'x-typesense-api-key': SECRETS.TS_API_KEY,
      'content-type': 'application/json',
      ...(init.headers ?? {})
    }
  });
}

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('books', { properties: { title: { type: 'text' } } }, [
    { id: '1', source: { title: 'Dune' } }
  ]);
  const ts29 = createTypesenseSandbox({
    version: '29.0',
    apiKey: SECRETS.TS_API_KEY
  });
  const ts26 = createTypesenseSandbox({
    version: '26.0',
    apiKey: SECRETS.TS_API_KEY
  });
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts29.handler, { port: 0 }),
    await listen(ts26.handler, { port: 0 })
  ];
  tsUrl = servers[1]?.url ?? '';
  const created = await typesense('/keys', {
    method: 'POST',
    body: JSON.stringify({
      description: 'search only',
      actions: ['documents:search'],
      collections: ['*'],
      value: SEARCH_ONLY_KEY
    })
  });
  expect(created.status).toBe(201);
  ({ kernel, comm } = await kernelWithPanelComm(
    [
      `%connect elasticsearch ${servers[0]?.url} name=es`,
      `%connect typesense ${servers[1]?.url} key=\${env:TS_API_KEY} name=ts`,
      `%connect typesense ${servers[2]?.url} key=\${env:TS_API_KEY} name=ts26`,
      `%connect typesense ${servers[1]?.url} key=\${env:TS_SEARCH_KEY} name=searcher`
    ],
    { ...SECRETS, TS_SEARCH_KEY: SEARCH_ONLY_KEY }
  ));
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await Promise.all(servers.map(s => s.close()));
});

const byId = (snapshot: MetricsSnapshot, id: string): Metric => {
  const found = snapshot.groups
    .flatMap(g => g.metrics)
    .find(m => m.id === id || m.id.endsWith(`:${id}`));
  if (!found) {
    throw new Error(`no figure ${id} in ${JSON.stringify(snapshot.groups)}`);
  }
  return found;
};

describe('offers', () => {
  it('offers keys and a server dashboard on Typesense, a cluster overview on Elasticsearch', async () => {
    const ts = await comm.expect(
      { type: 'offers', connection: 'ts' },
      'offers'
    );
    expect(ts.offers.keys?.title).toBe('Keys');
    expect(ts.offers.keys?.immutableNote).toMatch(/cannot be edited/);
    expect(ts.offers.keys?.actionChoices.map(c => c.actions)).toContainEqual([
      'documents:search'
    ]);
    expect(ts.offers.metrics).toEqual({
      title: 'Server dashboard',
      refreshMs: 2000
    });
    const es = await comm.expect(
      { type: 'offers', connection: 'es' },
      'offers'
    );
    expect(es.offers.keys).toBeUndefined();
    expect(es.offers.metrics?.title).toBe('Cluster overview');
  });

  it('refuses key requests on a connection without keys, naming it', async () => {
    const reply = await comm.call({ type: 'keys', connection: 'es' });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/"es" has no API keys/)
    });
  });
});

describe('Typesense keys', () => {
  it('lists keys with their prefix, scope and expiry, never their value', async () => {
    const { keys } = await comm.expect(
      { type: 'keys', connection: 'ts' },
      'keys'
    );
    const searchOnly = keys.find(k => k.description === 'search only');
    expect(searchOnly).toEqual({
      id: expect.any(String),
      description: 'search only',
      actions: ['documents:search'],
      collections: ['*'],
      valuePrefix: SEARCH_ONLY_KEY.slice(0, 4),
      expiresAt: null
    });
    expect(JSON.stringify(keys)).not.toContain(SEARCH_ONLY_KEY);
  });

  it('adds a key sealed for the panel: the value crosses no message in clear, and opens with the panel’s private key', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048
    });
    const sealWith = publicKey
      .export({ format: 'der', type: 'spki' })
      .toString('base64');
    const added = await comm.expect(
      {
        type: 'addKey',
        connection: 'ts',
        key: {
          description: 'sealed reader',
          actions: ['documents:search'],
          collections: ['*']
        },
        sealWith
      },
      'keyAdded'
    );
    expect(added.value).toBeUndefined();
    const value = privateDecrypt(
      {
        key: privateKey,
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256'
      },
      Buffer.from(added.sealed ?? '', 'base64')
    ).toString('utf8');
    expect(added.key.valuePrefix).toBe(value.slice(0, 4));
    expect(
      (
        await fetch(`${tsUrl}/collections/books/documents/search?q=*`, {
          headers: { 'x-typesense-api-key': value }
        })
      ).status
    ).not.toBe(401);
    expect(
      kernel.iopubMessages().filter(m => JSON.stringify(m).includes(value))
    ).toEqual([]);
    expect(kernel.stderr).not.toContain(value);
  });

  it('refuses a seal that is not an RSA public key before creating the key', async () => {
    const before = (
      await comm.expect({ type: 'keys', connection: 'ts' }, 'keys')
    ).keys.length;
    const reply = await comm.call({
      type: 'addKey',
      connection: 'ts',
      key: { description: 'unsealable', actions: ['*'], collections: ['*'] },
      sealWith: 'bm90IGEga2V5'
    });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringContaining('No key was created')
    });
    expect(
      (await comm.expect({ type: 'keys', connection: 'ts' }, 'keys')).keys
        .length
    ).toBe(before);
  });

  it('without a seal (a panel without Web Crypto), gives the value in the one reply and in no other message or log line', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    const added = await comm.expect(
      {
        type: 'addKey',
        connection: 'ts',
        key: {
          description: 'reader for books',
          actions: ['documents:search', 'documents:get'],
          collections: ['books'],
          expiresAt
        }
      },
      'keyAdded'
    );
    const value = added.value ?? '';
    expect(value.length).toBeGreaterThanOrEqual(16);
    expect(added.key).toMatchObject({
      description: 'reader for books',
      collections: ['books'],
      valuePrefix: value.slice(0, 4),
      expiresAt
    });
    // The value is a real key: the engine takes it for what it allows and refuses the rest.
    const search = await fetch(
      `${tsUrl}/collections/books/documents/search?q=*`,
      { headers: { 'x-typesense-api-key': value } }
    );
    expect(search.status).not.toBe(401);
    expect(
      (
        await fetch(`${tsUrl}/collections`, {
          headers: { 'x-typesense-api-key': value }
        })
      ).status
    ).toBe(401);

    // Listing afterwards and a console cell reading the keys show the prefix only.
    const { keys } = await comm.expect(
      { type: 'keys', connection: 'ts' },
      'keys'
    );
    expect(keys.find(k => k.id === added.key.id)?.valuePrefix).toBe(
      value.slice(0, 4)
    );
    const cell = await kernel.execute('%use ts\nGET /keys');
    expect(cell.reply.content.status).toBe('ok');
    expect(JSON.stringify(cell.iopub)).toContain('reader for books');

    // Exactly one message on iopub carries the value: the reply to the panel's request.
    const carrying = kernel
      .iopubMessages()
      .filter(m => JSON.stringify(m).includes(value));
    expect(
      carrying.map(m => [
        m.header.msg_type,
        'data' in m.content ? m.content.data.type : undefined
      ])
    ).toEqual([['comm_msg', 'keyAdded']]);
    expect(kernel.stderr).not.toContain(value);
  });

  it('refuses a key without actions before sending anything', async () => {
    const before = (
      await comm.expect({ type: 'keys', connection: 'ts' }, 'keys')
    ).keys.length;
    const reply = await comm.call({
      type: 'addKey',
      connection: 'ts',
      key: { description: 'nothing', actions: [], collections: ['*'] }
    });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Choose at least one action')
    });
    expect(
      (await comm.expect({ type: 'keys', connection: 'ts' }, 'keys')).keys
        .length
    ).toBe(before);
  });

  it('deletes a key, and says the engine no longer knows it when deleted twice', async () => {
    const added = await comm.expect(
      {
        type: 'addKey',
        connection: 'ts',
        key: { description: 'short-lived', actions: ['*'], collections: ['*'] }
      },
      'keyAdded'
    );
    await comm.expect(
      { type: 'deleteKey', connection: 'ts', id: added.key.id },
      'keyDeleted'
    );
    expect(added.value).toBeDefined();
    const { keys } = await comm.expect(
      { type: 'keys', connection: 'ts' },
      'keys'
    );
    expect(keys.map(k => k.id)).not.toContain(added.key.id);
    expect(
      (
        await fetch(`${tsUrl}/collections`, {
          headers: { 'x-typesense-api-key': added.value ?? '' }
        })
      ).status
    ).toBe(401);
    const again = await comm.call({
      type: 'deleteKey',
      connection: 'ts',
      id: added.key.id
    });
    expect(again).toMatchObject({
      type: 'error',
      status: 404,
      message: expect.stringContaining('Not found.')
    });
  });

  it('gives the engine’s reason to a key that may not list keys', async () => {
    const reply = await comm.call({ type: 'keys', connection: 'searcher' });
    expect(reply).toMatchObject({
      type: 'error',
      status: 401,
      message: expect.stringContaining(
        'Forbidden - a valid `x-typesense-api-key` header must be sent.'
      )
    });
    expect(JSON.stringify(reply)).not.toContain(SEARCH_ONLY_KEY);
    expect(kernel.stderr).not.toContain(SEARCH_ONLY_KEY);
  });
});

describe('Typesense dashboard', () => {
  it('reads metrics.json and stats.json into every figure of the dashboard', async () => {
    const { snapshot } = await comm.expect(
      { type: 'metrics', connection: 'ts' },
      'metrics'
    );
    expect(snapshot.title).toBe('Server dashboard');
    expect(
      snapshot.requests.map(r => `${r.method} ${r.path} ${r.status}`)
    ).toEqual(['GET /metrics.json 200', 'GET /stats.json 200']);
    for (const id of [
      'process-memory',
      'system-memory',
      'fragmentation',
      'disk',
      'requests',
      'search-latency',
      'write-latency',
      'pending-writes',
      'cache-hit-ratio'
    ]) {
      expect(typeof byId(snapshot, id).value).toBe('number');
    }
    expect(byId(snapshot, 'process-memory').value).toBeGreaterThan(0);
    expect(byId(snapshot, 'system-memory').total).toBeGreaterThan(
      byId(snapshot, 'system-memory').value ?? Infinity
    );
    expect(snapshot.notOffered.map(n => n.label)).toEqual([
      'Sessions',
      'Slow queries'
    ]);
  });

  it('leaves the cache hit ratio unreported (null, not 0) on a server before 29', async () => {
    const { snapshot } = await comm.expect(
      { type: 'metrics', connection: 'ts26' },
      'metrics'
    );
    expect(byId(snapshot, 'cache-hit-ratio').value).toBeNull();
    expect(byId(snapshot, 'requests').value).not.toBeNull();
  });

  it('answers a key without metrics rights with the engine’s reason', async () => {
    const reply = await comm.call({ type: 'metrics', connection: 'searcher' });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringContaining('/metrics.json')
    });
    expect((reply as { message: string }).message).toContain('Forbidden');
  });
});

const ClusterHealth = z.object({
  status: z.string(),
  number_of_nodes: z.number(),
  active_shards: z.number(),
  relocating_shards: z.number(),
  unassigned_shards: z.number()
});
const NodesStats = z.object({
  nodes: z.record(
    z.string(),
    z.object({
      name: z.string(),
      fs: z.object({ total: z.object({ total_in_bytes: z.number() }) })
    })
  )
});

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  'the cluster overview in the side panel',
  target => {
    // A real node is shared by the run's suites: an index of this run's own, and figures compared
    // with what the engine itself answers around the panel's reading.
    const BOOKS = `overview-books-${randomUUID().slice(0, 8)}`;
    let engine: RunningEsTarget;
    let esKernel: KernelClient;
    let overview: PanelCommClient;
    const engineJson = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${engine.url}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : {
              body: JSON.stringify(body),
              headers: { 'content-type': 'application/json' }
            })
      });
      expect(answer.status).toBeLessThan(300);
      return (await answer.json()) as unknown;
    };
    const health = async () =>
      ClusterHealth.parse(await engineJson('GET', '/_cluster/health'));
    const cell = async (code: string) =>
      expect(
        (await esKernel.execute(`%use es\n${code}`)).reply.content.status
      ).toBe('ok');

    beforeAll(async () => {
      engine = await target.start({ security: false });
      await engineJson('PUT', `/${BOOKS}/_doc/1?refresh=true`, {
        title: 'Dune'
      });
      esKernel = await KernelClient.start({ ...SECRETS });
      expect(
        (await esKernel.execute(`%connect elasticsearch ${engine.url} name=es`))
          .reply.content.status
      ).toBe('ok');
      overview = await PanelCommClient.open(esKernel);
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      await esKernel?.close();
      if (engine) {
        await fetch(`${engine.url}/${BOOKS}`, { method: 'DELETE' });
      }
      await engine?.close();
    });

    it('shows health, shards and per-node heap and disk as the engine reports them, and rates from the second reading on', async () => {
      // The node is shared: another suite's index (one made yellow on purpose, by the
      // differential suite) may come and go while the panel reads. So the panel's reading is
      // judged between two engine readings, taken again (at most five times) until the panel's
      // status and unassigned shards are those of either reading.
      const read = async () => {
        const before = await health();
        const shown = (
          await overview.expect(
            { type: 'metrics', connection: 'es' },
            'metrics'
          )
        ).snapshot;
        return { before, shown, after: await health() };
      };
      const agrees = ({
        before,
        shown,
        after
      }: Awaited<ReturnType<typeof read>>) =>
        [before, after].some(
          h =>
            byId(shown, 'status').text === h.status &&
            byId(shown, 'unassigned-shards').value === h.unassigned_shards
        );
      let reading = await read();
      for (let tries = 1; tries < 5 && !agrees(reading); tries++) {
        reading = await read();
      }
      const {
        before: engineBefore,
        shown: first,
        after: engineAfter
      } = reading;
      expect(first.title).toBe('Cluster overview');
      expect(first.requests.map(r => r.path)).toEqual([
        '/_cluster/health',
        '/_nodes/stats/jvm,fs,indices'
      ]);
      const status = [engineBefore, engineAfter].find(
        h => byId(first, 'status').text === h.status
      )?.status;
      expect(byId(first, 'status')).toMatchObject({
        text: status ?? engineAfter.status,
        tone: { green: 'good', yellow: 'warn', red: 'bad' }[
          status ?? engineAfter.status
        ]
      });
      expect(byId(first, 'nodes').value).toBe(1);
      // Other suites may add or drop indices on a shared node between the readings.
      const between = (
        id: string,
        key: 'active_shards' | 'unassigned_shards'
      ) => {
        const value = byId(first, id).value ?? -1;
        expect(value).toBeGreaterThanOrEqual(
          Math.min(engineBefore[key], engineAfter[key])
        );
        expect(value).toBeLessThanOrEqual(
          Math.max(engineBefore[key], engineAfter[key])
        );
      };
      between('active-shards', 'active_shards');
      between('unassigned-shards', 'unassigned_shards');
      expect(byId(first, 'active-shards').value).toBeGreaterThanOrEqual(1);
      expect(byId(first, 'relocating-shards').value).toBe(0);
      const [node] = Object.values(
        NodesStats.parse(await engineJson('GET', '/_nodes/stats/fs')).nodes
      );
      expect(first.groups[1]?.title).toBe(`Node ${node?.name}`);
      expect(byId(first, 'heap').value).toBeGreaterThan(0);
      expect(byId(first, 'heap').total).toBeGreaterThanOrEqual(
        byId(first, 'heap').value ?? Infinity
      );
      expect(byId(first, 'disk').total).toBe(node?.fs.total.total_in_bytes);
      expect(byId(first, 'search-rate')).toMatchObject({
        value: null,
        missing: expect.stringContaining('measuring')
      });
      expect(byId(first, 'indexing-rate')).toMatchObject({
        value: null,
        missing: expect.stringContaining('measuring')
      });

      for (let i = 0; i < 5; i++) {
        await cell(`GET /${BOOKS}/_search`);
      }
      await new Promise(r => setTimeout(r, 50));
      const second = (
        await overview.expect({ type: 'metrics', connection: 'es' }, 'metrics')
      ).snapshot;
      expect(byId(second, 'search-rate').value).toBeGreaterThan(0);
      // Nothing was indexed here; another suite may index on a shared real node.
      if (target.engine === 'sandbox') {
        expect(byId(second, 'indexing-rate').value).toBe(0);
      } else {
        expect(byId(second, 'indexing-rate').value).toBeGreaterThanOrEqual(0);
      }

      for (let i = 2; i < 5; i++) {
        await cell(`PUT /${BOOKS}/_doc/${i}\n{"title": "book ${i}"}`);
      }
      await new Promise(r => setTimeout(r, 50));
      const third = (
        await overview.expect({ type: 'metrics', connection: 'es' }, 'metrics')
      ).snapshot;
      expect(byId(third, 'indexing-rate').value).toBeGreaterThan(0);
    });
  }
);
