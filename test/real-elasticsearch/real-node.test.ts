/**
 * The real Elasticsearch and OpenSearch nodes the suite starts from Maven Central's jars: each
 * answers as its version does, gives test indices one shard and no replicas, and the secured
 * ones refuse requests without credentials the way a secured Elasticsearch does; the HTTPS one
 * is trusted through its own CA file only. Where 9.x or OpenSearch answer unlike 8.19,
 * test/support/real-node-differences.ts says so.
 */
import {
  REAL_FLAVOURS,
  REAL_FLAVOUR_IDS
} from '../support/real-elasticsearch/flavours';
import { java21Missing } from '../support/real-elasticsearch/jvm';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import { answerFor } from '../support/real-node-differences';

const realTierSkipped = elasticsearchTargets().find(
  t => t.engine === 'real'
)?.skipped;

for (const flavour of REAL_FLAVOUR_IDS) {
  const skipped = realTierSkipped ?? java21Missing(flavour);
  const title = `real node ${flavour}`;
  (skipped ? describe.skip : describe)(
    skipped ? `${title} (skipped: ${skipped})` : title,
    () => realNodeSuite(flavour)
  );
}

function realNodeSuite(flavour: (typeof REAL_FLAVOUR_IDS)[number]): void {
  const spec = REAL_FLAVOURS[flavour];
  const target = { flavour };
  let node: RealNodeAddress;
  let headers: Record<string, string>;
  beforeAll(async () => {
    // The parameterised suites' nodes: this file only adds and removes an index of its own.
    node = await suitesNode(flavour);
    headers = { ...authHeaders(node), 'content-type': 'application/json' };
  }, REAL_START_TIMEOUT_MS);

  it('GET / names its version, build and Lucene as that release does, with the product header', async () => {
    const res = await fetchFromNode(node, '/', { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-elastic-product')).toBe(
      answerFor(target, 'no-product-header', {
        asEight: 'Elasticsearch',
        otherwise: null
      })
    );
    const root = (await res.json()) as {
      version: Record<string, unknown>;
      tagline: string;
      cluster_uuid: string;
    };
    const opensearch = answerFor(target, 'opensearch-names-itself', {
      asEight: false,
      otherwise: true
    });
    expect(root.tagline).toBe(
      opensearch
        ? 'The OpenSearch Project: https://opensearch.org/'
        : 'You Know, for Search'
    );
    expect(root.version['distribution']).toBe(
      opensearch ? 'opensearch' : undefined
    );
    expect(root.version['build_flavor']).toBe(
      opensearch ? undefined : 'default'
    );
    expect(root.version['number']).toBe(spec.version);
    expect(root.version['build_type']).toBe('tar');
    expect(root.version['build_hash']).toMatch(/^[0-9a-f]{40}$/);
    expect(root.version['lucene_version']).toBe(spec.lucene);
    expect(root.cluster_uuid).toMatch(/^[\w-]{22}$/);
  });

  it('a new index gets one shard and no replicas, so the cluster stays green', async () => {
    const index = `real-node-defaults-${Date.now()}`;
    expect(
      (await fetchFromNode(node, `/${index}`, { method: 'PUT', headers }))
        .status
    ).toBe(200);
    const settings = (await (
      await fetchFromNode(node, `/${index}/_settings`, { headers })
    ).json()) as Record<
      string,
      { settings: { index: Record<string, string> } }
    >;
    expect(settings[index]?.settings.index['number_of_shards']).toBe('1');
    expect(settings[index]?.settings.index['number_of_replicas']).toBe('0');
    const health = (await (
      await fetchFromNode(
        node,
        `/_cluster/health/${index}?wait_for_status=green&timeout=10s`,
        { headers }
      )
    ).json()) as { status: string };
    expect(health.status).toBe('green');
    await fetchFromNode(node, `/${index}`, { method: 'DELETE', headers });
  });

  if (spec.security && spec.product !== 'opensearch') {
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

  if (spec.security && spec.product === 'opensearch') {
    it("without credentials: the security plugin's 401, Basic only (OpenSearch has no API keys)", async () => {
      const res = await fetchFromNode(node, '/_cluster/health');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'Basic realm="OpenSearch Security"'
      );
      expect(res.headers.get('x-elastic-product')).toBeNull();
    });
  }

  if (spec.tls) {
    it('serves HTTPS with a certificate only its own CA file vouches for; plain HTTP gets no answer', async () => {
      expect(node.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      await expect(fetch(`${node.url}/`, { headers })).rejects.toMatchObject({
        cause: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }
      });
      await expect(
        fetch(`${node.url.replace('https:', 'http:')}/`, { headers })
      ).rejects.toThrow();
    });
  }
}
