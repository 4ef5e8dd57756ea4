/**
 * Connection profiles through a real kernel process over ZeroMQ, against the sandbox engines
 * over HTTPS (and, for a verify-identity profile with its CA file, every Elasticsearch target
 * that serves HTTPS: the sandbox and the real 8.19.21 node): --save, %connect <profile> with an ${env:NAME} secret and with Jupyter's password
 * prompt answered on the stdin channel, the refusal when the frontend allows no input,
 * %connections, URL export, Typesense URL refusal, a bad profiles file. Every output, input
 * request, the kernel's stderr and the profiles file are scanned for the known secrets.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { expectNoSecret, SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTlsTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import {
  type ExecuteReply,
  KernelClient,
  type IopubMessage,
  type WireMessage,
  errorOf,
  executeReply
} from '../support/kernel-client';
import { displaysAndUpdates } from '../support/shown-text';
import { scratchDir } from '../support/scratch-dir';

let kernel: KernelClient;
let sandbox: RunningSandbox;
const configDir = scratchDir('searchbook-jupyter-config-');
const profilesFile = join(configDir, 'searchbook', 'profiles.json');
const seen: string[] = [];

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    // ES_PASSWORD and TS_API_KEY are in the kernel's environment; WRONG too. JUPYTER_CONFIG_DIR keeps the test off the user's profiles.
    KernelClient.start({ ...SECRETS, JUPYTER_CONFIG_DIR: configDir }),
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

const esPort = () => new URL(sandbox.esUrl).port;
const tsPort = () => new URL(sandbox.tsUrl).port;

interface Ran {
  status: unknown;
  text: string;
  plain: string;
  reply: ExecuteReply;
}

function record(reply: ExecuteReply, iopub: IopubMessage[]): Ran {
  const text = JSON.stringify([reply.content, ...iopub.map(m => m.content)]);
  seen.push(text);
  // A request that takes over a second shows its progress first and its status line in an
  // update of that output: both are what the cell shows.
  const plain = displaysAndUpdates(iopub)
    .map(d => String(d['text/plain']))
    .join('\n');
  return { status: reply.content.status, text, plain, reply };
}

async function run(code: string, allowStdin = false): Promise<Ran> {
  const { reply, iopub } = await kernel.execute(code, {
    allow_stdin: allowStdin
  });
  return record(reply, iopub);
}

/** Runs a cell that asks for a secret and answers the prompt on stdin. */
async function runAnswering(
  code: string,
  answer: string
): Promise<Ran & { request: WireMessage }> {
  const { id, reply } = await kernel.submit('shell', 'execute_request', {
    code,
    silent: false,
    store_history: true,
    user_expressions: {},
    allow_stdin: true,
    stop_on_error: true
  });
  const request = await kernel.nextInputRequest();
  seen.push(JSON.stringify(request.content));
  await kernel.inputReply(request, answer);
  const done = record(executeReply(await reply), await kernel.iopubFor(id));
  return { ...done, request };
}

function writeProfiles(profiles: unknown[]): void {
  writeFileSync(
    profilesFile,
    JSON.stringify({ version: 1, profiles }, null, 2),
    { mode: 0o600 }
  );
}

