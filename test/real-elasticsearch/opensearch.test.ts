/**
 * Real OpenSearch 2.19.1 and 3.3.2 nodes (OpenSearch's own server and modules from Maven
 * Central, no security plugin): each answers `GET /` as OpenSearch does, and a user's first
 * session works through the kernel: `%connect`, create an index (English analysis: OpenSearch's
 * modules are all there), load documents, search, read the hits grid.
 *
 * What a console sees differently on 3.3.2 than on 2.19.1: GET / reports Lucene 10.3.1 (9.12.1
 * on 2.19.1) and a minimum wire compatibility of 2.19.0 (7.10.0 on 2.19.1: 3.x talks to 2.19
 * nodes only). The point in time API (POST /<index>/_search/point_in_time, pit_id,
 * DELETE /_search/point_in_time), `_id` sorts, error bodies (a missing index's
 * index_not_found_exception), the product's name in GET / and the absence of
 * X-Elastic-Product are the same on both. Searches score otherwise on 3.x (Lucene's BM25
 * without the (k1 + 1) factor: 2.19's scores divided by 2.2) and a search that only
 * aggregates says `"terminated_early": true`; the hits grid shows both as the node sends them.
 */
import { randomUUID } from 'node:crypto';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  opensearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import { KernelClient, okOf } from '../support/kernel-client';
import {
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import { REAL_FLAVOURS } from '../support/real-elasticsearch/flavours';
import { expectLampsFound, indexThreeProducts, runCell } from './console-smoke';

/** Where 3.x answers GET / otherwise than 2.19: the oldest version its nodes talk to. */
const WIRE_OF = {
  '2.19.1': { minimum_wire_compatibility_version: '7.10.0' },
  '3.3.2': { minimum_wire_compatibility_version: '2.19.0' }
} as const;

describeEachTarget(opensearchTargets(), 'a first session', target => {
  const index = `smoke-${randomUUID().slice(0, 8)}`;
  const flavour = target.flavour!;
  const { version, lucene } = REAL_FLAVOURS[flavour];
  const wire = WIRE_OF[version as keyof typeof WIRE_OF];
  let node: RealNodeAddress;
  let kernel: KernelClient;

  beforeAll(async () => {
    node = await suitesNode(flavour);
    kernel = await KernelClient.start({ ...SECRETS });
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    if (node) {
      await fetchFromNode(node, `/${index}`, { method: 'DELETE' });
    }
  });

  it(`GET / names the opensearch distribution ${version}, without Elastic's product header`, async () => {
    const res = await fetchFromNode(node, '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-elastic-product')).toBeNull();
    const root = (await res.json()) as {
      version: Record<string, unknown>;
      tagline: string;
    };
    expect(root.version).toMatchObject({
      distribution: 'opensearch',
      number: version,
      lucene_version: lucene,
      build_type: 'tar',
      ...wire
    });
    expect(root.tagline).toBe(
      'The OpenSearch Project: https://opensearch.org/'
    );
  });

  it(`%connect through the kernel connects and names version ${version}, without a warning`, async () => {
    const connected = await runCell(
      kernel,
      `%connect elasticsearch ${node.url} auth=none`
    );
    expect(connected.status).toBe('ok');
    expect(connected.text).toContain(
      `Connected to OpenSearch ${version} at ${node.url}`
    );
    expect(connected.text).not.toContain('Warning');
    expect(connected.text).not.toContain('Elasticsearch');
  });

  it('%connect opensearch is the same engine under the name its users write', async () => {
    const connected = await runCell(
      kernel,
      `%connect opensearch ${node.url} auth=none name=by-alias`
    );
    expect(connected.status).toBe('ok');
    expect(connected.text).toContain(
      `Connected to OpenSearch ${version} at ${node.url} as \\"by-alias\\"`
    );
  });

  it("a missing index is OpenSearch's 404, named so, with the node's own error body", async () => {
    const missing = await runCell(kernel, `GET /${index}-missing/_search`);
    expect(missing.status).toBe('error');
    expect(missing.text).toContain('OpenSearch answered 404');
    expect(missing.text).not.toContain('Elasticsearch answered');
    expect(missing.text).toContain('index_not_found_exception');
    expect(missing.text).toContain('index_or_alias');
  });

  it("completion offers OpenSearch's own endpoints, and none of Elastic's it does not serve", async () => {
    const complete = async (code: string) => {
      const reply = await kernel.request('shell', 'complete_request', {
        code,
        cursor_pos: [...code].length
      });
      return okOf(reply)['matches'] as string[];
    };
    expect(await complete('GET /_plugins/_')).toEqual(
      expect.arrayContaining([
        '/_plugins/_security',
        '/_plugins/_ism',
        '/_plugins/_knn'
      ])
    );
    expect(await complete(`POST /${index}/_search/p`)).toEqual([
      `/${index}/_search/point_in_time`
    ]);
    expect(await complete('GET /_s')).not.toContain('/_security');
    expect(await complete(`POST /${index}/_p`)).not.toContain(`/${index}/_pit`);
    // Shared REST API still completes.
    expect(await complete('GET /_cluster/he')).toEqual(['/_cluster/health']);
  });

  it('completion offers the shared API as Elasticsearch 7.10 served it: what Elasticsearch added later is left out, as the node has no handler for it', async () => {
    const complete = async (code: string) => {
      const reply = await kernel.request('shell', 'complete_request', {
        code,
        cursor_pos: [...code].length
      });
      return okOf(reply)['matches'] as string[];
    };
    // Resolve index came in 7.9, resolve cluster in 8.13.
    expect(await complete('GET /_resolve/')).toEqual(['/_resolve/index']);
    expect(await complete('POST /_data_stream/_mo')).toEqual([]);
    const cluster = await fetchFromNode(node, '/_resolve/cluster');
    expect(await cluster.text()).toContain(
      'no handler found for uri [/_resolve/cluster]'
    );
    const modify = await fetchFromNode(node, '/_data_stream/_modify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"actions": []}'
    });
    expect(modify.status).toBe(405);
    expect(await modify.text()).toContain(
      'Incorrect HTTP method for uri [/_data_stream/_modify] and method [POST]'
    );
    const resolved = await fetchFromNode(node, '/_resolve/index/*');
    expect(resolved.status).toBe(200);
  });

  it('inspecting an OpenSearch endpoint shows its description and documentation page', async () => {
    const code = 'DELETE /_search/point_in_time';
    const reply = await kernel.request('shell', 'inspect_request', {
      code,
      cursor_pos: 3,
      detail_level: 0
    });
    expect(reply.content).toMatchObject({ status: 'ok', found: true });
    const text = (okOf(reply)['data'] as Record<string, string>)['text/plain'];
    expect(text).toContain('DELETE /_search/point_in_time');
    expect(text).toContain(
      'Documentation: https://docs.opensearch.org/latest/search-plugins/searching-data/point-in-time-api/'
    );
  });

  it('documents indexed in cells are found by an English-analysed search, and the hits grid shows them with their mapped columns', async () => {
    await indexThreeProducts(kernel, index, 'english');
    // "lamps" finds "lamp" only through the english analyzer's stemming (analysis-common).
    await expectLampsFound(kernel, index, 'lamps');
  });
});
