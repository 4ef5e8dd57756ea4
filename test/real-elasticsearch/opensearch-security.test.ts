/**
 * A real OpenSearch 2.19.1 node secured by OpenSearch's security plugin (its zip from Maven
 * Central): HTTP Basic against the plugin's internal user database, over HTTPS with a CA
 * generated for the node. Two users: `admin` (all_access) and `reader` (reads every index,
 * writes none). What the node answers, and what searchbook makes of it through the kernel:
 * `%connect` as admin names OpenSearch; a wrong password or none gets the plugin's 401 told in
 * OpenSearch's terms (HTTP Basic, no API keys); the reader's write gets the 403 naming the
 * missing permission; the panel's grid opens, pages and edits; `%export` writes every document.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { GridReply } from '../../contracts/panel-protocol';
import { expectNoSecret, SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import { type KernelClient, okOf } from '../support/kernel-client';
import { OPENSEARCH_READER_PASSWORD } from '../support/real-elasticsearch/flavours';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { runCell } from './console-smoke';
import { scratchDir } from '../support/scratch-dir';

const skipped = elasticsearchTargets().find(t => t.engine === 'real')?.skipped;
const describeNode = skipped ? describe.skip : describe;
const TITLE = "OpenSearch 2.19.1 with its security plugin's HTTP Basic";

const DOCS = 250;
const BLOCK = 100;
/** Set in the kernel's environment only: `password=${env:OS_READER_PASSWORD}`. */
const READER_ENV = { OS_READER_PASSWORD: OPENSEARCH_READER_PASSWORD };
const expectNoPassword = (text: string) =>
  expectNoSecret(text, [
    OPENSEARCH_READER_PASSWORD,
    Buffer.from(`admin:${SECRETS.ES_PASSWORD}`).toString('base64'),
    Buffer.from(`reader:${OPENSEARCH_READER_PASSWORD}`).toString('base64')
  ]);

type Opened = Extract<GridReply, { type: 'opened' }>;

