/**
 * End to end through the kernel process: %connect with SSL modes and failures against every
 * Elasticsearch target that serves HTTPS (sandbox and real 8.19.21 node), Typesense over HTTPS,
 * %connect and a request against every Elasticsearch target (sandbox and real nodes), all
 * outputs scanned for secrets.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  describeEachTarget,
  elasticsearchTargets,
  elasticsearchTlsTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { answerFor } from '../support/real-node-differences';
import { KernelClient } from '../support/kernel-client';
import { SECRETS } from './helpers';

let kernel: KernelClient;
let sandbox: RunningSandbox;
const seen: string[] = [];

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: true,
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

async function run(code: string): Promise<{ status: unknown; text: string }> {
  const { reply, iopub } = await kernel.execute(code);
  const text = JSON.stringify([reply.content, ...iopub.map(m => m.content)]);
  seen.push(text);
  return { status: reply.content.status, text };
}

describeEachTarget(
  elasticsearchTlsTargets(),
  '%connect over HTTPS through the kernel',
  target => {
    let engine: RunningEsTarget;
    beforeAll(async () => {
      engine = await target.start({ security: true, tls: true });
    }, REAL_START_TIMEOUT_MS);
    afterAll(() => engine?.close());

    it('connects under verify-identity with its CA, and runs a request', async () => {
      const ok = await run(
        `%connect elasticsearch ${engine.url} ssl=verify-identity ca=${engine.caFile} user=elastic password=\${env:ES_PASSWORD}`
      );
      expect(ok.status).toBe('ok');
      const product = answerFor(target, 'opensearch-names-itself', {
        asEight: 'Elasticsearch',
        otherwise: 'OpenSearch'
      });
      expect(ok.text).toContain(`Connected to ${product} ${target.version}`);
      expect(ok.text).not.toContain('not a supported version');
      const search = await run(
        'GET /products/_search\n{"size": 3, "query": {"ids": {"values": ["8"]}}}'
      );
      expect(search.status).toBe('ok');
      expect(search.text).toContain('SKU-8-1');
    });

    it('refuses the unknown CA under verify-ca with advice', async () => {
      const failed = await run(
        `%connect elasticsearch ${engine.url} ssl=verify-ca user=elastic password=\${env:ES_PASSWORD}`
      );
      expect(failed.status).toBe('error');
      // The error's name is said once: ename `Connection failed`, evalue from the cause on.
      expect(failed.text).toContain(
        '"ename":"Connection failed","evalue":"the certificate'
      );
      expect(failed.text).toContain('ssl=required');
    });

    it('reports a wrong password under skip_verify without the secret', async () => {
      const failed = await run(
        `%connect elasticsearch ${engine.url} skip_verify user=elastic password=\${env:WRONG}`
      );
      expect(failed.text).toContain(
        '"ename":"Authentication failed","evalue":"unable to authenticate user [elastic]'
      );
    });
  }
);

it('reports a wrong Typesense key without the secret, and connects with the sandbox CA', async () => {
  // Typesense answers a wrong key and a scoped one alike (401), so a wrong key connects with a warning and fails at its first request.
  expect(
    (
      await run(
        `%connect typesense ${sandbox.tsUrl} skip_verify key=\${env:WRONG}`
      )
    ).text
  ).toContain('either wrong or scoped');
  expect(
    (await run('GET /collections/books/documents/search?q=*')).text
  ).toContain('Forbidden - a valid API key header must be sent.');
  const ts = await run(
    `%connect typesense ${sandbox.tsUrl} ssl=verify-ca ca=${sandbox.caFile} key=\${env:TS_API_KEY}`
  );
  expect(ts.text).toContain('Connected to Typesense');
  expect(
    (await run('GET /collections/books/documents/search?q=*&per_page=300')).text
  ).toContain('Only upto 250 hits can be fetched per page.');
});

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  '%connect through the kernel',
  target => {
    let engine: RunningEsTarget;
    beforeAll(async () => {
      engine = await target.start({ security: target.canSecure });
    }, REAL_START_TIMEOUT_MS);
    afterAll(() => engine?.close());

    it('connects, names the engine and version without a warning, and runs a search', async () => {
      const credentials = target.canSecure
        ? 'user=elastic password=${env:ES_PASSWORD}'
        : 'auth=none';
      const ok = await run(
        `%connect elasticsearch ${engine.url} ${credentials}`
      );
      expect(ok.status).toBe('ok');
      const product = answerFor(target, 'opensearch-names-itself', {
        asEight: 'Elasticsearch',
        otherwise: 'OpenSearch'
      });
      expect(ok.text).toContain(`Connected to ${product} ${target.version}`);
      expect(ok.text).not.toContain('not a supported version');
      const search = await run(
        'GET /products/_search\n{"size": 3, "query": {"ids": {"values": ["8"]}}}'
      );
      expect(search.status).toBe('ok');
      expect(search.text).toContain('SKU-8-1');
    });

    if (target.canSecure) {
      it('a wrong password: Authentication failed, with the engine reason', async () => {
        const failed = await run(
          `%connect elasticsearch ${engine.url} user=elastic password=\${env:WRONG}`
        );
        expect(failed.status).toBe('error');
        expect(failed.text).toContain(
          '"ename":"Authentication failed","evalue":"unable to authenticate user [elastic]'
        );
      });
    }
  }
);

it('no output held a secret, nor did the kernel log', () => {
  const basic = Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString(
    'base64'
  );
  for (const text of [...seen, kernel.stderr]) {
    for (const secret of [...Object.values(SECRETS), basic]) {
      expect(text).not.toContain(secret);
    }
  }
  // Every output above was scanned, the Elasticsearch targets' included (tests run in file order).
  expect(seen.length).toBeGreaterThan(5);
});
