/**
 * Partial failures over the wire (the kernel process, ZeroMQ, the sandbox engines and the real
 * Elasticsearch nodes over HTTP): a request that answers 2xx while some of its parts failed
 * says how many of how many failed, with the first reasons, on the status line the extension
 * shows (the payload's `info.partialFailures`), and in the text and HTML fallbacks. The cell
 * itself succeeds: the parts that worked did.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  HITS_MIME,
  JSON_MIME,
  ResponseInfoSchema
} from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { KernelClient, errorOf } from '../support/kernel-client';
import {
  displays,
  displaysAndUpdates,
  type MimeBundle
} from '../support/shown-text';
import { expectFor } from '../support/sandbox-differences';

let kernel: KernelClient;
let sandbox: RunningSandbox;

async function ok(code: string): Promise<MimeBundle[]> {
  const { reply, iopub } = await kernel.execute(code);
  if (reply.content.status !== 'ok') {
    throw new Error(
      `${code}\nfailed: ${errorOf(reply).ename}: ${errorOf(reply).evalue}`
    );
  }
  // A request's answer replaces its progress output: the last display or update holds it.
  return displaysAndUpdates(iopub)
    .filter(
      data =>
        data[JSON_MIME] !== undefined ||
        data[HITS_MIME] !== undefined ||
        data['text/plain'] !== undefined
    )
    .filter(d => !('application/vnd.searchbook.progress+json' in d));
}

/** What a user reads of one output: the status info, the plain text, the HTML. */
function readOutput(bundle: Record<string, unknown> | undefined) {
  const payload = (bundle?.[JSON_MIME] ?? bundle?.[HITS_MIME]) as
    { info: unknown } | undefined;
  return {
    info: ResponseInfoSchema.parse(payload?.info),
    plain: String(bundle?.['text/plain']),
    html: String(bundle?.['text/html'])
  };
}

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

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'partial failures', target => {
  let engine: RunningEsTarget;
  beforeAll(async () => {
    engine = await target.start({ security: target.canSecure });
    await ok(
      `%connect elasticsearch ${engine.url} ${target.canSecure ? 'user=elastic password=${env:ES_PASSWORD}' : 'auth=none'} name=es`
    );
    await kernel.execute('DELETE /pf-bulk');
    await kernel.execute('DELETE /pf-other');
    await ok(
      'PUT /pf-bulk\n{"mappings": {"properties": {"price": {"type": "float"}}}}'
    );
  }, REAL_START_TIMEOUT_MS);
  afterAll(async () => {
    await kernel.execute('DELETE /pf-bulk');
    await kernel.execute('DELETE /pf-other');
    await engine?.close();
  });

  it('a _bulk answering "errors": true says how many items of how many failed, with the reason, everywhere', async () => {
    const [bundle] = await ok(
      'POST /pf-bulk/_bulk?refresh=true\n{"index": {"_id": "1"}}\n{"price": 10}\n{"index": {"_id": "2"}}\n{"price": "not a number"}\n{"index": {"_id": "3"}}\n{"price": 30}'
    );
    const { info, plain, html } = readOutput(bundle);
    expect(info.status).toBe(200);
    expect(info.partialFailures).toEqual([
      {
        failed: 1,
        of: 3,
        unit: 'items',
        outcome: 'failed',
        reasons: [
          expect.stringMatching(
            /^index 2 in pf-bulk \(400\): (document_parsing_exception|mapper_parsing_exception): (\[1:\d+\] )?failed to parse field \[price\] of type \[float\]/
          )
        ]
      }
    ]);
    expect(plain.split('\n')[0]).toMatch(
      /→ 200 in \d+ ms · WARNING: 1 of 3 items failed$/
    );
    expect(plain).toContain(
      'Warning: 1 of 3 items failed. First reasons:\n  - index 2 in pf-bulk (400): '
    );
    expect(html).toContain(
      '<strong>Warning: 1 of 3 items failed. First reasons:'
    );
    // The items that worked did: the cell is not an error.
    const [count] = await ok('GET /pf-bulk/_count');
    expect(String(count?.['text/plain'])).toContain('"count": 2');
  });

  it('an _msearch with a failed search says so once, over the first search, not under each; the failed one shows its own status', async () => {
    const outputs = await ok(
      'GET /_msearch\n{"index": "products"}\n{"size": 0}\n{"index": "pf-missing"}\n{"size": 0}'
    );
    expect(outputs).toHaveLength(2);
    const second = readOutput(outputs[1]);
    expect(second.info.partialFailures).toBeUndefined();
    expect(second.plain.split('\n')[0]).not.toContain('WARNING');
    expect(second.plain.split('\n')[0]).toMatch(
      /^Search 2 of 2: pf-missing · .* → 404 /
    );
    for (const bundle of outputs.slice(0, 1)) {
      const { info, plain } = readOutput(bundle);
      expect(info.partialFailures).toEqual([
        {
          failed: 1,
          of: 2,
          unit: 'searches',
          outcome: 'failed',
          reasons: [
            expect.stringMatching(
              /^search 2: index_not_found_exception: no such index \[pf-missing\]/
            )
          ]
        }
      ]);
      expect(plain.split('\n')[0]).toContain('WARNING: 1 of 2 searches failed');
    }
  });

  it('an _mget says which documents failed and which were not found', async () => {
    const [bundle] = await ok(
      'GET /_mget\n{"docs": [{"_index": "products", "_id": "1"}, {"_index": "products", "_id": "no-such-id"}, {"_index": "pf-missing", "_id": "1"}]}'
    );
    const { info, plain } = readOutput(bundle);
    expect(info.partialFailures).toEqual([
      {
        failed: 1,
        of: 3,
        unit: 'documents',
        outcome: 'failed',
        reasons: [
          expect.stringMatching(/^1 in pf-missing: index_not_found_exception/)
        ]
      },
      {
        failed: 1,
        of: 3,
        unit: 'documents',
        outcome: 'not found',
        reasons: ['no-such-id in products']
      }
    ]);
    expect(plain.split('\n')[0]).toContain(
      'WARNING: 1 of 3 documents failed; 1 of 3 documents not found'
    );
  });

  it('a search whose query fails on one of two indices says which shard failed and why', async () => {
    await ok(
      'PUT /pf-other\n{"mappings": {"properties": {"created_at": {"type": "keyword"}}}}'
    );
    await ok('PUT /pf-other/_doc/1?refresh=true\n{"created_at": "soon"}');
    const { reply, iopub } = await kernel.execute(
      'GET /products,pf-other/_search\n{"query": {"term": {"created_at": "soon"}}}'
    );
    const partial = expectFor(target, 'partial-shard-failures', {
      sandbox: false,
      elasticsearch: true
    });
    if (!partial) {
      // The sandbox fails the whole search instead.
      expect(reply.content.status).toBe('error');
      return;
    }
    expect(reply.content.status).toBe('ok');
    const { info, plain, html } = readOutput(
      displays(iopub).find(d => d[HITS_MIME] !== undefined)
    );
    expect(info.partialFailures).toEqual([
      {
        failed: 1,
        of: 2,
        unit: 'shards',
        outcome: 'failed',
        reasons: [
          expect.stringMatching(
            /^products shard 0: query_shard_exception: failed to create query: failed to parse date field \[soon\]/
          )
        ]
      }
    ]);
    expect(plain.split('\n')[0]).toContain('WARNING: 1 of 2 shards failed');
    expect(plain).toContain(
      'Warning: 1 of 2 shards failed. First reasons:\n  - products shard 0: '
    );
    expect(html).toContain('<strong>Warning: 1 of 2 shards failed.');
  });

  it('a request whose parts all worked carries no warning', async () => {
    const [bundle] = await ok(
      'POST /pf-bulk/_bulk?refresh=true\n{"index": {"_id": "4"}}\n{"price": 40}'
    );
    const { info, plain } = readOutput(bundle);
    expect(info.partialFailures).toBeUndefined();
    expect(plain).not.toContain('WARNING');
  });
});

