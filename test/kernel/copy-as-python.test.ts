/**
 * Copy as Python, over ZeroMQ against the sandbox engines: a cell's requests, and a grid's
 * request, as code for the engine's official client (elasticsearch-py, typesense-python) with
 * each credential read from the environment by the name of the variable the connection's
 * %connect line read, never the secret. Where the clients are installed in the test
 * environment (.venv), the copied code is run with only those variables, and the engine answers.
 * OpenSearch's code (opensearch-py) runs against a real OpenSearch node secured by its security
 * plugin over HTTPS, and gets the answers the kernel gets for the same cell.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningSandbox } from '@searchbook/sandbox/sandbox';
import type { GridReply } from '../../contracts/panel-protocol';
import { answerValue } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { expectNoSecret, SECRETS } from '../support/secrets';
import {
  credentialVariables,
  securedSandboxWithKey
} from '../support/secured-sandbox';
import { expectReply, PanelCommClient } from '../panel/panel-comm-client';
import { KernelClient, REPO } from '../support/kernel-client';
import { displays } from '../support/shown-text';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  SUITES_INSTANCE
} from '../support/elasticsearch-targets';
import {
  ensureProducts,
  REAL_NODE_PRODUCTS
} from '../support/real-elasticsearch/products';
import { realNode } from '../support/real-elasticsearch/run-nodes';

jest.setTimeout(90_000);

const run = promisify(execFile);
const PYTHON = join(REPO, '.venv', 'bin', 'python');

/** Whether these modules can be imported by the test environment's Python. */
function importable(modules: string): boolean {
  try {
    execFileSync(PYTHON, ['-c', `import ${modules}`], {
      stdio: 'ignore'
    });
    return true;
  } catch {
    return false;
  }
}
const runsPython = importable('elasticsearch, typesense') ? it : it.skip;

let sandbox: RunningSandbox;
let kernel: KernelClient;
let comm: PanelCommClient;
let apiKey: string;

async function copied(
  cell: string,
  connection?: string
): Promise<Extract<GridReply, { type: 'python' }>> {
  return comm.expect(
    { type: 'python', cell, ...(connection ? { connection } : {}) },
    'python'
  );
}

