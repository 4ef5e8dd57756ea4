/**
 * REST compatibility on real nodes, through the kernel over ZeroMQ: with `compat=8` a 9.5.3
 * node serves the 8.x requests 9.x removed (the kNN search endpoint, `local` on alias reads),
 * and with `compat=7` an 8.19 node serves a 7.x typed search; `compat=7` is refused on connect
 * to 9.5.3, which itself answers `compatible-with=7` with 400 media_type_header_exception.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import { KernelClient } from '../support/kernel-client';
import { java21Missing } from '../support/real-elasticsearch/jvm';
import {
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import type { RealFlavourId } from '../support/real-elasticsearch/flavours';
import { PanelCommClient } from '../panel/panel-comm-client';
import { runCell } from './console-smoke';
import { scratchDir } from '../support/scratch-dir';

const run = promisify(execFile);

const realTierSkipped = elasticsearchTargets().find(
  t => t.engine === 'real'
)?.skipped;

function describeOn(
  flavour: RealFlavourId,
  title: string,
  body: (node: () => RealNodeAddress, kernel: () => KernelClient) => void
): void {
  const skipped = realTierSkipped ?? java21Missing(flavour);
  const describeNode = skipped ? describe.skip : describe;
  describeNode(skipped ? `${title} (skipped: ${skipped})` : title, () => {
    let node: RealNodeAddress;
    let kernel: KernelClient;
    beforeAll(async () => {
      node = await suitesNode(flavour);
      kernel = await KernelClient.start({ ...SECRETS });
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      await kernel?.close();
    });
    body(
      () => node,
      () => kernel
    );
  });
}

describeOn(
  'es-9.5',
  'REST compatibility on real Elasticsearch 9.5.3',
  (node, kernel) => {
    const index = `compat-${randomUUID().slice(0, 8)}`;
    afterAll(async () => {
      await fetchFromNode(node(), `/${index}`, { method: 'DELETE' });
    });

    it('compat=8: the kNN search endpoint and local on alias reads, which 9.x removed, are served as 8.x served them', async () => {
      const connected = await runCell(
        kernel(),
        `%connect elasticsearch ${node().url} auth=none compat=8`
      );
      expect(connected.status).toBe('ok');
      expect(connected.text).toContain('Connected to Elasticsearch 9.5.3');
      const created = await runCell(
        kernel(),
        `PUT /${index}\n{"settings": {"number_of_shards": 1, "number_of_replicas": 0}, "mappings": {"properties": {"v": {"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}, "title": {"type": "keyword"}}}}`
      );
      expect(created.status).toBe('ok');
      const loaded = await runCell(
        kernel(),
        `POST /${index}/_bulk?refresh=true\n{"index": {"_id": "1"}}\n{"v": [1, 2], "title": "near"}\n{"index": {"_id": "2"}}\n{"v": [9, 9], "title": "far"}`
      );
      expect(loaded.status).toBe('ok');
      expect(loaded.text).toContain('"errors":false');

      const knn = await runCell(
        kernel(),
        `POST /${index}/_knn_search\n{"knn": {"field": "v", "query_vector": [1, 2], "k": 1, "num_candidates": 2}, "_source": ["title"]}`
      );
      expect(knn.status).toBe('ok');
      expect(knn.hits?.rows.map(row => [row['_id'], row['title']])).toEqual([
        ['1', 'near']
      ]);
      const local = await runCell(kernel(), 'GET /_alias?local=true');
      expect(local.status).toBe('ok');

      // The cell's Copy as curl sends the same media types, so the node answers it the same.
      const comm = await PanelCommClient.open(kernel());
      const copied = await comm.expect(
        {
          type: 'curl',
          cell: `POST /${index}/_knn_search\n{"knn": {"field": "v", "query_vector": [1, 2], "k": 1, "num_candidates": 2}, "_source": ["title"]}`
        },
        'curl'
      );
      const [command] = copied.commands;
      expect(command).toContain(
        "-H 'Accept: application/vnd.elasticsearch+json; compatible-with=8'"
      );
      const { stdout } = await run('bash', ['-c', command ?? ''], {
        env: { PATH: process.env.PATH ?? '' }
      });
      const answer = JSON.parse(stdout) as {
        hits: { hits: { _id: string }[] };
      };
      expect(answer.hits.hits.map(hit => hit._id)).toEqual(['1']);

      // Exports read through a point in time with the same media types, vectors kept.
      const file = join(scratchDir('compat-export-'), 'out.jsonl');
      const exported = await runCell(kernel(), `%export ${index} ${file}`);
      expect(exported.status).toBe('ok');
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map(line => JSON.parse(line) as { _id: string; _source: unknown });
      expect(lines.map(line => [line._id, line._source]).sort()).toEqual([
        ['1', { v: [1, 2], title: 'near' }],
        ['2', { v: [9, 9], title: 'far' }]
      ]);
    });

    it('compat=7 is refused on connect; the node itself answers compatible-with=7 with 400', async () => {
      const refused = await runCell(
        kernel(),
        `%connect elasticsearch ${node().url} auth=none compat=7`
      );
      expect(refused.status).toBe('error');
      expect(refused.text).toContain(
        'compat=7: Elasticsearch 9.5.3 serves requests written for 9.x and 8.x, not for 7.x'
      );
      const asked = await fetchFromNode(node(), '/', {
        headers: {
          accept: 'application/vnd.elasticsearch+json; compatible-with=7'
        }
      });
      expect(asked.status).toBe(400);
      expect(await asked.text()).toContain(
        'Accept version must be either version 9 or 8, but found 7'
      );
    });
  }
);

describeOn(
  'es-8.19',
  'REST compatibility on real Elasticsearch 8.19',
  (node, kernel) => {
    const index = `compat-${randomUUID().slice(0, 8)}`;
    afterAll(async () => {
      await fetchFromNode(node(), `/${index}`, { method: 'DELETE' });
    });

    it('compat=7: a 7.x typed search is served (without it, 8.19 reads it as a document read and refuses its body)', async () => {
      const plain = await runCell(
        kernel(),
        `%connect elasticsearch ${node().url} auth=none`
      );
      expect(plain.status).toBe('ok');
      const loaded = await runCell(
        kernel(),
        `POST /${index}/_bulk?refresh=true\n{"index": {"_id": "1"}}\n{"title": "lamp"}`
      );
      expect(loaded.status).toBe('ok');
      const typed = `GET /${index}/_doc/_search\n{"query": {"match_all": {}}}`;
      const asDocument = await runCell(kernel(), typed);
      expect(asDocument.status).toBe('error');
      expect(asDocument.text).toContain(
        `request [GET /${index}/_doc/_search] does not support having a body`
      );

      const connected = await runCell(
        kernel(),
        `%connect elasticsearch ${node().url} auth=none compat=7`
      );
      expect(connected.status).toBe('ok');
      const search = await runCell(kernel(), typed);
      expect(search.status).toBe('ok');
      expect(search.hits?.rows.map(row => [row['_id'], row['title']])).toEqual([
        ['1', 'lamp']
      ]);
    });
  }
);
