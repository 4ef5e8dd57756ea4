/**
 * `auth=aws-sigv4` in front of a real OpenSearch 2.19.1 node: a loopback stand-in for an Amazon
 * OpenSearch Service domain (service `es`) and one for an OpenSearch Serverless collection
 * (service `aoss`, no `GET /`) check every request's signature themselves
 * (test/support/sigv4-verifying-proxy.ts) and pass it to the node. Through the kernel: the
 * connect line, the panel's grid to its last block on OpenSearch's point in time, and
 * `%export`, every request signed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import {
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import {
  startVerifyingProxy,
  type VerifyingProxy
} from '../support/sigv4-verifying-proxy';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { runCell } from './console-smoke';
import { scratchDir } from '../support/scratch-dir';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNode = skipped ? describe.skip : describe;
const TITLE = 'OpenSearch 2.19.1 behind AWS Signature Version 4';

const DOCS = 1_200;
const BLOCK = 100;
const KEY_ID = 'AKIAREALNODETEST0042';
const SECRET_KEY = 'rEaL/node+secret0123456789abcdefghijKLMN';
const SESSION_TOKEN = 'IQoJrealNodeSessionToken//+==';

describeNode(skipped ? `${TITLE} (skipped: ${skipped})` : TITLE, () => {
  const index = `os-aws-${randomUUID().slice(0, 8)}`;
  const dir = scratchDir('searchbook-opensearch-aws-');
  let node: RealNodeAddress;
  let domain: VerifyingProxy;
  let collection: VerifyingProxy;
  let kernel: KernelClient;
  let comm: PanelCommClient;

  beforeAll(async () => {
    node = await suitesNode('opensearch-2.19');
    const made = await fetchFromNode(node, `/${index}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        settings: { number_of_shards: 2, number_of_replicas: 0 },
        mappings: { properties: { n: { type: 'long' } } }
      })
    });
    expect(made.ok).toBe(true);
    const lines = Array.from(
      { length: DOCS },
      (_, n) =>
        `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify({ n, name: `doc ${n}` })}\n`
    );
    const loaded = await fetchFromNode(node, `/${index}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('')
    });
    expect(loaded.ok).toBe(true);
    const keys = { [KEY_ID]: SECRET_KEY };
    [domain, collection] = await Promise.all([
      startVerifyingProxy(node.url, {
        keys,
        region: 'eu-west-1',
        service: 'es'
      }),
      startVerifyingProxy(node.url, {
        keys,
        region: 'us-east-2',
        service: 'aoss',
        noRootInfo: true
      })
    ]);
    ({ kernel, comm } = await kernelWithPanelComm(
      [],
      {
        HOME: dir,
        AWS_ACCESS_KEY_ID: KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_KEY,
        AWS_SESSION_TOKEN: SESSION_TOKEN,
        AWS_PROFILE: '',
        AWS_REGION: '',
        AWS_DEFAULT_REGION: '',
        AWS_SHARED_CREDENTIALS_FILE: '',
        AWS_CONFIG_FILE: ''
      },
      { cwd: dir }
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    await domain?.close();
    await collection?.close();
    if (node) {
      await fetchFromNode(node, `/${index}`, { method: 'DELETE' });
    }
  });

  it.each([
    {
      name: 'domain',
      line: 'region=eu-west-1',
      proxy: () => domain,
      connected: 'Connected to OpenSearch 2.19.1 at'
    },
    {
      name: 'serverless',
      line: 'region=us-east-2 service=aoss',
      proxy: () => collection,
      connected: 'Connected to OpenSearch Serverless at'
    }
  ])(
    '$name: connects, reads the grid to its last block and exports every document, each request signed',
    async ({ name, line, proxy, connected }) => {
      const signed = proxy();
      signed.seen.length = 0;
      const opened = await runCell(
        kernel,
        `%connect opensearch ${signed.url} auth=aws-sigv4 ${line} name=${name}`
      );
      expect(opened.text).toContain(connected);
      expect(opened.text).not.toContain('Warning');

      const grid = await comm.expect(
        { type: 'open', connection: name, target: index, blockSize: BLOCK },
        'opened'
      );
      const last = await comm.expect(
        { type: 'read', gridId: grid.gridId, block: DOCS / BLOCK - 1 },
        'block'
      );
      expect(last.block.rows).toHaveLength(BLOCK);
      await comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');

      const exported = await runCell(kernel, `%export ${index} ${name}.jsonl`);
      expect(exported.text).toContain(
        `Exported ${DOCS.toLocaleString('en-US')} documents`
      );
      expect(
        readFileSync(join(dir, `${name}.jsonl`), 'utf8')
          .split('\n')
          .filter(Boolean)
      ).toHaveLength(DOCS);

      const { seen } = signed;
      expect(seen.map(r => r.failure)).toEqual(seen.map(() => undefined));
      expect(
        seen.some(
          r => r.method === 'POST' && r.url.includes('/_search/point_in_time')
        )
      ).toBe(true);
      expect(seen.some(r => r.url === '/')).toBe(name === 'domain');
      for (const request of seen) {
        expect(request.headers['x-amz-security-token']).toBe(SESSION_TOKEN);
      }
      const said = JSON.stringify(kernel.iopubMessages());
      expect(said.includes(SECRET_KEY) || said.includes(SESSION_TOKEN)).toBe(
        false
      );
    }
  );
});
