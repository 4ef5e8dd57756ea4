/**
 * Scoped search keys over the wire (kernel process, ZeroMQ, the Typesense sandbox and the run's
 * real Typesense server over HTTP):
 * computed from a search-only parent with parameters embedded, the value given once (sealed for
 * the panel, or in the one reply) and in no other message or log line; the key searches with
 * its filter on the engine; parents the engine would refuse are refused before a key is made.
 */
import {
  constants,
  createHmac,
  generateKeyPairSync,
  privateDecrypt
} from 'node:crypto';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import {
  type RunningTsTarget,
  TS_START_TIMEOUT_MS,
  typesenseTargets
} from '../support/typesense-targets';
import { type PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

// Keys stay on the real server for the whole run: each run of this suite makes its own.
const RUN = Date.now().toString(36);
const SEARCH_PARENT = `parent-search-key-7Qm2x9-${RUN}`;
const WIDE_KEY = `wide-key-every-action-31-${RUN}`;

let kernel: KernelClient;
let comm: PanelCommClient;
let server: RunningTsTarget;
let companies = 'companies';

async function call(
  path: string,
  key: string,
  init: RequestInit = {}
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'x-typesense-api-key': key, 'content-type': 'application/json' }
  });
}

const companyIds = async (key: string): Promise<number[]> => {
  const r = await call(
    `/collections/${companies}/documents/search?q=*&query_by=name&sort_by=company_id:asc`,
    key
  );
  expect(r.status).toBe(200);
  const body = (await r.json()) as {
    hits: { document: { company_id: number } }[];
  };
  return body.hits.map(h => h.document.company_id);
};

describe.each(typesenseTargets('29.0'))('$name', target => {
  beforeAll(async () => {
    if (target.skipped) {
      throw new Error(target.skipped);
    }
    server = await target.start([
      {
        schema: {
          name: 'companies',
          fields: [
            { name: 'name', type: 'string' },
            { name: 'company_id', type: 'int32' }
          ]
        },
        docs: [
          { id: '1', name: 'Acme north', company_id: 124 },
          { id: '2', name: 'Acme south', company_id: 124 },
          { id: '3', name: 'Globex', company_id: 126 }
        ]
      }
    ]);
    companies = server.names['companies'] ?? companies;
    for (const [value, actions] of [
      [SEARCH_PARENT, ['documents:search']],
      [WIDE_KEY, ['*']]
    ] as const) {
      const made = await call('/keys', SECRETS.TS_API_KEY, {
        method: 'POST',
        body: JSON.stringify({
          description: value,
          actions,
          collections: ['*'],
          value
        })
      });
      expect(made.status).toBe(201);
    }
    ({ kernel, comm } = await kernelWithPanelComm(
      [`%connect typesense ${server.url} key=\${env:TS_API_KEY} name=ts`],
      SECRETS
    ));
  }, TS_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  test('the keys section offers scoped search keys', async () => {
    const { offers } = await comm.expect(
      { type: 'offers', connection: 'ts' },
      'offers'
    );
    expect(offers.keys?.scoped?.title).toBe('Scoped search key…');
    expect(offers.keys?.scoped?.example).toContain('filter_by');
  });

  test('a sealed scoped key is the official clients’ key, searches only what its filter allows, and crosses no message in clear', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048
    });
    const params = {
      filter_by: 'company_id:124',
      expires_at: Math.floor(Date.now() / 1000) + 3600
    };
    const made = await comm.expect(
      {
        type: 'scopedKey',
        connection: 'ts',
        scoped: { parentKey: SEARCH_PARENT, params },
        sealWith: publicKey
          .export({ format: 'der', type: 'spki' })
          .toString('base64')
      },
      'scopedKeyMade'
    );
    expect(made.value).toBeUndefined();
    const value = privateDecrypt(
      {
        key: privateKey,
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256'
      },
      Buffer.from(made.sealed ?? '', 'base64')
    ).toString('utf8');
    const json = JSON.stringify(params);
    const digest = createHmac('sha256', SEARCH_PARENT)
      .update(json)
      .digest('base64');
    expect(value).toBe(
      Buffer.from(digest + SEARCH_PARENT.slice(0, 4) + json).toString('base64')
    );
    expect(made).toMatchObject({ parentPrefix: 'pare', embedded: json });

    expect(await companyIds(SECRETS.TS_API_KEY)).toEqual([124, 124, 126]);
    expect(await companyIds(value)).toEqual([124, 124]);

    const everything = JSON.stringify(kernel.iopubMessages());
    expect(everything).not.toContain(value);
    expect(everything).not.toContain(SEARCH_PARENT);
    expect(kernel.stderr).not.toContain(value);
    expect(kernel.stderr).not.toContain(SEARCH_PARENT);
  });

  test('without a seal, the value is in the one reply and in no other message or log line', async () => {
    const made = await comm.expect(
      {
        type: 'scopedKey',
        connection: 'ts',
        scoped: {
          parentKey: SEARCH_PARENT,
          params: { filter_by: 'company_id:126' }
        }
      },
      'scopedKeyMade'
    );
    const value = made.value ?? '';
    expect(await companyIds(value)).toEqual([126]);
    const carrying = kernel
      .iopubMessages()
      .filter(m => JSON.stringify(m).includes(value));
    expect(
      carrying.map(m => ('data' in m.content ? m.content.data.type : undefined))
    ).toEqual(['scopedKeyMade']);
    expect(kernel.stderr).not.toContain(value);
  });

  test('refuses parents and parameters the engine would refuse, saying what to use, without echoing the parent', async () => {
    const wide = await comm.call({
      type: 'scopedKey',
      connection: 'ts',
      scoped: { parentKey: WIDE_KEY, params: { filter_by: 'company_id:124' } }
    });
    expect(wide).toMatchObject({
      type: 'error',
      message: expect.stringContaining('documents:search')
    });
    const unknown = await comm.call({
      type: 'scopedKey',
      connection: 'ts',
      scoped: {
        parentKey: 'zzzz-not-a-key-here',
        params: { filter_by: 'company_id:124' }
      }
    });
    expect(unknown).toMatchObject({
      type: 'error',
      message: expect.stringContaining(
        'No key on this server starts with "zzzz"'
      )
    });
    const millis = await comm.call({
      type: 'scopedKey',
      connection: 'ts',
      scoped: {
        parentKey: SEARCH_PARENT,
        params: { expires_at: Date.now() + 3_600_000 }
      }
    });
    expect(millis).toMatchObject({
      type: 'error',
      message: expect.stringContaining('looks like milliseconds')
    });
    for (const reply of [wide, unknown, millis]) {
      expect(JSON.stringify(reply)).not.toContain(WIDE_KEY);
      expect(JSON.stringify(reply)).not.toContain('zzzz-not-a-key-here');
    }
  });
});