describe('Typesense', () => {
  beforeAll(async () => {
    await ok(
      `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
    );
    await ok(
      'POST /collections\n{"name": "pf_import", "fields": [{"name": "title", "type": "string"}, {"name": "year", "type": "int32"}]}'
    );
  });

  it('documents/import with failed lines says how many lines of how many failed, with their errors', async () => {
    const outputs = await ok(
      'POST /collections/pf_import/documents/import?action=create\n{"id": "1", "title": "One", "year": 2001}\n{"id": "2", "title": "Two", "year": "not a year"}\n{"id": "3", "title": "Three", "year": 2003}'
    );
    const { info, plain, html } = readOutput(outputs[0]);
    expect(info.partialFailures).toEqual([
      {
        failed: 1,
        of: 3,
        unit: 'lines',
        outcome: 'failed',
        reasons: [expect.stringMatching(/^line 2: .*year/)]
      }
    ]);
    expect(plain.split('\n')[0]).toContain('WARNING: 1 of 3 lines failed');
    expect(plain).toContain(
      'Warning: 1 of 3 lines failed. First reasons:\n  - line 2: '
    );
    expect(html).toContain('<strong>Warning: 1 of 3 lines failed.');
  });

  it('a multi_search with a failed search says so once, over the first search', async () => {
    const outputs = await ok(
      'POST /multi_search\n{"searches": [{"collection": "pf_import", "q": "*", "query_by": "title"}, {"collection": "pf_missing", "q": "*", "query_by": "title"}]}'
    );
    expect(outputs.length).toBeGreaterThanOrEqual(1);
    expect(readOutput(outputs[0]).info.partialFailures).toEqual([
      {
        failed: 1,
        of: 2,
        unit: 'searches',
        outcome: 'failed',
        reasons: [expect.stringMatching(/^search 2: Collection not found/)]
      }
    ]);
    for (const bundle of outputs.slice(1)) {
      expect(readOutput(bundle).info.partialFailures).toBeUndefined();
    }
  });
});

describe('an engine answering an _msearch with no searches at all', () => {
  let engine: HostileEngine;
  beforeAll(async () => {
    engine = await startHostileEngine({
      '/_msearch': (_req, res) => {
        res.writeHead(200, {
          'x-elastic-product': 'Elasticsearch',
          'content-type': 'application/json'
        });
        res.end('{"took": 1, "responses": []}');
      }
    });
    await ok(`%connect elasticsearch ${engine.url} auth=none name=empty`);
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('shows its answer with no warning: no search, so none failed', async () => {
    const [bundle, ...more] = await ok('GET /_msearch\n{}\n{}');
    expect(more).toHaveLength(0);
    expect(String(bundle?.['text/plain'])).toMatch(
      /^empty: GET \/_msearch → 200 in \d+ ms\n\{\n {2}"took": 1,\n {2}"responses": \[\]\n\}$/
    );
  });
});
