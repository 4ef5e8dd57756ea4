/**
 * A real Elasticsearch 9.5.3 node (plain and secured), started on a JDK 21+ found beside the
 * default Java: it answers `GET /` as 9.5.3 does, compresses with native zstd, refuses requests
 * without credentials when secured, and a user's first session works through the kernel:
 * `%connect`, create an index, load documents, search, read the hits grid.
 */
import { randomUUID } from 'node:crypto';
import { SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import { KernelClient } from '../support/kernel-client';
import { REAL_FLAVOURS } from '../support/real-elasticsearch/flavours';
import { java21Missing } from '../support/real-elasticsearch/jvm';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import { expectLampsFound, indexThreeProducts, runCell } from './console-smoke';

const FLAVOURS = ['es-9.5', 'es-9.5-security'] as const;
const realTierSkipped = elasticsearchTargets().find(
  t => t.engine === 'real'
)?.skipped;

for (const flavour of FLAVOURS) {
  const spec = REAL_FLAVOURS[flavour];
  const skipped = realTierSkipped ?? java21Missing(flavour);
  const title = `real Elasticsearch ${spec.version}${spec.security ? ' (security on)' : ''}`;
  const describeNode = skipped ? describe.skip : describe;

  describeNode(skipped ? `${title} (skipped: ${skipped})` : title, () => {
    const index = `smoke-${randomUUID().slice(0, 8)}`;
    let node: RealNodeAddress;
    let headers: Record<string, string>;
    let kernel: KernelClient;

    beforeAll(async () => {
      node = await suitesNode(flavour);
      headers = { ...authHeaders(node), 'content-type': 'application/json' };
      kernel = await KernelClient.start({ ...SECRETS });
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (node) {
        for (const name of [index, `${index}-zstd`]) {
          await fetchFromNode(node, `/${name}`, { method: 'DELETE', headers });
        }
      }
    });

    it('GET / names 9.5.3 and Lucene 10.5.1, with the product header', async () => {
      const res = await fetchFromNode(node, '/', { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-elastic-product')).toBe('Elasticsearch');
      const root = (await res.json()) as {
        version: Record<string, unknown>;
        tagline: string;
      };
      expect(root.version).toMatchObject({
        number: '9.5.3',
        lucene_version: spec.lucene,
        build_flavor: 'default',
        build_type: 'tar',
        minimum_wire_compatibility_version: '8.19.0'
      });
      expect(root.tagline).toBe('You Know, for Search');
    });

    it('a best_compression index takes writes and stays green (zstd is loaded natively)', async () => {
      const zstd = `${index}-zstd`;
      const created = await fetchFromNode(node, `/${zstd}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          settings: { 'index.codec': 'best_compression' }
        })
      });
      expect(created.status).toBe(200);
      const written = await fetchFromNode(
        node,
        `/${zstd}/_doc/1?refresh=true`,
        { method: 'PUT', headers, body: JSON.stringify({ note: 'compressed' }) }
      );
      expect(written.status).toBe(201);
      const health = (await (
        await fetchFromNode(
          node,
          `/_cluster/health/${zstd}?wait_for_status=green&timeout=10s`,
          { headers }
        )
      ).json()) as { status: string };
      expect(health.status).toBe('green');
      const found = (await (
        await fetchFromNode(node, `/${zstd}/_doc/1`, { headers })
      ).json()) as { _source: unknown };
      expect(found._source).toEqual({ note: 'compressed' });
    });

    if (spec.security) {
      it('without credentials: 401 with both challenges and without the product header', async () => {
        const res = await fetchFromNode(node, '/_cluster/health');
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(
          /Basic realm="security"/
        );
        expect(res.headers.get('www-authenticate')).toMatch(/ApiKey/);
        expect(res.headers.get('x-elastic-product')).toBeNull();
      });
    }

    it('%connect through the kernel names Elasticsearch 9.5.3', async () => {
      const credentials = spec.security
        ? 'user=elastic password=${env:ES_PASSWORD}'
        : 'auth=none';
      const connected = await runCell(
        kernel,
        `%connect elasticsearch ${node.url} ${credentials}`
      );
      expect(connected.status).toBe('ok');
      expect(connected.text).toContain(
        `Connected to Elasticsearch 9.5.3 at ${node.url}`
      );
      expect(connected.text).not.toContain('not a supported version');
    });

    it('what 9.x removed is refused before sending, with the 9.x way to write it; the node would answer 400', async () => {
      const knn = await runCell(
        kernel,
        `POST /${index}/_knn_search\n{"knn": {"field": "v", "query_vector": [1, 2], "k": 1, "num_candidates": 5}}`
      );
      expect(knn.status).toBe('error');
      expect(knn.text).toContain('RemovedEndpointRefused');
      expect(knn.text).toContain(`POST /${index}/_search with {\\"knn\\"`);
      const local = await runCell(kernel, 'GET /_alias?local=true');
      expect(local.status).toBe('error');
      expect(local.text).toContain('Leave local out of the query string');
      // What the node says to the same requests sent as written.
      const sent = await fetchFromNode(node, '/_alias?local=true', { headers });
      expect(sent.status).toBe(400);
      expect(await sent.text()).toContain('unrecognized parameter: [local]');
      const plain = await runCell(kernel, 'GET /_alias');
      expect(plain.status).toBe('ok');
    });

    it('documents indexed in cells are found by a search, and the hits grid shows them with their mapped columns', async () => {
      await indexThreeProducts(kernel, index);
      await expectLampsFound(kernel, index, 'lamp');
    });
  });
}
