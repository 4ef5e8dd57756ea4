/**
 * `auth=aws-sigv4` over the wire (kernel process, ZeroMQ): against a loopback stand-in for an
 * Amazon OpenSearch Service domain that checks every request's AWS Signature Version 4 itself
 * (node:crypto, test/support/sigv4-verifying-proxy.ts) in front of a sandbox engine. Credentials
 * live only in the kernel's environment or its AWS shared files; the secret reaches no output.
 * Refused lines send nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import { scratchDir } from '../export/export-helpers';
import { PanelCommClient } from '../panel/panel-comm-client';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { textOf } from '../support/shown-text';
import {
  ECHO_TOKEN_PATH,
  signatureFailure,
  startVerifyingProxy,
  type VerifyingProxy
} from '../support/sigv4-verifying-proxy';
import { KernelMessage } from '../support/kernel-messages';

const COUNT = 120;
const KEY_ID = 'AKIASEARCHBOOKTEST42';
const SECRET_KEY = 'sEcReT/aws+Key/0123456789abcdefghijKLMNOP';
const SESSION_TOKEN = 'IQoJsessionTOKEN/for+searchbook//test==';
const PROFILE_KEY_ID = 'AKIAPROFILEFILEKEY77';
const PROFILE_SECRET = 'pRoFiLe/secret+0123456789abcdefghijKLMNO';
const SECRETS_HERE = [SECRET_KEY, SESSION_TOKEN, PROFILE_SECRET];

/** Every AWS variable the kernel could inherit, emptied: each test says where its credentials are. */
const NO_AWS = {
  AWS_ACCESS_KEY_ID: '',
  AWS_SECRET_ACCESS_KEY: '',
  AWS_SESSION_TOKEN: '',
  AWS_PROFILE: '',
  AWS_REGION: '',
  AWS_DEFAULT_REGION: '',
  AWS_SHARED_CREDENTIALS_FILE: '',
  AWS_CONFIG_FILE: ''
};

let sandbox: RunningSandbox;
let domain: VerifyingProxy;

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: false,
    products: COUNT
  });
  domain = await startVerifyingProxy(sandbox.esUrl, {
    keys: { [KEY_ID]: SECRET_KEY, [PROFILE_KEY_ID]: PROFILE_SECRET },
    region: 'eu-west-1',
    service: 'es'
  });
}, 60_000);
afterAll(async () => {
  await domain?.close();
  await sandbox?.close();
});
beforeEach(() => {
  domain.seen.length = 0;
});

/** What the kernel said: every message but execute_input, which only repeats the cell as typed. */
const everything = (messages: IopubMessage[]) =>
  JSON.stringify(messages.filter(m => m.header.msg_type !== 'execute_input'));
const plainOf = (messages: IopubMessage[]) =>
  messages
    .map(m =>
      [textOf(m), ...(KernelMessage.isErrorMsg(m) ? m.content.traceback : [])]
        .filter(t => typeof t === 'string')
        .join('\n')
    )
    .join('\n');

/** Names which secrets the text holds, so a failure does not print the whole text. */
function expectNoAwsSecret(text: string): void {
  expect(
    SECRETS_HERE.filter(secret => text.includes(secret)).map(
      secret => `${secret.slice(0, 4)}…`
    )
  ).toEqual([]);
}

it('the verifying domain holds AWS’s published signatures and refuses a request changed after signing', () => {
  // AWS's get-vanilla and post-x-www-form-urlencoded (test/fixtures/aws-sigv4-test-suite), as received.
  const suite = {
    keys: { AKIDEXAMPLE: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    region: 'us-east-1',
    service: 'service'
  };
  const vanilla = {
    method: 'GET',
    url: '/',
    headers: {
      host: 'example.amazonaws.com',
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'
    },
    body: Buffer.alloc(0)
  };
  expect(signatureFailure(vanilla, suite)).toBeUndefined();
  const form = {
    method: 'POST',
    url: '/',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      host: 'example.amazonaws.com',
      'content-length': '13',
      'x-amz-date': '20150830T123600Z',
      'x-amz-content-sha256':
        '9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date, Signature=d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b'
    },
    body: Buffer.from('Param1=value1')
  };
  expect(signatureFailure(form, suite)).toBeUndefined();
  expect(
    signatureFailure({ ...form, body: Buffer.from('Param1=value2') }, suite)
  ).toMatch(/x-amz-content-sha256/);
  expect(signatureFailure({ ...vanilla, url: '/?a=b' }, suite)).toMatch(
    /does not match/
  );
});