describe('--save, then %connect <profile>', () => {
  it('saves an Elasticsearch URL connection with its ${env:NAME} reference (no keyring here), 0600', async () => {
    const saved = await run(
      `%connect elasticsearch https://elastic@127.0.0.1:${esPort()} skip_verify password=\${env:ES_PASSWORD} --save es`
    );
    expect(saved.status).toBe('ok');
    expect(saved.plain).toContain(
      `Saved profile "es" (https://elastic@127.0.0.1:${esPort()}) in ${profilesFile}`
    );
    expect(saved.plain).toMatch(
      /The password is read from \$\{env:ES_PASSWORD\} at connect time: no OS keyring is available \(/
    );
    expect(statSync(profilesFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(profilesFile, 'utf8')).profiles).toEqual([
      {
        engine: 'elasticsearch',
        name: 'es',
        host: '127.0.0.1',
        port: Number(esPort()),
        ssl: 'required',
        skip_verify: true,
        auth: 'basic',
        username: 'elastic',
        password: '${env:ES_PASSWORD}'
      }
    ]);
  });

  it('saves a Typesense connection with its CA file as an absolute path', async () => {
    const saved = await run(
      `%connect typesense 127.0.0.1:${tsPort()} ssl=verify-ca ca=${sandbox.caFile} key=\${env:TS_API_KEY} --save ts`
    );
    expect(saved.status).toBe('ok');
    const ts = JSON.parse(readFileSync(profilesFile, 'utf8')).profiles[1];
    expect(ts).toEqual({
      engine: 'typesense',
      name: 'ts',
      host: '127.0.0.1',
      port: Number(tsPort()),
      ssl: 'verify-ca',
      skip_verify: false,
      ca: sandbox.caFile,
      api_key: '${env:TS_API_KEY}'
    });
  });

  it('%connect <profile> reads the secret from the environment and the cell runs against it', async () => {
    const connected = await run(
      '%connect es\nGET /products/_search\n{"size": 1}'
    );
    expect(connected.status).toBe('ok');
    expect(connected.plain).toMatch(
      /Connected to Elasticsearch 8\.15\.0 at https:\/\/127\.0\.0\.1:\d+ as "es"/
    );
    expect(connected.plain).toContain('es: GET /products/_search → 200');
    expect((await run('%connect ts\nGET /collections')).status).toBe('ok');
  });

  it('%connections lists open connections and profiles: Elasticsearch as a URL without password, Typesense as host:port', async () => {
    const listing = await run('%connections');
    expect(listing.status).toBe('ok');
    const [open, profiles] = listing.plain.split('Profiles in ');
    expect(open).toMatch(
      new RegExp(
        `es\\s+elasticsearch\\s+https://elastic@127\\.0\\.0\\.1:${esPort()}\\s+required\\s+8\\.15\\.0\\s+false`
      )
    );
    expect(open).toMatch(
      new RegExp(
        `ts\\s+typesense\\s+127\\.0\\.0\\.1:${tsPort()}\\s+verify-ca\\s+29\\.0\\s+true`
      )
    );
    expect(profiles).toContain(profilesFile);
    expect(profiles).toMatch(
      /es\s+elasticsearch\s+https:\/\/elastic@127\.0\.0\.1:\d+\s+required\s+basic\s+\$\{env:ES_PASSWORD\}\s+true/
    );
    expect(profiles).toMatch(
      /ts\s+typesense\s+127\.0\.0\.1:\d+\s+verify-ca\s+apikey\s+\$\{env:TS_API_KEY\}\s+true/
    );
    expect(listing.text).not.toMatch(
      /typesense:\/\/|https?:\/\/127\.0\.0\.1:\d+\s+verify-ca/
    );
  });
});

describe("Jupyter's password prompt", () => {
  beforeAll(() => {
    const saved = JSON.parse(readFileSync(profilesFile, 'utf8'))
      .profiles as unknown[];
    writeProfiles([
      ...saved,
      {
        engine: 'elasticsearch',
        name: 'es-ask',
        host: '127.0.0.1',
        port: Number(esPort()),
        ssl: 'required',
        skip_verify: true,
        auth: 'basic',
        username: 'elastic'
      },
      {
        engine: 'typesense',
        name: 'ts-unset',
        host: '127.0.0.1',
        port: Number(tsPort()),
        ssl: 'required',
        skip_verify: true,
        api_key: '${env:NOT_SET_ANYWHERE}'
      }
    ]);
  });

  it('asks with input_request (password: true) on stdin; the answer is used, never echoed', async () => {
    const asked = await runAnswering(
      '%connect es-ask\nGET /_cat/indices',
      SECRETS.ES_PASSWORD
    );
    expect(asked.request.content).toEqual({
      prompt: `The password of elastic for https://elastic@127.0.0.1:${esPort()} (profile "es-ask"): `,
      password: true
    });
    expect(asked.request.parent_header.msg_type).toBe('execute_request');
    expect(asked.status).toBe('ok');
    expect(asked.plain).toContain('Connected to Elasticsearch 8.15.0');
    expect(asked.plain).toContain('es-ask: GET /_cat/indices → 200');
    expect(readFileSync(profilesFile, 'utf8')).not.toContain('"password": {'); // nothing was saved
  });

  it('an unset ${env:NAME} falls back to the prompt; a wrong answer connects with the warning, and its first request fails without the secret', async () => {
    // Typesense answers a wrong key and a search-only key alike (401), so the connection opens with a warning.
    const asked = await runAnswering('%connect ts-unset', SECRETS.WRONG);
    expect(asked.request.content.prompt).toBe(
      `The Typesense API key for 127.0.0.1:${tsPort()} (profile "ts-unset"): `
    );
    expect(asked.status).toBe('ok');
    expect(asked.plain).toContain('either wrong or scoped');
    const refused = await run('GET /collections', false);
    expect(refused.status).toBe('error');
    expect(errorOf(refused.reply).evalue).toContain(
      'Forbidden - a valid API key header must be sent.'
    );
  });

  it('an empty answer at the prompt ends the cell with a sentence that says what to do', async () => {
    const empty = await runAnswering('%connect es-ask', '');
    expect(empty.reply.content).toMatchObject({
      status: 'error',
      ename: 'SecretUnavailable',
      evalue:
        'Nothing was typed for the password of elastic, so nothing was sent: run the cell again and type it at the prompt.'
    });
  });

  it('is not used when the frontend allows no input: the error says how to provide the secret', async () => {
    const refused = await run('%connect es-ask', false);
    expect(refused.status).toBe('error');
    expect(errorOf(refused.reply).ename).toBe('SecretUnavailable');
    expect(errorOf(refused.reply).evalue).toBe(
      `The password of elastic is needed to connect, but profile "es-ask" does not say where it is; this frontend cannot be asked for it (it does not allow input), so nothing was sent.`
    );
    const traceback = errorOf(refused.reply).traceback.join('\n');
    expect(traceback).toContain(
      `write "password": "\${env:NAME}" in profile "es-ask" in ${profilesFile}`
    );
    expect(traceback).toContain('run the cell in a frontend that asks for it');
    const direct = await run(
      `%connect elasticsearch https://elastic@127.0.0.1:${esPort()} skip_verify`,
      false
    );
    expect(errorOf(direct.reply).ename).toBe('SecretUnavailable');
    expect(errorOf(direct.reply).traceback.join('\n')).toContain(
      'write password=${env:NAME} in the %connect line'
    );
  });

  it('an interrupt while the prompt waits ends the cell; the kernel keeps working', async () => {
    const { id, reply } = await kernel.submit('shell', 'execute_request', {
      code: '%connect es-ask',
      silent: false,
      store_history: true,
      user_expressions: {},
      allow_stdin: true,
      stop_on_error: true
    });
    seen.push(JSON.stringify((await kernel.nextInputRequest()).content));
    await kernel.request('control', 'interrupt_request', {});
    const interrupted = record(
      executeReply(await reply),
      await kernel.iopubFor(id)
    );
    expect(errorOf(interrupted.reply).ename).toBe('Interrupted');
    expect((await run('%vars')).status).toBe('ok');
  });
});

describe('refusals', () => {
  it.each([
    [
      '%connect typesense typesense://127.0.0.1:8108',
      /"typesense:\/\/\.\.\." is not a Typesense address\. Typesense has no URL scheme of its own.*write %connect typesense <host>\[:port\]/
    ],
    [
      '%connect typesense http://admin:hunter2@127.0.0.1:8108',
      /"user@\.\.\." is not a Typesense address\./
    ],
    [
      '%connect typesense 127.0.0.1 user=admin key=${env:TS_API_KEY}',
      /Typesense has no users/
    ],
    [
      '%connect https://elastic@127.0.0.1:9200',
      /name the engine before the address: %connect elasticsearch https:\/\/elastic@127\.0\.0\.1:9200/
    ],
    [
      '%connect elasticsearch https://elastic:hunter2@127.0.0.1:9200',
      /Put no password in the address/
    ],
    ['%connect es --save copy', /"es" names a profile, which is saved already/],
    [
      '%connect nothing-here',
      /No profile is named "nothing-here"\. Profiles: es, ts, es-ask, ts-unset\./
    ]
  ])('%s', async (code, message) => {
    const refused = await run(code);
    expect(refused.status).toBe('error');
    expect(errorOf(refused.reply).evalue).toMatch(message);
    // The cell's own text comes back in execute_input; no message of the kernel repeats the password in it.
    expect(JSON.stringify(refused.reply.content)).not.toContain('hunter2');
  });

  it('a bad profiles file: the error names the field; a literal secret in it is never repeated', async () => {
    const good = readFileSync(profilesFile, 'utf8');
    writeProfiles([
      { engine: 'elasticsearch', name: 'a', host: 'h' },
      { engine: 'elasticsearch', name: 'b', host: 'h' },
      { engine: 'elasticsearch', name: 'c', host: 'h', port: 'x' }
    ]);
    const bad = await run('%connect a');
    expect(errorOf(bad.reply).ename).toBe('ProfileFileError');
    expect(errorOf(bad.reply).evalue).toBe(
      `profiles.json: profiles[2].port: expected a number (in ${profilesFile})`
    );
    writeProfiles([
      {
        engine: 'elasticsearch',
        name: 'a',
        host: 'h',
        auth: 'basic',
        username: 'elastic',
        password: SECRETS.ES_PASSWORD
      }
    ]);
    const literal = await run('%connections');
    expect(errorOf(literal.reply).evalue).toMatch(
      /^profiles\.json: profiles\[0\]\.password: a secret is never stored in this file/
    );
    writeFileSync(profilesFile, good, { mode: 0o600 });
  });

  it('%profiles delete removes a profile atomically, the file staying 0600', async () => {
    expect((await run('%profiles delete es-ask')).plain).toContain(
      'Deleted profile "es-ask"'
    );
    expect(
      JSON.parse(readFileSync(profilesFile, 'utf8')).profiles.map(
        (p: { name: string }) => p.name
      )
    ).toEqual(['es', 'ts', 'ts-unset']);
    expect(statSync(profilesFile).mode & 0o777).toBe(0o600);
  });
});

describeEachTarget(
  elasticsearchTlsTargets(),
  'a verify-identity profile with its CA file',
  target => {
    let engine: RunningEsTarget;
    beforeAll(async () => {
      engine = await target.start({ security: true, tls: true });
    }, REAL_START_TIMEOUT_MS);
    afterAll(() => engine?.close());
    const name = `es-verified-${target.engine}`;

    it('--save keeps ssl, the absolute CA path and the ${env:NAME} reference; %connect <profile> verifies against it', async () => {
      const port = Number(new URL(engine.url).port);
      const saved = await run(
        `%connect elasticsearch https://elastic@127.0.0.1:${port} ssl=verify-identity ca=${engine.caFile} password=\${env:ES_PASSWORD} --save ${name}`
      );
      expect(saved.status).toBe('ok');
      const profile = (
        JSON.parse(readFileSync(profilesFile, 'utf8')).profiles as {
          name: string;
        }[]
      ).find(p => p.name === name);
      expect(profile).toEqual({
        engine: 'elasticsearch',
        name,
        host: '127.0.0.1',
        port,
        ssl: 'verify-identity',
        skip_verify: false,
        ca: engine.caFile,
        auth: 'basic',
        username: 'elastic',
        password: '${env:ES_PASSWORD}'
      });
      const connected = await run(
        `%connect ${name}\nGET /products/_search\n{"size": 1}`
      );
      expect(connected.status).toBe('ok');
      expect(connected.plain).toContain(
        `Connected to Elasticsearch ${target.version} at https://127.0.0.1:${port} as "${name}"`
      );
      expect(connected.plain).toContain(`${name}: GET /products/_search → 200`);
      expect((await run(`%profiles delete ${name}`)).plain).toContain(
        `Deleted profile "${name}"`
      );
    });
  }
);

it('no output, input request, kernel log line or profiles file held a secret', () => {
  expect(seen.length).toBeGreaterThan(15);
  expect(existsSync(profilesFile)).toBe(true);
  const profiles = readFileSync(profilesFile, 'utf8');
  for (const text of [
    ...seen,
    kernel.stderr,
    profiles,
    ...kernel.iopubMessages().map(m => JSON.stringify(m.content))
  ]) {
    expectNoSecret(text);
  }
});