/** Runs copied code with only `env` (and PATH), as a user pasting it into a script would; each printed answer parsed. */
async function runCopied(
  code: string,
  env: Record<string, string>
): Promise<unknown[]> {
  const { stdout } = await run(PYTHON, ['-c', code], {
    env: { PATH: process.env.PATH ?? '', ...env }
  });
  // Each answer is printed as indented JSON starting at a line's first column.
  return stdout
    .split(/\n(?=[[{])/)
    .filter(part => part.trim() !== '')
    .map(part => JSON.parse(part) as unknown);
}

beforeAll(async () => {
  ({ sandbox, apiKey } = await securedSandboxWithKey('python-names'));
  kernel = await KernelClient.start({
    ...credentialVariables(apiKey),
    OS_ADMIN_PASSWORD: SECRETS.ES_PASSWORD
  });
  comm = await PanelCommClient.open(kernel);
  for (const line of [
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:REAL_ES_PASSWORD} name=pw`,
    `%connect elasticsearch ${sandbox.esUrl} key=\${env:OPS_ES_KEY} name=apikey`,
    `%connect typesense ${sandbox.tsUrl} key=\${env:MY_TS_KEY} name=ts`,
    '%use pw'
  ]) {
    const { reply } = await kernel.execute(line);
    expect(reply.content.status).toBe('ok');
  }
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

const SEARCH_CELL =
  'GET /products/_search?size=2\n{"query": {"match_all": {}}, "sort": [{"price": "asc"}], "_source": false}';

it('an Elasticsearch cell becomes elasticsearch-py code naming the variables the connections read', async () => {
  const { code, requests } = await copied(
    `${SEARCH_CELL}\n%use apikey\nGET /products/_count`
  );
  expect(requests).toBe(2);
  expect(code).toContain('from elasticsearch import Elasticsearch');
  expect(code).toContain(
    `client = Elasticsearch(\n    "${sandbox.esUrl}",\n    basic_auth=("elastic", os.environ["REAL_ES_PASSWORD"]),\n)`
  );
  expect(code).toContain(
    `client_2 = Elasticsearch("${sandbox.esUrl}", api_key=os.environ["OPS_ES_KEY"])`
  );
  expect(code).toContain('response = client.perform_request(');
  expect(code).toContain('    "/products/_search",\n    params={"size": "2"},');
  expect(code).toContain('"sort": [{"price": "asc"}],');
  expect(code).toContain('"_source": False,');
  expect(code).toContain(
    '    headers={\n        "accept": "application/json",\n        "content-type": "application/json",\n    },'
  );
  expect(code).toContain(
    'response = client_2.perform_request(\n    "GET",\n    "/products/_count",\n    headers={"accept": "application/json"},\n)\nprint(json.dumps(response.body, indent=2))'
  );
  expectNoSecret(code, [apiKey]);
});

it('a Typesense cell becomes typesense-python code, with the client’s own methods where it has them', async () => {
  const { code } = await copied(
    '%use ts\nGET /collections/books/documents/search?q=*&query_by=title&per_page=3\nPOST /multi_search\n{"searches": [{"collection": "books", "q": "dune", "query_by": "title"}]}\nGET /health'
  );
  expect(code).toContain('import typesense');
  expect(code).toContain(
    `client = typesense.Client({\n    "nodes": [{"host": "127.0.0.1", "port": ${new URL(sandbox.tsUrl).port}, "protocol": "http"}],\n    "api_key": os.environ["MY_TS_KEY"],`
  );
  expect(code).toContain(
    'response = client.collections["books"].documents.search('
  );
  expect(code).toContain('client.multi_search.perform(');
  expect(code).toContain(
    'response = client.api_call.get("/health", entity_type=dict)'
  );
  expectNoSecret(code);
});

it('a cell without a request, and a cell with no connection to send to, say so', async () => {
  const empty = await comm.call({ type: 'python', cell: '%set size = 3' });
  expect(empty).toMatchObject({
    type: 'error',
    message: expect.stringContaining(
      'This cell holds no request to copy as Python'
    )
  });
  const gone = await comm.call({
    type: 'python',
    cell: 'GET /_count',
    connection: 'nowhere'
  });
  expect(gone).toMatchObject({
    type: 'error',
    message: expect.stringContaining('The connection nowhere is no longer open')
  });
});

runsPython(
  'the copied code runs with only the named variables set, and the engines answer',
  async () => {
    const es = await copied(
      `${SEARCH_CELL}\n%use apikey\nGET /products/_count`
    );
    const [search, count] = await runCopied(es.code, {
      REAL_ES_PASSWORD: SECRETS.ES_PASSWORD,
      OPS_ES_KEY: apiKey
    });
    expect(search).toMatchObject({
      hits: { total: { value: 20 }, hits: [{}, {}] }
    });
    expect(count).toMatchObject({ count: 20 });
    const ts = await copied(
      '%use ts\nGET /collections/books/documents/search?q=*&query_by=title&per_page=3\nPOST /multi_search\n{"searches": [{"collection": "books", "q": "*", "query_by": "title", "per_page": 2}]}\nGET /health'
    );
    const [found, multi, health] = await runCopied(ts.code, {
      MY_TS_KEY: SECRETS.TS_API_KEY
    });
    expect(found).toMatchObject({ hits: [{}, {}, {}] });
    expect((found as { found: number }).found).toBeGreaterThan(3);
    expect(multi).toMatchObject({ results: [{ hits: [{}, {}] }] });
    expect(health).toEqual({ ok: true });
  }
);

runsPython(
  "a grid's request copied as Python runs and gets the grid's first rows",
  async () => {
    const opened = await comm.expect(
      { type: 'open', connection: 'apikey', target: 'products' },
      'opened'
    );
    const { code } = await copied(opened.request.cell, 'apikey');
    expect(code).toContain('api_key=os.environ["OPS_ES_KEY"]');
    const [answer] = await runCopied(code, { OPS_ES_KEY: apiKey });
    expect(answer).toMatchObject({ hits: { total: { value: 20 } } });
    await comm.call({ type: 'close', gridId: opened.gridId });
  }
);

const realSkipped = elasticsearchTargets().find(
  t => t.engine === 'real'
)?.skipped;
const openSearchSkipped =
  realSkipped ??
  (importable('opensearchpy')
    ? undefined
    : 'opensearch-py is not installed (requirements-dev.txt)');
const OPENSEARCH_TITLE =
  "real OpenSearch 2.19.1 with its security plugin's HTTP Basic over HTTPS";

(openSearchSkipped ? describe.skip : describe)(
  openSearchSkipped
    ? `${OPENSEARCH_TITLE} (skipped: ${openSearchSkipped})`
    : OPENSEARCH_TITLE,
  () => {
    const AGGS_CELL =
      'POST /products/_search\n{"size": 0, "aggs": {"categories": {"terms": {"field": "category"}}}}';
    /** What the kernel itself answers to a request on the OpenSearch connection. */
    const kernelAnswer = async (cell: string): Promise<unknown> => {
      const { reply, iopub } = await kernel.execute(`%use os\n${cell}`);
      expect(reply.content.status).toBe('ok');
      const data = displays(iopub).at(-1) ?? {};
      const hits = data[HITS_MIME];
      // A hits bundle keeps the engine's answer as text; other answers are application/json.
      return hits
        ? answerValue(HitsPayloadSchema.parse(hits))
        : data['application/json'];
    };

    let caFile = '';

    beforeAll(async () => {
      const outcome = await realNode(
        'opensearch-2.19-security',
        SUITES_INSTANCE
      );
      if ('skipped' in outcome) {
        throw new Error(outcome.skipped);
      }
      await ensureProducts(outcome.node);
      // Its certificate is signed by a CA made for the node: the copied code checks none, as
      // this connection does.
      const { reply } = await kernel.execute(
        `%connect opensearch ${outcome.node.url} skip_verify user=admin password=\${env:OS_ADMIN_PASSWORD} name=os`
      );
      expect(reply.content).toMatchObject({ status: 'ok' });
      caFile = outcome.node.caFile ?? '';
      const checked = await kernel.execute(
        `%connect opensearch ${outcome.node.url} ssl=verify-identity ca=${caFile} user=admin password=\${env:OS_ADMIN_PASSWORD} name=os-ca`
      );
      expect(checked.reply.content).toMatchObject({ status: 'ok' });
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      await kernel.execute('%use pw');
    });

    it("an OpenSearch cell becomes opensearch-py code that runs with only the named variable and gets the kernel's answers", async () => {
      const { code, requests } = await copied(
        `%use os\n${SEARCH_CELL}\nGET /products/_count\n${AGGS_CELL}`
      );
      expect(requests).toBe(3);
      expect(code).toContain('from opensearchpy import OpenSearch');
      expect(code).toContain(
        'http_auth=("admin", os.environ["OS_ADMIN_PASSWORD"])'
      );
      expect(code).toContain(
        '# Certificates go unchecked, as this connection does (ssl=required or skip_verify).'
      );
      expect(code).toContain('verify_certs=False');
      expect(code).toContain('response = client.transport.perform_request(');
      expectNoSecret(code);
      const [search, count, aggs] = await runCopied(code, {
        OS_ADMIN_PASSWORD: SECRETS.ES_PASSWORD
      });
      const ids = (answer: unknown) =>
        (answer as { hits: { hits: { _id: string }[] } }).hits.hits.map(
          hit => hit._id
        );
      const theKernels = await kernelAnswer(SEARCH_CELL);
      expect(search).toMatchObject({
        hits: { total: { value: REAL_NODE_PRODUCTS } }
      });
      expect(ids(search)).toHaveLength(2);
      expect(ids(search)).toEqual(ids(theKernels));
      expect(count).toEqual(await kernelAnswer('GET /products/_count'));
      const buckets = (answer: unknown) =>
        (
          answer as {
            aggregations: { categories: { buckets: unknown[] } };
          }
        ).aggregations.categories.buckets;
      expect(buckets(aggs).length).toBeGreaterThan(1);
      expect(buckets(aggs)).toEqual(buckets(await kernelAnswer(AGGS_CELL)));
    });

    it("a connection that trusts the node's own CA is copied with that CA file, and the copied code checks the certificate against it", async () => {
      const { code } = await copied('%use os-ca\nGET /products/_count');
      expect(code).toContain(`ca_certs=${JSON.stringify(caFile)}`);
      expect(code).not.toContain('verify_certs=False');
      const [count] = await runCopied(code, {
        OS_ADMIN_PASSWORD: SECRETS.ES_PASSWORD
      });
      expect(count).toMatchObject({ count: REAL_NODE_PRODUCTS });
    });

    it("a grid's sorted view on OpenSearch copied as opensearch-py code gets the grid's rows in the grid's order", async () => {
      const opened = expectReply(
        await comm.call({
          type: 'open',
          connection: 'os',
          target: 'products',
          view: { sort: [{ column: 'price', direction: 'desc' }] }
        }),
        'opened'
      );
      const { code } = await copied(opened.request.cell, 'os');
      expect(code).toContain('from opensearchpy import OpenSearch');
      expect(code).toContain('"sort": [{"price": {"order": "desc"}}]');
      const [answer] = await runCopied(code, {
        OS_ADMIN_PASSWORD: SECRETS.ES_PASSWORD
      });
      expect(answer).toMatchObject({
        hits: { total: { value: REAL_NODE_PRODUCTS } }
      });
      const copiedIds = (
        answer as { hits: { hits: { _id: string }[] } }
      ).hits.hits.map(hit => hit._id);
      const gridIds = opened.first.rows.map(row => row['_id']);
      expect(gridIds.length).toBeGreaterThan(1);
      expect(copiedIds.slice(0, gridIds.length)).toEqual(gridIds);
      await comm.call({ type: 'close', gridId: opened.gridId });
    });
  }
);