describe('credentials from the environment, with a session token', () => {
  let kernel: KernelClient;
  const cwd = scratchDir();
  const configDir = scratchDir();

  beforeAll(async () => {
    kernel = await KernelClient.start(
      {
        ...NO_AWS,
        HOME: scratchDir(),
        JUPYTER_CONFIG_DIR: configDir,
        AWS_ACCESS_KEY_ID: KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_KEY,
        AWS_SESSION_TOKEN: SESSION_TOKEN
      },
      { cwd }
    );
  }, 60_000);
  afterAll(async () => {
    await kernel?.close();
  });

  it('signs every request of %connect, a search, an export and the panel’s grid; the output says how, and never the secret', async () => {
    const connected = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 region=eu-west-1 name=aws`
    );
    expect(connected.reply.content.status).toBe('ok');
    const said = plainOf(connected.iopub);
    expect(said).toContain(
      `auth=aws-sigv4 region=eu-west-1 service=es (access key …${KEY_ID.slice(-4)} from the environment (AWS_ACCESS_KEY_ID))`
    );
    expect(said).not.toContain(KEY_ID);

    const search = await kernel.execute(
      'GET /products/_search?q=*&size=2&filter_path=hits.total,hits.hits._id\n{"sort": [{"_doc": "asc"}]}'
    );
    expect(search.reply.content.status).toBe('ok');
    expect(everything(search.iopub)).toContain('"_id"');

    // An answer quoting the session token shows where it is kept instead.
    const echoed = await kernel.execute(`GET ${ECHO_TOKEN_PATH}`);
    expect(echoed.reply.content.status).toBe('error');
    expect(plainOf(echoed.iopub)).toContain(
      'expired token ${env:AWS_SESSION_TOKEN}'
    );

    // A name without a value, commas and colons: the query is signed as AWS reads it.
    const listed = await kernel.execute(
      'GET /_cat/indices?v&h=index,docs.count&s=index:desc&format=json'
    );
    expect(listed.reply.content.status).toBe('ok');
    expect(everything(listed.iopub)).toContain('products');

    const exported = await kernel.execute('%export products products.jsonl');
    expect(exported.reply.content.status).toBe('ok');
    expect(
      readFileSync(join(cwd, 'products.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
    ).toHaveLength(COUNT);

    const panel = await PanelCommClient.open(kernel);
    const connections = await panel.expect(
      { type: 'connections' },
      'connections'
    );
    expect(connections.connections[0]?.auth).toMatch(
      /^auth=aws-sigv4 region=eu-west-1 service=es /
    );
    const opened = await panel.expect(
      { type: 'open', connection: 'aws', target: 'products', blockSize: 50 },
      'opened'
    );
    expect(opened.request.curl).toContain(
      '--aws-sigv4 "aws:amz:eu-west-1:es" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H "x-amz-security-token: $AWS_SESSION_TOKEN"'
    );
    await panel.expect(
      { type: 'read', gridId: opened.gridId, block: 1 },
      'block'
    );

    const seen = domain.seen;
    expect(seen.map(r => r.failure)).toEqual(seen.map(() => undefined));
    // GET / of %connect, the search, the export's pages, the grid's point in time and pages.
    expect(seen.some(r => r.url === '/')).toBe(true);
    expect(seen.some(r => r.url.startsWith('/products/_search?q='))).toBe(true);
    expect(seen.some(r => r.method === 'POST' && r.url.includes('_pit'))).toBe(
      true
    );
    expect(seen.length).toBeGreaterThan(5);
    for (const request of seen) {
      expect(request.headers['x-amz-security-token']).toBe(SESSION_TOKEN);
      expect(request.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
      expect(request.headers.authorization).toContain(`Credential=${KEY_ID}/`);
    }
    expectNoAwsSecret(everything(kernel.iopubMessages()));
    expectNoAwsSecret(kernel.stderr);
  });

  it('keeps auth=aws-sigv4, region and service in a profile, and no credential; the profile opens signed again', async () => {
    const saved = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 region=eu-west-1 service=es --save aws-domain`
    );
    expect(saved.reply.content.status).toBe('ok');
    const file = readFileSync(
      join(configDir, 'searchbook', 'profiles.json'),
      'utf8'
    );
    expect(JSON.parse(file)).toMatchObject({
      profiles: [
        {
          name: 'aws-domain',
          engine: 'elasticsearch',
          auth: 'aws-sigv4',
          region: 'eu-west-1',
          service: 'es'
        }
      ]
    });
    expect(file).not.toContain(KEY_ID);
    expectNoAwsSecret(file);
    domain.seen.length = 0;
    const reopened = await kernel.execute('%connect aws-domain');
    expect(reopened.reply.content.status).toBe('ok');
    expect(plainOf(reopened.iopub)).toContain(
      'auth=aws-sigv4 region=eu-west-1 service=es'
    );
    const profiles = await kernel.execute('%profiles');
    expect(plainOf(profiles.iopub)).toMatch(/^aws-domain .* aws-sigv4 /m);
    expect(domain.seen.length).toBeGreaterThan(0);
    expect(domain.seen.map(r => r.failure)).toEqual(
      domain.seen.map(() => undefined)
    );
  });

  it('refuses an AWS secret written on the line, says where it goes instead, and sends nothing', async () => {
    const { reply, iopub } = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 region=eu-west-1 aws_secret_access_key=${SECRET_KEY}`
    );
    expect(reply.content.status).toBe('error');
    const said = plainOf(iopub);
    expect(said).toContain('AWS_SECRET_ACCESS_KEY');
    expect(said).toContain('~/.aws/credentials');
    expectNoAwsSecret(said);
    const history = await kernel.request('shell', 'history_request', {
      output: false,
      raw: true,
      hist_access_type: 'tail',
      n: 5
    });
    expectNoAwsSecret(JSON.stringify(history.content));
    const referenced = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 region=eu-west-1 aws_session_token=\${env:AWS_SESSION_TOKEN}`
    );
    expect(referenced.reply.content.status).toBe('error');
    expect(plainOf(referenced.iopub)).toContain('AWS_SESSION_TOKEN');
    const password = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 user=elastic password=\${env:AWS_SECRET_ACCESS_KEY}`
    );
    expect(password.reply.content.status).toBe('error');
    expect(plainOf(password.iopub)).toMatch(/user=, password= do not apply/);
    expectNoAwsSecret(everything(kernel.iopubMessages()));
    expect(domain.seen).toEqual([]);
  });
});

describe('credentials from the AWS shared files, no session token', () => {
  let kernel: KernelClient;
  const home = scratchDir();

  beforeAll(async () => {
    mkdirSync(join(home, '.aws'));
    writeFileSync(
      join(home, '.aws', 'credentials'),
      `[default]\naws_access_key_id = AKIAOTHERDEFAULTKEY0\naws_secret_access_key = other\n\n[search]\naws_access_key_id = ${PROFILE_KEY_ID}\naws_secret_access_key = ${PROFILE_SECRET}\n`
    );
    const config = join(home, 'elsewhere-config');
    writeFileSync(config, '[profile search]\nregion = eu-west-1\n');
    kernel = await KernelClient.start({
      ...NO_AWS,
      HOME: home,
      AWS_CONFIG_FILE: config
    });
  }, 60_000);
  afterAll(async () => {
    await kernel?.close();
  });

  it('reads the profile named by aws_profile=, its region from AWS_CONFIG_FILE, and sends no token', async () => {
    const connected = await kernel.execute(
      `%connect elasticsearch ${domain.url} auth=aws-sigv4 aws_profile=search`
    );
    expect(connected.reply.content.status).toBe('ok');
    expect(plainOf(connected.iopub)).toContain(
      `auth=aws-sigv4 region=eu-west-1 service=es (access key …${PROFILE_KEY_ID.slice(-4)} from the profile "search" of ${join(home, '.aws', 'credentials')})`
    );
    const search = await kernel.execute(
      'POST /products/_search\n{"query": {"match_all": {}}, "size": 1}'
    );
    expect(search.reply.content.status).toBe('ok');
    expect(domain.seen.length).toBeGreaterThan(1);
    for (const request of domain.seen) {
      expect(request.failure).toBeUndefined();
      expect(request.headers['x-amz-security-token']).toBeUndefined();
    }
    expectNoAwsSecret(everything(kernel.iopubMessages()));
  });
});

it('a signature AWS would refuse fails %connect as Authentication failed, naming what to check and not the secret', async () => {
  const wrong = 'wRoNg/secret+0123456789abcdefghijKLMNOPQ';
  const kernel = await KernelClient.start({
    ...NO_AWS,
    HOME: scratchDir(),
    AWS_ACCESS_KEY_ID: KEY_ID,
    AWS_SECRET_ACCESS_KEY: wrong,
    AWS_REGION: 'eu-west-1'
  });
  try {
    const { reply, iopub } = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4`
    );
    expect(reply.content.status).toBe('error');
    expect(errorOf(reply).ename).toBe('Authentication failed');
    const said = plainOf(iopub);
    expect(said).toContain(
      'The request signature we calculated does not match the signature you provided.'
    );
    expect(said).toContain('AWS_SECRET_ACCESS_KEY');
    expect(domain.seen).toHaveLength(1);
    expect(domain.seen[0]?.failure).toMatch(/does not match/);
    expect(everything(kernel.iopubMessages())).not.toContain(wrong);
  } finally {
    await kernel.close();
  }
});

