/**
 * SSL modes (disabled, preferred, required, verify CA, verify identity) over real sockets:
 * every Elasticsearch target that serves HTTPS (the sandbox and the real 8.19.21 node, each
 * with a CA of its own), a server whose certificate names another host, plain HTTP, and the
 * Typesense sandbox.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { generateCertificates, writeCaFile } from '@searchbook/sandbox/tls';
import {
  describeEachTarget,
  elasticsearchTlsTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { connect, connectError, expectNoSecret, SECRETS } from './helpers';

const ES_AUTH = 'auth=basic user=elastic password=${env:ES_PASSWORD}';
const TS_AUTH = 'key=${env:TS_API_KEY}';

let tls: RunningSandbox;
let plain: RunningSandbox;
/** An Elasticsearch whose certificate is signed by a known CA but names only db.searchbook.test. */
let otherName: ListeningServer;
let otherNameCa: string;
let tmp: string;

beforeAll(async () => {
  const base = {
    esPort: 0,
    tsPort: 0,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 20
  };
  [tls, plain] = await Promise.all([
    startSandbox({ ...base, tls: true }),
    startSandbox({ ...base, tls: false })
  ]);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'searchbook-ssl-'));
  const certs = await generateCertificates({
    dns: ['db.searchbook.test'],
    ips: []
  });
  otherNameCa = await writeCaFile(certs, path.join(tmp, 'other-ca.pem'));
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: true,
    password: SECRETS.ES_PASSWORD
  });
  otherName = await listen(es.handler, {
    port: 0,
    tls: { cert: certs.cert, key: certs.key }
  });
});

afterAll(async () => {
  await Promise.all([tls?.close(), plain?.close(), otherName?.close()]);
  if (tmp) {
    await rm(tmp, { recursive: true, force: true });
  }
});

async function connectsAs(line: string): Promise<string> {
  const connection = await connect(line);
  try {
    return connection.address;
  } finally {
    await connection.driver.close();
  }
}