describeNode(skipped ? `${TITLE} (skipped: ${skipped})` : TITLE, () => {
  const index = `os-sec-${randomUUID().slice(0, 8)}`;
  const dir = scratchDir('searchbook-opensearch-security-');
  let node: RealNodeAddress;
  let admin: Record<string, string>;
  let kernel: KernelClient;
  let comm: PanelCommClient;
  /** `%connect` arguments naming the node over HTTPS, trusting its own CA. */
  let tls = '';

  const basic = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
  });
  const open = (connection: string, view?: Record<string, unknown>) =>
    comm.call({
      type: 'open',
      connection,
      target: index,
      blockSize: BLOCK,
      ...(view ? { view } : {})
    });
  const opened = async (connection: string, view?: Record<string, unknown>) => {
    const reply = await open(connection, view);
    if (reply.type !== 'opened') {
      throw new Error(`expected opened, got ${JSON.stringify(reply)}`);
    }
    return reply;
  };
  const close = (grid: Opened) =>
    comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');

  beforeAll(async () => {
    node = await suitesNode('opensearch-2.19-security');
    admin = { ...authHeaders(node), 'content-type': 'application/json' };
    tls = `ssl=verify-identity ca=${node.caFile}`;
    const created = await fetchFromNode(node, `/${index}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({
        mappings: {
          properties: { n: { type: 'long' }, name: { type: 'keyword' } }
        }
      })
    });
    expect(created.status).toBe(200);
    const lines = Array.from(
      { length: DOCS },
      (_, n) =>
        `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify({ n, name: `doc ${n}` })}\n`
    );
    const loaded = await fetchFromNode(node, `/${index}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-ndjson' },
      body: lines.join('')
    });
    expect(loaded.status).toBe(200);
    ({ kernel, comm } = await kernelWithPanelComm(
      [
        `%connect elasticsearch ${node.url} ${tls} user=admin password=\${env:ES_PASSWORD} name=admin`,
        `%connect opensearch ${node.url} ${tls} user=reader password=\${env:OS_READER_PASSWORD} name=reader`,
        '%use admin'
      ],
      { ...SECRETS, ...READER_ENV },
      { cwd: dir }
    ));
  }, REAL_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    if (node) {
      await fetchFromNode(node, `/${index}`, {
        method: 'DELETE',
        headers: admin
      });
    }
  });

  describe('what the node answers', () => {
    it("without credentials, or with a wrong password: 401 'Unauthorized' as plain text, challenging for Basic in the plugin's realm", async () => {
      for (const headers of [{}, basic('admin', SECRETS.WRONG)]) {
        const res = await fetchFromNode(node, '/_cluster/health', { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(
          'Basic realm="OpenSearch Security"'
        );
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(res.headers.get('x-elastic-product')).toBeNull();
        expect(await res.text()).toBe('Unauthorized');
      }
    });

    it('authinfo names the authenticated user and the roles the mapping gave it', async () => {
      const Info = z
        .object({
          user_name: z.string(),
          backend_roles: z.array(z.string()),
          roles: z.array(z.string())
        })
        .loose();
      const asAdmin = Info.parse(
        await (
          await fetchFromNode(node, '/_plugins/_security/authinfo', {
            headers: admin
          })
        ).json()
      );
      expect(asAdmin).toMatchObject({
        user_name: 'admin',
        backend_roles: ['admin'],
        roles: ['all_access']
      });
      const asReader = Info.parse(
        await (
          await fetchFromNode(node, '/_plugins/_security/authinfo', {
            headers: basic('reader', OPENSEARCH_READER_PASSWORD)
          })
        ).json()
      );
      expect(asReader).toMatchObject({
        user_name: 'reader',
        roles: ['searchbook_reader']
      });
    });

    it("a write without the permission: 403 security_exception naming the action and the user; Elastic's API key endpoints do not exist", async () => {
      const res = await fetchFromNode(node, `/${index}/_doc/x`, {
        method: 'PUT',
        headers: {
          ...basic('reader', OPENSEARCH_READER_PASSWORD),
          'content-type': 'application/json'
        },
        body: JSON.stringify({ n: -1 })
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        error: {
          type: 'security_exception',
          reason:
            'no permissions for [indices:data/write/index] and User [name=reader, backend_roles=[], requestedTenant=null]'
        },
        status: 403
      });
      const keys = await fetchFromNode(node, '/_security/api_key', {
        headers: admin
      });
      expect(keys.status).toBe(400);
      expect(await keys.text()).toContain(
        'no handler found for uri [/_security/api_key]'
      );
    });
  });

  describe('%connect', () => {
    it('with user=admin and the password from the environment: connected to OpenSearch 2.19.1 over HTTPS, no warning', async () => {
      const run = await runCell(
        kernel,
        `%connect elasticsearch ${node.url} ${tls} user=admin password=\${env:ES_PASSWORD} name=again`
      );
      expect(run.status).toBe('ok');
      expect(run.text).toContain(
        `Connected to OpenSearch 2.19.1 at ${node.url} as \\"again\\"`
      );
      expect(run.text).not.toContain('Warning');
      expectNoPassword(run.text);
      const listed = await comm.expect({ type: 'connections' }, 'connections');
      expect(listed.connections.find(c => c.name === 'again')).toMatchObject({
        product: 'OpenSearch',
        version: '2.19.1'
      });
      await runCell(kernel, '%use admin');
    });

    it('a wrong password: the 401 is told as OpenSearch security refusing the user and password, with no word of API keys', async () => {
      const run = await runCell(
        kernel,
        `%connect elasticsearch ${node.url} ${tls} user=admin password=\${env:WRONG} name=wrong`
      );
      expect(run.status).toBe('error');
      expect(run.text).toContain('"ename":"Authentication failed"');
      expect(run.text).toContain(
        "OpenSearch's security plugin answered 401 Unauthorized: it refused the user and password, or none were sent. Connect with user=<name> password=${env:NAME}"
      );
      expect(run.text).not.toContain('API key');
      expect(run.text).not.toContain('no reason given');
      expectNoPassword(run.text);
    });

    it('no credentials, or an API key (which OpenSearch does not take): the same 401, told the same way', async () => {
      for (const credentials of ['auth=none', 'auth=apikey key=${env:WRONG}']) {
        const run = await runCell(
          kernel,
          `%connect elasticsearch ${node.url} ${tls} ${credentials} name=anonymous`
        );
        expect(run.status).toBe('error');
        expect(run.text).toContain(
          "OpenSearch's security plugin answered 401 Unauthorized: it refused the user and password, or none were sent. Connect with user=<name> password=${env:NAME}"
        );
        // The error itself (the cell's own line, echoed, writes auth=apikey).
        const error = z
          .tuple([z.object({ evalue: z.string() }).loose()])
          .rest(z.unknown())
          .parse(JSON.parse(run.text))[0].evalue;
        expect(error).not.toContain('apikey');
        expect(error).not.toContain('API key');
        expectNoPassword(run.text);
      }
    });
  });

  describe('cells', () => {
    it("the reader's write fails with the 403 naming the missing permission, and advice in OpenSearch's terms", async () => {
      await runCell(kernel, '%use reader');
      const run = await runCell(kernel, `PUT /${index}/_doc/x\n{"n": -1}`);
      await runCell(kernel, '%use admin');
      expect(run.status).toBe('error');
      expect(run.text).toContain(
        "OpenSearch's security plugin answered 403: no permissions for [indices:data/write/index] and User [name=reader, backend_roles=[], requestedTenant=null]. The user is authenticated but none of its roles grants indices:data/write/index"
      );
      expect(run.text).toContain('roles_mapping');
      expect(run.text).not.toContain('API key');
      expectNoPassword(run.text);
    });

    it("the reader's search is answered", async () => {
      await runCell(kernel, '%use reader');
      const run = await runCell(
        kernel,
        `GET /${index}/_search\n{"query": {"term": {"n": 7}}}`
      );
      await runCell(kernel, '%use admin');
      expect(run.status).toBe('ok');
      expect(run.hits?.rows.map(r => r['name'])).toEqual(['doc 7']);
    });

    it("the reader's call to the security REST API fails with the plugin's own message", async () => {
      await runCell(kernel, '%use reader');
      const run = await runCell(
        kernel,
        'GET /_plugins/_security/api/internalusers'
      );
      await runCell(kernel, '%use admin');
      expect(run.status).toBe('error');
      expect(run.text).toContain(
        'OpenSearch answered 403: No permission to access REST API: User reader with Security roles [searchbook_reader] does not have any role privileged for admin access'
      );
      const asAdmin = await runCell(
        kernel,
        'GET /_plugins/_security/api/internalusers'
      );
      expect(asAdmin.status).toBe('ok');
      expect(asAdmin.text).toContain('reads every index, writes none');
    });

    it("completion offers the security plugin's own endpoints", async () => {
      const complete = async (code: string) =>
        okOf(
          await kernel.request('shell', 'complete_request', {
            code,
            cursor_pos: code.length
          })
        ).matches;
      expect(await complete('GET /_plugins/_security/')).toEqual(
        expect.arrayContaining([
          '/_plugins/_security/authinfo',
          '/_plugins/_security/whoami',
          '/_plugins/_security/api'
        ])
      );
      expect(await complete('GET /_plugins/_security/api/')).toEqual(
        expect.arrayContaining([
          '/_plugins/_security/api/internalusers',
          '/_plugins/_security/api/roles',
          '/_plugins/_security/api/rolesmapping'
        ])
      );
      const code = 'PUT /_plugins/_security/api/rolesmapping/searchbook_reader';
      const inspected = await kernel.request('shell', 'inspect_request', {
        code,
        cursor_pos: 3,
        detail_level: 0
      });
      expect(inspected.content).toMatchObject({ status: 'ok', found: true });
      expect(
        (okOf(inspected)['data'] as Record<string, string>)['text/plain']
      ).toContain(
        'Read, create, update or delete which users and backend roles a role maps to.'
      );
    });

    it('whoami is answered through the kernel', async () => {
      const run = await runCell(kernel, 'GET /_plugins/_security/whoami');
      expect(run.status).toBe('ok');
      expect(run.text).toContain('is_admin');
    });
  });

  describe('the panel', () => {
    it('offers the cluster overview and no API keys section (OpenSearch has no Elastic API keys)', async () => {
      for (const connection of ['admin', 'reader']) {
        const offers = await comm.expect(
          { type: 'offers', connection },
          'offers'
        );
        expect(offers.offers.keys).toBeUndefined();
      }
      const metrics = await comm.call({ type: 'metrics', connection: 'admin' });
      expect(metrics.type).toBe('metrics');
    });

    it("the grid opens on OpenSearch's point in time, pages to the last row, sorts and filters", async () => {
      const grid = await opened('admin', {
        sort: [{ column: 'n', direction: 'asc' }]
      });
      expect(grid.total).toBe(DOCS);
      expect(grid.first.requests.map(r => `${r.method} ${r.path}`)).toContain(
        `POST /${index}/_search/point_in_time?keep_alive=5m`
      );
      const last = await comm.expect(
        { type: 'read', gridId: grid.gridId, block: 2 },
        'block'
      );
      expect(last.block.rows.map(r => r['n'])).toEqual(
        Array.from({ length: DOCS - 2 * BLOCK }, (_, i) => 2 * BLOCK + i)
      );
      const filtered = await opened('admin', {
        filters: [{ column: 'n', operator: 'greater or equal', value: '245' }]
      });
      expect(filtered.total).toBe(5);
      await close(grid);
      await close(filtered);
    });

    it("an admin's edit is saved with if_seq_no; the reader's edit fails with the 403 naming the permission", async () => {
      const change = (grid: Opened, key: string, name: string) => ({
        type: 'save',
        gridId: grid.gridId,
        changes: [
          {
            kind: 'update',
            key,
            row: grid.first.keys?.[0],
            version: grid.first.versions?.[0],
            fields: { name }
          }
        ]
      });
      const seven = {
        filters: [{ column: 'n', operator: 'equals', value: '7' }]
      };
      const asAdmin = await opened('admin', seven);
      const saved = await comm.expect(
        change(asAdmin, 'k1', 'edited by admin'),
        'saved'
      );
      expect(saved.results[0]).toMatchObject({ status: 'saved' });
      expect(saved.results[0]?.request?.path).toContain('if_seq_no=');
      const asReader = await opened('reader', seven);
      expect(asReader.first.rows[0]?.['name']).toBe('edited by admin');
      const refused = await comm.expect(
        change(asReader, 'k2', 'edited by reader'),
        'saved'
      );
      expect(refused.results[0]).toMatchObject({
        status: 'failed',
        httpStatus: 403
      });
      const message =
        refused.results[0]?.status === 'failed'
          ? refused.results[0].message
          : '';
      expect(message).toContain(
        'none of its roles grants indices:data/write/update'
      );
      expect(message).not.toContain('API key');
      expectNoPassword(message);
      await close(asAdmin);
      await close(asReader);
    });
  });

  it('%export writes every document, read on the point in time as admin', async () => {
    const run = await runCell(kernel, `%export ${index} all.jsonl`);
    expect(run.status).toBe('ok');
    expectNoPassword(run.text);
    const lines = readFileSync(join(dir, 'all.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(line => JSON.parse(line) as { _id: string; _source: unknown });
    expect(lines).toHaveLength(DOCS);
    const byId = new Map(lines.map(l => [l._id, l._source]));
    expect(byId.get('d7')).toEqual({ n: 7, name: 'edited by admin' });
    expect(byId.get(`d${DOCS - 1}`)).toEqual({
      n: DOCS - 1,
      name: `doc ${DOCS - 1}`
    });
  });
});
