/**
 * Saved profiles through the kernel's magics, in process, against the sandbox engines over real
 * sockets: the keyring path with an in-memory implementation of the keyring interface, the
 * platform keyring's failure and its fallbacks, and the secret scan of every output and file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  KeyringUnavailable,
  PlatformKeyring
} from '../../kernel/src/connections/keyring';
import { expectNoSecret, SECRETS } from './helpers';
import {
  InProcessKernel,
  MemoryKeyring,
  tempProfileStore
} from './profile-support';

let sandbox: RunningSandbox;
const kernels: InProcessKernel[] = [];
const files: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 20
  });
});
afterAll(async () => {
  await Promise.all(kernels.map(k => k.close()));
  await sandbox?.close();
});

function kernel(
  ...args: ConstructorParameters<typeof InProcessKernel>
): InProcessKernel {
  const k = new InProcessKernel(...args);
  kernels.push(k);
  files.push(k.store.path);
  return k;
}

const esHost = () => new URL(sandbox.esUrl).host;
const tsHost = () => new URL(sandbox.tsUrl).host;

describe('with a keyring (in-memory implementation of the keyring interface)', () => {
  const keyring = new MemoryKeyring();
  const store = tempProfileStore();

  it('--save stores the password in the keyring and only a reference in the file', async () => {
    const k = kernel({ ES_PASSWORD: SECRETS.ES_PASSWORD }, store, keyring);
    const saved = await k.run(
      `%connect elasticsearch http://elastic@${esHost()} password=\${env:ES_PASSWORD} --save es-kr`
    );
    expect(saved.status).toBe('ok');
    expect(saved.plain[1]).toContain(
      `Saved profile "es-kr" (http://elastic@${esHost()}) in ${store.path}`
    );
    expect(saved.plain[1]).toContain('The password is in the test keyring.');
    expect(keyring.entries.get('es-kr/password')).toBe(SECRETS.ES_PASSWORD);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles[0]).toEqual({
      engine: 'elasticsearch',
      name: 'es-kr',
      host: '127.0.0.1',
      port: Number(new URL(sandbox.esUrl).port),
      ssl: 'disabled',
      skip_verify: false,
      auth: 'basic',
      username: 'elastic',
      password: { keyring: 'es-kr/password' }
    });
    expect(k.connections.active?.name).toBe('es-kr');
  });

  it('%connect <profile> loads the secret from the keyring (no environment, no prompt)', async () => {
    const k = kernel({}, store, keyring);
    const connected = await k.run(
      '%connect es-kr\nGET /_cat/indices?format=json'
    );
    expect(connected.status).toBe('ok');
    expect(connected.plain[0]).toMatch(
      /^Connected to Elasticsearch 8\.15\.0 at http:\/\/127\.0\.0\.1:\d+ as "es-kr"/
    );
    expect(connected.plain[1]).toContain('products');
    expect(keyring.calls).toContain('get es-kr/password');
  });

  it('a Typesense key goes to the keyring too; %connect reads it back', async () => {
    const k = kernel({ TS_API_KEY: SECRETS.TS_API_KEY }, store, keyring);
    expect(
      (
        await k.run(
          `%connect typesense ${tsHost()} key=\${env:TS_API_KEY} --save ts-kr`
        )
      ).status
    ).toBe('ok');
    expect(keyring.entries.get('ts-kr/api_key')).toBe(SECRETS.TS_API_KEY);
    const again = kernel({}, store, keyring);
    const r = await again.run(
      '%connect ts-kr\nGET /collections/books/documents/search?q=*&per_page=2'
    );
    expect(r.status).toBe('ok');
    const listing = await again.run('%connections');
    expect(listing.plain[0]).toContain(tsHost());
    expect(listing.plain[1]).toMatch(
      /ts-kr\s.*typesense\s.*127\.0\.0\.1:\d+\s.*OS keyring/
    );
    expect(listing.plain[1]).toMatch(
      new RegExp(`es-kr\\s.*http://elastic@${esHost().replace('.', '\\.')}`)
    );
  });

  it('a --save whose connection fails saves nothing; one that replaces a profile drops the keyring entries it no longer uses', async () => {
    const k = kernel(
      { ES_PASSWORD: SECRETS.ES_PASSWORD, TS_API_KEY: SECRETS.TS_API_KEY },
      store,
      keyring
    );
    expect(
      (
        await k.run(
          `%connect elasticsearch http://${esHost()} auth=none --save es-kr`
        )
      ).status
    ).toBe('error'); // secured: no connection, no save
    expect(keyring.entries.has('es-kr/password')).toBe(true);
    const replaced = await k.run(
      `%connect typesense ${tsHost()} key=\${env:TS_API_KEY} --save es-kr`
    );
    expect(replaced.plain[1]).toContain(
      'Removed "es-kr/password" from the test keyring.'
    );
    expect([...keyring.entries.keys()].sort()).toEqual([
      'es-kr/api_key',
      'ts-kr/api_key'
    ]);
    expect((await k.run('%profiles')).plain[0]).toMatch(/es-kr\s+typesense/);
    const deleted = await k.run('%profiles delete ts-kr');
    expect(deleted.plain[0]).toContain('Deleted profile "ts-kr"');
    expect(deleted.plain[0]).toContain(
      'Removed "ts-kr/api_key" from the test keyring.'
    );
    expect(keyring.entries.has('ts-kr/api_key')).toBe(false);
    expect((await k.run('%profiles delete es-kr')).status).toBe('ok');
    expect([...keyring.entries.keys()]).toEqual([]);
    const missing = await k.run('%profiles delete es-kr');
    expect(missing.failure?.ename).toBe('UnknownProfile');
    expect((await k.run('%profiles')).plain[0]).toContain('No profiles in');
  });

  it('a keyring entry that is gone: asks when it can, else says how to provide the secret', async () => {
    const k = kernel({ ES_PASSWORD: SECRETS.ES_PASSWORD }, store, keyring);
    await k.run(
      `%connect elasticsearch http://elastic@${esHost()} password=\${env:ES_PASSWORD} --save gone`
    );
    keyring.entries.clear();
    const r = await kernel({}, store, keyring).run('%connect gone');
    expect(r.failure?.ename).toBe('SecretUnavailable');
    expect(r.failure?.evalue).toContain(
      'the test keyring has no entry "gone/password"'
    );
    const asked = kernel({}, store, keyring, () => SECRETS.ES_PASSWORD);
    expect((await asked.run('%connect gone')).status).toBe('ok');
    expect(asked.prompts).toEqual([
      `The password of elastic for http://elastic@${esHost()} (profile "gone"): `
    ]);
  });
});

describe('without a keyring', () => {
  it('the platform keyring here fails as unavailable (no Secret Service), and says why', async () => {
    const platform = new PlatformKeyring();
    const err = await platform.get('searchbook-test-probe').then(
      () => undefined,
      (e: unknown) => e
    );
    if (err === undefined) {
      // A real keyring answered (a desktop session): nothing here may write to it.
      console.warn(
        'a platform keyring is available here; its failure path is not exercised'
      );
      return;
    }
    expect(err).toBeInstanceOf(KeyringUnavailable);
    expect((err as Error).message).toMatch(/^no OS keyring is available \(/);
    await expect(
      platform.set('searchbook-test-probe', SECRETS.WRONG)
    ).rejects.toThrow(KeyringUnavailable);
    await expect(
      platform.set('searchbook-test-probe', SECRETS.WRONG)
    ).rejects.not.toThrow(SECRETS.WRONG);
  });

  it('--save keeps the ${env:NAME} the cell used, and %connect <profile> reads it', async () => {
    const keyring = new MemoryKeyring();
    keyring.unavailable = true;
    const store = tempProfileStore();
    const k = kernel({ ES_PASSWORD: SECRETS.ES_PASSWORD }, store, keyring);
    const saved = await k.run(
      `%connect elasticsearch http://elastic@${esHost()} password=\${env:ES_PASSWORD} --save es-env`
    );
    expect(saved.plain[1]).toContain(
      'The password is read from ${env:ES_PASSWORD} at connect time: no OS keyring is available (test: switched off).'
    );
    expect(
      JSON.parse(readFileSync(store.path, 'utf8')).profiles[0].password
    ).toBe('${env:ES_PASSWORD}');
    expect(
      (
        await kernel({ ES_PASSWORD: SECRETS.ES_PASSWORD }, store, keyring).run(
          '%connect es-env'
        )
      ).status
    ).toBe('ok');
    const unset = await kernel({}, store, keyring).run('%connect es-env');
    expect(unset.failure?.evalue).toContain(
      'the environment variable ES_PASSWORD is not set'
    );
    expect(unset.failure?.hint).toContain(
      `"password": "\${env:NAME}" in profile "es-env" in ${store.path}`
    );
  });

  it('a secret that came from the prompt is not saved anywhere: the profile asks again', async () => {
    const keyring = new MemoryKeyring();
    keyring.unavailable = true;
    const store = tempProfileStore();
    const k = kernel({}, store, keyring, () => SECRETS.TS_API_KEY);
    const saved = await k.run(`%connect typesense ${tsHost()} --save ts-ask`);
    expect(saved.status).toBe('ok');
    expect(k.prompts).toEqual([`The Typesense API key for ${tsHost()}: `]);
    expect(saved.plain[1]).toContain(
      'The API key is not saved, so it will be asked for at connect time'
    );
    expect(
      JSON.parse(readFileSync(store.path, 'utf8')).profiles[0]
    ).not.toHaveProperty('api_key');
  });
});

it('no output, prompt or profiles file held a secret', () => {
  const texts = [
    ...kernels.flatMap(k => [...k.outputs, ...k.prompts]),
    ...[...new Set(files)]
      .filter(f => existsSync(f))
      .map(f => readFileSync(f, 'utf8'))
  ];
  expect(texts.length).toBeGreaterThan(20);
  for (const text of texts) {
    expectNoSecret(text);
  }
});
