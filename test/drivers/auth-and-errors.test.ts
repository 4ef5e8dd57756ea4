/**
 * Every auth method against the sandbox engines and real Elasticsearch nodes over real sockets,
 * and each error a user meets there (authentication failed, a missing or wrong Typesense key,
 * a sort or filter field the schema lacks, more than 250 hits a page, not an int32) with the
 * engine's own reason and the advice of what to change. No message may hold a secret.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../kernel/src/connections/open-connection';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { answerFor } from '../support/real-node-differences';
import {
  connect,
  connectError,
  expectNoSecret,
  failureOf,
  request,
  SECRETS
} from './helpers';

const base = {
  esPort: 0,
  tsPort: 0,
  esVersion: '8.15.0',
  tsVersion: '29.0',
  esPassword: SECRETS.ES_PASSWORD,
  tsApiKey: SECRETS.TS_API_KEY,
  products: 20
};

describeEachTarget(
  elasticsearchTargets(['8.15.0', '7.17.0'], { newest: true }),
  'auth methods',
  target => {
    // The sandbox 8.x also runs over HTTPS here; the real nodes here serve plain HTTP (ssl-modes covers the real HTTPS node).
    const tls = target.engine === 'sandbox' && target.version.startsWith('8.');
    const skip = tls ? 'skip_verify' : '';
    const major = `${target.version.split('.')[0] ?? ''}.x`;
    let secured: RunningEsTarget | undefined;
    let open: RunningEsTarget;
    beforeAll(async () => {
      [secured, open] = await Promise.all([
        target.canSecure ? target.start({ security: true, tls }) : undefined,
        target.start({ security: false, tls })
      ]);
    }, REAL_START_TIMEOUT_MS);
    afterAll(() => Promise.all([secured?.close(), open?.close()]));
    const securedUrl = (): string => {
      if (!secured) {
        throw new Error('no secured engine');
      }
      return secured.url;
    };
    // 7.17's x-pack-security is not on Maven Central: the real 7.17 node runs open only.
    const itSecured = (name: string, fn: () => Promise<void>): void => {
      if (target.canSecure) {
        it(name, fn);
      }
    };

    itSecured('basic: user and password', async () => {
      const c = await connect(
        `elasticsearch ${securedUrl()} ${skip} auth=basic user=elastic password=\${env:ES_PASSWORD}`
      );
      expect(c.identity.version).toBe(target.version);
      await c.driver.close();
    });

    itSecured(
      'apikey: a key created on the engine, sent verbatim',
      async () => {
        const admin = await connect(
          `elasticsearch ${securedUrl()} ${skip} user=elastic password=\${env:ES_PASSWORD}`
        );
        const created = await admin.driver.console.send(
          request('POST', '/_security/api_key', '', {
            name: 'searchbook-test'
          }),
          new AbortController().signal
        );
        await admin.driver.close();
        const body =
          created.body.kind === 'json'
            ? (created.body.value as {
                id: string;
                api_key: string;
                encoded?: string;
              })
            : undefined;
        expect(body?.id).toBeDefined();
        const encoded =
          body?.encoded ??
          Buffer.from(`${body?.id}:${body?.api_key}`).toString('base64');
        const c = await connect(
          `elasticsearch ${securedUrl()} ${skip} auth=apikey key=\${env:ES_KEY}`,
          { ES_KEY: encoded }
        );
        expect(c.identity.version).toBe(target.version);
        await c.driver.close();
        const err = await connectError(
          `elasticsearch ${securedUrl()} ${skip} auth=apikey key=\${env:WRONG}`
        );
        expect(err.message).toMatch(
          /^Authentication failed: unable to authenticate with provided credentials/
        );
        expectNoSecret(err.message, [encoded]);
      }
    );

    it('none: against a cluster with security off', async () => {
      const c = await connect(`elasticsearch ${open.url} ${skip} auth=none`);
      expect(c.identity.version).toBe(target.version);
      await c.driver.close();
    });

    itSecured(
      'a wrong password: Authentication failed with the engine reason and advice, no secret',
      async () => {
        const err = await connectError(
          `elasticsearch ${securedUrl()} ${skip} user=elastic password=\${env:WRONG}`
        );
        expect(err.ename).toBe('Authentication failed');
        expect(err.message).toMatch(
          /^Authentication failed: unable to authenticate user \[elastic\] for REST request \[\/\]\. Check the user and password/
        );
        expectNoSecret(err.message);
      }
    );

    itSecured(
      'no credentials against a secured cluster: says which options to add',
      async () => {
        const err = await connectError(`elasticsearch ${securedUrl()} ${skip}`);
        expect(err.message).toMatch(
          /^Authentication failed: missing authentication credentials.*auth=basic/
        );
      }
    );

    itSecured(
      `a rejected password gives no HTTPS advice (here: ${major}, ${tls ? 'HTTPS' : 'HTTP'})`,
      async () => {
        const err = await connectError(
          `elasticsearch ${securedUrl()} ${skip} user=elastic password=\${env:WRONG}`
        );
        expect(err.message.includes('uses HTTPS')).toBe(false);
        expectNoSecret(err.message);
      }
    );

    it('a request failing later keeps the engine reason; a 404 is not an auth error', async () => {
      const c = await connect(`elasticsearch ${open.url} ${skip}`);
      const missing = await failureOf(c, request('GET', '/nope/_search'));
      const product = answerFor(target, 'opensearch-names-itself', {
        asEight: 'Elasticsearch',
        otherwise: 'OpenSearch'
      });
      expect(missing?.message).toMatch(
        new RegExp(
          `^${product} answered 404: index_not_found_exception: no such index \\[nope\\]`
        )
      );
      await c.driver.close();
    });
  }
);

describe('Elasticsearch 8.x over plain HTTP on the sandbox: a rejected password does not suggest HTTPS (the server answered over HTTP)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ ...base, tls: false, security: true });
  });
  afterAll(() => sandbox?.close());

  it('Authentication failed: the reason and a check of the credentials, no word of HTTPS', async () => {
    const err = await connectError(
      `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:WRONG}`
    );
    expect(err.message).toMatch(
      /^Authentication failed: unable to authenticate user \[elastic\].*Check the user and password/
    );
    expect(err.message).not.toMatch(/HTTPS|https:/);
    expectNoSecret(err.message);
  });

  it.each([
    [
      'a terms aggregation',
      { size: 0, aggs: { names: { terms: { field: 'name' } } } }
    ],
    ['a sort', { sort: [{ name: 'asc' }] }]
  ])(
    '%s on a text field leads with the shard\'s reason, not "all shards failed", and names the keyword subfield',
    async (_label, body) => {
      const c = await connect(
        `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
      );
      const err = await failureOf(
        c,
        request('POST', '/products/_search', '', body)
      );
      expect(err?.message).toMatch(
        /^Elasticsearch answered 400: illegal_argument_exception: Fielddata is disabled on \[name\] in \[products\]\. Text fields are not optimised/
      );
      expect(err?.message).toMatch(
        /\(reported as search_phase_execution_exception: all shards failed\)\. Aggregate or sort on a keyword field: name\.keyword/
      );
      // The cause is said once, however many places of the body repeat it.
      expect(err?.message.match(/Fielddata is disabled/g)).toHaveLength(1);
      await c.driver.close();
    }
  );
});

describe('Typesense errors', () => {
  let sandbox: RunningSandbox;
  let ts: Connection;
  beforeAll(async () => {
    sandbox = await startSandbox({ ...base, tls: false, security: true });
    ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`);
  });
  afterAll(async () => {
    await ts?.driver.close();
    await sandbox?.close();
  });

  it('a wrong key is not refused at connect (Typesense answers a scoped key the same 401), but warned of, and its first request fails: Forbidden - a valid API key header must be sent.', async () => {
    const wrong = await connect(`typesense ${sandbox.tsUrl} key=\${env:WRONG}`);
    try {
      expect(wrong.identity.warnings.join('\n')).toMatch(
        /either wrong or scoped.*401 Forbidden/
      );
      const err = await failureOf(
        wrong,
        request('GET', '/collections/books/documents/search', 'q=*')
      );
      expect(err?.ename).toBe('Authentication failed');
      expect(
        err?.message.startsWith(
          'Forbidden - a valid API key header must be sent.'
        )
      ).toBe(true);
      expect(err?.message).toContain('x-typesense-api-key');
      expectNoSecret(err?.message ?? '');
      expectNoSecret(wrong.identity.warnings.join('\n'));
    } finally {
      await wrong.driver.close();
    }
  });

  it('an expired key: the message names expiry among the causes, and no variable the key did not come from', async () => {
    const made = await fetch(`${sandbox.tsUrl}/keys`, {
      method: 'POST',
      headers: {
        'x-typesense-api-key': SECRETS.TS_API_KEY,
        'content-type': 'application/json'
      },
      body: JSON.stringify({
        description: 'expired',
        actions: ['*'],
        collections: ['*'],
        value: 'expired-key-value-123',
        expires_at: 1
      })
    });
    expect(made.status).toBe(201);
    const expired = await connect(
      `typesense ${sandbox.tsUrl} key=\${env:OLD_KEY}`,
      { OLD_KEY: 'expired-key-value-123' }
    );
    try {
      const err = await failureOf(
        expired,
        request('GET', '/collections/books/documents/search', 'q=*')
      );
      expect(err?.ename).toBe('Authentication failed');
      expect(err?.message).toContain('a key past its expires_at');
      expect(err?.message).not.toContain('${env:');
      expect(err?.message).not.toContain('expired-key-value-123');
    } finally {
      await expired.driver.close();
    }
  });

  it('no key at all: the same message', async () => {
    const err = await connectError(`typesense ${sandbox.tsUrl}`);
    expect(
      err.message.startsWith('Forbidden - a valid API key header must be sent.')
    ).toBe(true);
  });

  const search = (query: string) =>
    request('GET', '/collections/books/documents/search', `q=*&${query}`);

  it('sort on a field that is not sortable', async () => {
    const err = await failureOf(ts, search('sort_by=author:asc'));
    expect(err?.message).toMatch(
      /^Could not find a field named `author` in the schema for sorting\. .*"sort": true/
    );
    expect(err?.status).toBe(404);
  });

  it('more than 250 hits per page: advises offset and limit or multi_search', async () => {
    const err = await failureOf(ts, search('per_page=251'));
    expect(err?.message).toMatch(
      /^Only upto 250 hits can be fetched per page\. .*offset and limit.*multi_search/
    );
  });

  it('filter on an undeclared field', async () => {
    const err = await failureOf(ts, search('filter_by=nope:=1'));
    expect(err?.message).toMatch(
      /^Could not find a filter field named `nope` in the schema\. .*auto-schema/
    );
  });

  it('a decimal where an int32 wants a whole number', async () => {
    const err = await failureOf(ts, search('filter_by=year:=1.5'));
    expect(err?.message).toMatch(
      /Not an int32\. An int32 field takes a whole number/
    );
  });

  it('other errors keep the engine message and status', async () => {
    const err = await failureOf(
      ts,
      request('GET', '/collections/none/documents/search', 'q=*')
    );
    expect(err?.message).toMatch(/^Typesense answered 404: /);
  });
});
