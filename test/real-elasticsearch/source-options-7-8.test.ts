/**
 * Real Elasticsearch 7.17 and 8.19 nodes, which keep vectors in `_source` and refuse (7.17) or
 * ignore (8.19) the 9.x vector options: the kernel's grids and exports send none of them, and
 * an export body's `_source` is sent as written.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { scratchDir } from '../support/scratch-dir';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNodes = skipped ? describe.skip : describe;

describeNodes.each(['es-7.17', 'es-8.19'] as const)(
  'source options on real %s',
  flavour => {
    const index = `source-${randomUUID().slice(0, 8)}`;
    const cwd = scratchDir('searchbook-source-');
    let node: RealNodeAddress;
    let headers: Record<string, string>;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    beforeAll(async () => {
      node = await suitesNode(flavour);
      headers = { ...authHeaders(node), 'content-type': 'application/json' };
      const bulk = [1, 2, 3]
        .map(
          i =>
            `${JSON.stringify({ index: { _index: index, _id: `d${i}` } })}\n${JSON.stringify({ title: `doc ${i}`, n: i })}\n`
        )
        .join('');
      const loaded = await fetchFromNode(node, '/_bulk?refresh=true', {
        method: 'POST',
        headers,
        body: bulk
      });
      expect(loaded.status).toBe(200);
      ({ kernel, comm } = await kernelWithPanelComm(
        [`%connect elasticsearch ${node.url} auth=none name=es`],
        { ...SECRETS },
        { cwd }
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (node) {
        await fetchFromNode(node, `/${index}`, { method: 'DELETE', headers });
      }
    });

    it('the grid reads its rows without any vector option', async () => {
      const grid = await comm.expect(
        { type: 'open', connection: 'es', target: index, blockSize: 50 },
        'opened'
      );
      expect(grid.first.rows).toHaveLength(3);
      expect(grid.request.cell).not.toContain('exclude_vectors');
    });

    it('an export body with "_source" beside its query is sent as written', async () => {
      const { reply } = await kernel.execute(
        `%export ${index} titles.jsonl\n{"query": {"range": {"n": {"gte": 2}}}, "_source": ["title"]}`
      );
      expect(reply.content['status']).toBe('ok');
      const sources = readFileSync(join(cwd, 'titles.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(l => (JSON.parse(l) as { _source: unknown })._source);
      expect(sources.map(source => JSON.stringify(source)).sort()).toEqual([
        '{"title":"doc 2"}',
        '{"title":"doc 3"}'
      ]);
    });

    it('fields= and a body "_source" together are refused before anything is sent', async () => {
      const { reply } = await kernel.execute(
        `%export ${index} both.jsonl fields=title\n{"_source": ["n"]}`
      );
      expect(reply.content).toMatchObject({
        status: 'error',
        evalue: expect.stringContaining(
          'fields= and the body\'s "_source" both choose the fields: write one of them. Nothing was sent.'
        )
      });
    });
  }
);
