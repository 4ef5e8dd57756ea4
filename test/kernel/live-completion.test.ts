/**
 * Completion of live names over the wire: the kernel process, real ZeroMQ sockets, and the
 * sandbox engines and real Elasticsearch nodes over HTTP. After `%connect`, Tab offers the cluster's index and alias names,
 * Typesense collection and alias names, and field names from the cached mapping or schema inside a
 * JSON body; an engine that does not answer never hangs completion.
 */
import { createServer, type Server } from 'node:http';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { KernelClient, okOf } from '../support/kernel-client';

let kernel: KernelClient;
let sandbox: RunningSandbox;

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

async function run(code: string): Promise<void> {
  const { reply } = await kernel.execute(code);
  expect(reply.content).toMatchObject({ status: 'ok' });
}

/** Completes at the end of `code`, as a frontend does on Tab. */
async function complete(code: string): Promise<string[]> {
  const reply = await kernel.request('shell', 'complete_request', {
    code,
    cursor_pos: [...code].length
  });
  expect(reply.content.status).toBe('ok');
  return okOf(reply).matches as string[];
}

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'completion', target => {
  let engine: RunningEsTarget;
  beforeAll(async () => {
    engine = await target.start({ security: target.canSecure });
    await run(
      `%connect elasticsearch ${engine.url} ${target.canSecure ? 'user=elastic password=${env:ES_PASSWORD}' : 'auth=none'}`
    );
  }, REAL_START_TIMEOUT_MS);
  afterAll(async () => {
    // A real node is shared by the run: remove what this suite created.
    await kernel.execute('DELETE /fresh');
    await engine?.close();
  });

  it('index and alias names in the path', async () => {
    expect(await complete('GET /')).toEqual(
      expect.arrayContaining(['/products', '/catalog'])
    );
    expect(await complete('GET /cat')).toEqual(['/catalog']);
    expect(await complete('POST /pro')).toEqual(['/products']);
  });

  it('field names from the mapping inside a body: objects, nested leaves and keyword subfields', async () => {
    const fields = await complete(
      'GET /catalog/_search\n{"query": {"match": {"'
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        'name',
        'name.keyword',
        'address.city',
        'address.country',
        'variants',
        'variants.sku',
        'variants.price'
      ])
    );
    expect(
      await complete(
        'GET /products/_search\n{"aggs": {"b": {"terms": {"field": "bra'
      )
    ).toEqual(['brand', 'brand.keyword']);
  });

  it('an index a cell creates is completed at once, with its fields', async () => {
    await run(
      'PUT /fresh\n{"mappings": {"properties": {"colour": {"type": "keyword"}}}}'
    );
    expect(await complete('GET /fr')).toEqual(['/fresh']);
    expect(await complete('GET /fresh/_search\n{"sort": ["col')).toEqual([
      'colour'
    ]);
  });
});

describe('Typesense', () => {
  beforeAll(() =>
    run(`%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`)
  );

  it('collection names in the path', async () => {
    expect(await complete('GET /collections/')).toEqual(
      expect.arrayContaining(['/collections/books', '/collections/notes'])
    );
    expect(await complete('GET /collections/bo')).toEqual([
      '/collections/books'
    ]);
  });

  it('field names from the schema inside a multi_search body', async () => {
    expect(
      await complete(
        'POST /multi_search\n{"searches": [{"collection": "books", "q": "x", "query_by": "title,au'
      )
    ).toEqual(['author']);
    expect(
      await complete(
        'POST /multi_search\n{"searches": [{"collection": "books", "sort_by": "me'
      )
    ).toEqual(['meta', 'meta.pages', 'meta.publisher']);
  });

  it("an alias a cell creates is offered with the collections, and completes its collection's fields", async () => {
    await run('PUT /aliases/library\n{"collection_name": "books"}');
    expect(await complete('GET /collections/li')).toEqual([
      '/collections/library'
    ]);
    expect(
      await complete(
        'POST /multi_search\n{"searches": [{"collection": "library", "q": "x", "query_by": "title,au'
      )
    ).toEqual(['author']);
  });
});

describe('an engine that does not answer', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    // Answers GET / as Elasticsearch 8 does, so %connect succeeds; holds every other request open.
    server = createServer((req, res) => {
      if (req.url !== '/') {
        return;
      }
      res.setHeader('x-elastic-product', 'Elasticsearch');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: 'hang',
          cluster_name: 'hang',
          version: { number: '8.15.0' },
          tagline: 'You Know, for Search'
        })
      );
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    await run(`%connect elasticsearch ${url} auth=none name=hang`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
  });

  it('completes without names within the look-up time limit instead of hanging', async () => {
    const started = Date.now();
    const names = await complete('GET /pro');
    expect(names).toEqual([]);
    const fields = await complete(
      'GET /products/_search\n{"query": {"match": {"'
    );
    expect(fields).toEqual([]);
    // Two look-ups of at most 2 s each.
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});