it('an OpenSearch Serverless collection (service=aoss), which has no GET /, connects as OpenSearch Serverless; every request signed for aoss with its body hash', async () => {
  const collection = await startVerifyingProxy(sandbox.esUrl, {
    keys: { [KEY_ID]: SECRET_KEY },
    region: 'us-east-2',
    service: 'aoss',
    noRootInfo: true
  });
  const kernel = await KernelClient.start({
    ...NO_AWS,
    HOME: scratchDir(),
    AWS_ACCESS_KEY_ID: KEY_ID,
    AWS_SECRET_ACCESS_KEY: SECRET_KEY,
    AWS_REGION: 'us-east-2'
  });
  try {
    const connected = await kernel.execute(
      `%connect opensearch ${collection.url} auth=aws-sigv4 service=aoss`
    );
    expect(connected.reply.content.status).toBe('ok');
    expect(plainOf(connected.iopub)).toContain(
      `Connected to OpenSearch Serverless at ${collection.url}`
    );
    expect(plainOf(connected.iopub)).toContain(
      'auth=aws-sigv4 region=us-east-2 service=aoss'
    );
    const search = await kernel.execute(
      'POST /products/_search\n{"query": {"match_all": {}}, "size": 1}'
    );
    expect(search.reply.content.status).toBe('ok');
    expect(collection.seen.some(r => r.url === '/')).toBe(false);
    expect(collection.seen.length).toBeGreaterThan(1);
    for (const request of collection.seen) {
      expect(request.failure).toBeUndefined();
      expect(request.headers['x-amz-content-sha256']).toBeDefined();
    }
    expectNoAwsSecret(everything(kernel.iopubMessages()));
  } finally {
    await kernel.close();
    await collection.close();
  }
});