describeEachTarget(
  elasticsearchTlsTargets(),
  'HTTPS with a certificate from an unknown CA (its own CA, not given)',
  target => {
    let engine: RunningEsTarget;
    beforeAll(async () => {
      engine = await target.start({ security: true, tls: true });
    }, REAL_START_TIMEOUT_MS);
    afterAll(() => engine?.close());
    const caFile = (): string => {
      if (!engine.caFile) {
        throw new Error(`${target.name} over HTTPS gave no CA file`);
      }
      return engine.caFile;
    };

    it.each(['', 'ssl=preferred', 'ssl=required'])(
      'accepts it under %s (https:// means required)',
      async mode => {
        expect(
          await connectsAs(`elasticsearch ${engine.url} ${mode} ${ES_AUTH}`)
        ).toBe(engine.url);
      }
    );

    it.each(['verify-ca', 'verify-identity'])(
      'refuses it under ssl=%s with advice',
      async mode => {
        const err = await connectError(
          `elasticsearch ${engine.url} ssl=${mode} ${ES_AUTH}`
        );
        expect(err.ename).toBe('Connection failed');
        expect(err.message).toMatch(
          /^Connection failed: the certificate of .* is not signed by a trusted CA/
        );
        expect(err.message).toContain('ssl=required');
        expect(err.message).toContain('skip_verify');
        expectNoSecret(err.message);
      }
    );

    it.each(['verify-ca', 'verify-identity'])(
      'accepts it under ssl=%s with skip_verify',
      async mode => {
        expect(
          await connectsAs(
            `elasticsearch ${engine.url} ssl=${mode} skip_verify ${ES_AUTH}`
          )
        ).toBe(engine.url);
      }
    );

    it.each(['verify-ca', 'verify-identity'])(
      'accepts it under ssl=%s with the right ca= file',
      async mode => {
        expect(
          await connectsAs(
            `elasticsearch ${engine.url} ssl=${mode} ca=${caFile()} ${ES_AUTH}`
          )
        ).toBe(engine.url);
      }
    );

    it('refuses another CA file under verify-ca', async () => {
      const err = await connectError(
        `elasticsearch ${engine.url} ssl=verify-ca ca=${otherNameCa} ${ES_AUTH}`
      );
      expect(err.message).toMatch(
        /^Connection failed: the certificate of .* is not signed by a trusted CA/
      );
      expectNoSecret(err.message);
    });

    it('uses https for a bare host with an HTTPS mode', async () => {
      const hostPort = engine.url.replace('https://', '');
      expect(
        await connectsAs(
          `elasticsearch ${hostPort} ssl=verify-identity ca=${caFile()} ${ES_AUTH}`
        )
      ).toBe(engine.url);
    });

    it('a wrong password over HTTPS: Authentication failed, without the secret', async () => {
      const err = await connectError(
        `elasticsearch ${engine.url} ssl=verify-identity ca=${caFile()} auth=basic user=elastic password=\${env:WRONG}`
      );
      expect(err.ename).toBe('Authentication failed');
      expectNoSecret(err.message);
    });

    it('plain HTTP to it fails as Connection failed, with no fallback, suggesting HTTPS', async () => {
      const err = await connectError(
        `elasticsearch ${engine.url.replace('https:', 'http:')} ${ES_AUTH}`
      );
      expect(err.ename).toBe('Connection failed');
      // A real node closes a plain-HTTP connection on its HTTPS port without a word, as the sandbox does.
      expect(err.message).toMatch(
        /^Connection failed: .* closed the connection or did not answer HTTP .*write an https:\/\/ address/
      );
      expectNoSecret(err.message);
    });

    it('ssl=disabled with a bare host speaks plain HTTP to it and fails the same way', async () => {
      const hostPort = engine.url.replace('https://', '');
      const err = await connectError(
        `elasticsearch ${hostPort} ssl=disabled ${ES_AUTH}`
      );
      expect(err.message).toMatch(/^Connection failed: .*https:\/\//);
    });
  }
);

describe('a certificate that does not name the host connected to', () => {
  const url = (): string => otherName.url; // https://127.0.0.1:<port>; the certificate names db.searchbook.test only

  it('verify-identity refuses it and suggests verify-ca or the right host', async () => {
    const err = await connectError(
      `elasticsearch ${url()} ssl=verify-identity ca=${otherNameCa} ${ES_AUTH}`
    );
    expect(err.message).toMatch(
      /^Connection failed: the certificate of .* does not name this host/
    );
    expect(err.message).toContain('ssl=verify-ca');
    expectNoSecret(err.message);
  });

  it('verify-ca accepts it: the chain is checked, the name is not', async () => {
    expect(
      await connectsAs(
        `elasticsearch ${url()} ssl=verify-ca ca=${otherNameCa} ${ES_AUTH}`
      )
    ).toBe(url());
  });

  it('verify-ca still checks the chain: the wrong CA file is refused', async () => {
    const err = await connectError(
      `elasticsearch ${url()} ssl=verify-ca ca=${tls.caFile} ${ES_AUTH}`
    );
    expect(err.message).toMatch(/not signed by a trusted CA/);
  });

  it('skip_verify trusts it under verify-identity', async () => {
    expect(
      await connectsAs(
        `elasticsearch ${url()} ssl=verify-identity skip_verify ${ES_AUTH}`
      )
    ).toBe(url());
  });
});

describe('plain HTTP', () => {
  it('ssl=disabled (and the default for http://) connects to a plain server', async () => {
    expect(await connectsAs(`elasticsearch ${plain.esUrl} ${ES_AUTH}`)).toBe(
      plain.esUrl
    );
    expect(
      await connectsAs(`elasticsearch ${plain.esUrl} ssl=disabled ${ES_AUTH}`)
    ).toBe(plain.esUrl);
  });

  it('HTTPS to a plain server fails as Connection failed, suggesting http://', async () => {
    const err = await connectError(
      `elasticsearch ${plain.esUrl.replace('http:', 'https:')} ${ES_AUTH}`
    );
    expect(err.message).toMatch(
      /^Connection failed: .* does not answer HTTPS.*http:\/\//
    );
  });

  it('nothing listening: Connection failed naming the address', async () => {
    const closed = await listen((_q, s) => s.end(), { port: 0 });
    await closed.close();
    const err = await connectError(`elasticsearch ${closed.url} ${ES_AUTH}`);
    expect(err.message).toMatch(
      /^Connection failed: nothing accepts connections at .*ECONNREFUSED/
    );
  });
});

describe('Typesense: disabled is HTTP, every other mode HTTPS', () => {
  it('connects over HTTP by default and with ssl=disabled', async () => {
    expect(await connectsAs(`typesense ${plain.tsUrl} ${TS_AUTH}`)).toBe(
      plain.tsUrl
    );
    expect(
      await connectsAs(`typesense ${plain.tsUrl} ssl=disabled ${TS_AUTH}`)
    ).toBe(plain.tsUrl);
  });

  it.each(['preferred', 'required', 'verify-ca', 'verify-identity'])(
    'ssl=%s uses HTTPS: trusted with ca=, refused without, accepted with skip_verify',
    async mode => {
      const hostPort = tls.tsUrl.replace('https://', '');
      expect(
        await connectsAs(
          `typesense ${hostPort} ssl=${mode} ca=${tls.caFile} ${TS_AUTH}`
        )
      ).toBe(tls.tsUrl);
      const err = await connectError(
        `typesense ${hostPort} ssl=${mode} ${TS_AUTH}`
      );
      expect(err.message).toMatch(
        /^Connection failed: the certificate .* not signed by a trusted CA.*skip_verify/
      );
      expectNoSecret(err.message);
      expect(
        await connectsAs(
          `typesense ${hostPort} ssl=${mode} skip_verify ${TS_AUTH}`
        )
      ).toBe(tls.tsUrl);
    }
  );

  it('a hosted-style bare host with an HTTPS mode defaults to port 443', async () => {
    const { parseConnectArgs } =
      await import('../../kernel/src/connections/connect-args');
    const { typesenseEngine } =
      await import('../../kernel/src/engines/typesense/descriptor');
    const args = parseConnectArgs(
      'typesense xyz.a1.typesense.net ssl=required key=${env:TS_API_KEY}',
      n => (n === 'TS_API_KEY' ? 'k' : undefined)
    );
    expect(args.url).toBe('https://xyz.a1.typesense.net');
    expect(typesenseEngine.defaultPort(args.ssl)).toBe(443);
  });
});