describe('nothing to sign with', () => {
  let kernel: KernelClient;

  beforeAll(async () => {
    kernel = await KernelClient.start({ ...NO_AWS, HOME: scratchDir() });
  }, 60_000);
  afterAll(async () => {
    await kernel?.close();
  });

  it('without credentials, says which variables or file to set, and sends nothing', async () => {
    const { reply, iopub } = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 region=eu-west-1`
    );
    expect(reply.content.status).toBe('error');
    const said = plainOf(iopub);
    expect(said).toContain('No AWS credentials were found');
    expect(said).toContain('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    expect(said).toContain('Nothing was sent.');
    expect(domain.seen).toEqual([]);
  });

  it('without a region, says where to give one, and sends nothing', async () => {
    const { reply, iopub } = await kernel.execute(
      `%connect opensearch ${domain.url} auth=aws-sigv4 aws_profile=nope`
    );
    expect(reply.content.status).toBe('error');
    expect(plainOf(iopub)).toContain('"nope"');
    const keysOnly = await KernelClient.start({
      ...NO_AWS,
      HOME: scratchDir(),
      AWS_ACCESS_KEY_ID: KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET_KEY
    });
    try {
      const missing = await keysOnly.execute(
        `%connect opensearch ${domain.url} auth=aws-sigv4`
      );
      expect(missing.reply.content.status).toBe('error');
      const said = plainOf(missing.iopub);
      expect(said).toContain('region=<region>');
      expect(said).toContain('AWS_REGION');
      expect(said).toContain('Nothing was sent.');
      expectNoAwsSecret(everything(keysOnly.iopubMessages()));
    } finally {
      await keysOnly.close();
    }
    expect(domain.seen).toEqual([]);
  });

  it('refuses region= without auth=aws-sigv4, and a service it does not sign for', async () => {
    const stray = await kernel.execute(
      `%connect elasticsearch ${domain.url} region=eu-west-1`
    );
    expect(stray.reply.content.status).toBe('error');
    expect(plainOf(stray.iopub)).toContain(
      'region= applies only to auth=aws-sigv4'
    );
    const service = await kernel.execute(
      `%connect elasticsearch ${domain.url} auth=aws-sigv4 region=eu-west-1 service=s3`
    );
    expect(service.reply.content.status).toBe('error');
    expect(plainOf(service.iopub)).toContain('service=aoss');
    expect(domain.seen).toEqual([]);
  });
});
