/**
 * Copy as curl names each connection's own credential, over ZeroMQ against the sandbox engines:
 * the variable its %connect line read (`password=${env:REAL_ES_PASSWORD}` gives
 * `$REAL_ES_PASSWORD`), the user in clear, an API key by its variable, and a secret typed at
 * the password prompt as a placeholder variable that a comment line above the command explains.
 * Each command is run by a shell that has only those variables, and the engine answers it.
 */
import { execFile } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { expectNoSecret, SECRETS } from '../support/secrets';
import {
  credentialVariables,
  securedSandboxWithKey
} from '../support/secured-sandbox';
import { PanelCommClient } from '../panel/panel-comm-client';
import { KernelClient } from '../support/kernel-client';
import { scratchDir } from '../support/scratch-dir';

jest.setTimeout(60_000);

const run = promisify(execFile);
let sandbox: RunningSandbox;
let kernel: KernelClient;
let comm: PanelCommClient;
let apiKey: string;

/** Runs copied text in a shell that has only `env` (and PATH), as a user pasting it would. */
async function runCopied(
  text: string,
  env: Record<string, string>
): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', text], {
    env: { PATH: process.env.PATH ?? '', ...env }
  });
  return JSON.parse(stdout);
}

async function connect(line: string): Promise<void> {
  const { reply } = await kernel.execute(line);
  expect(reply.content.status).toBe('ok');
}

beforeAll(async () => {
  ({ sandbox, apiKey } = await securedSandboxWithKey('curl-names'));
  const config = scratchDir('searchbook-curl-names-');
  mkdirSync(join(config, 'searchbook'));
  // A profile without a password: the kernel asks for it at the prompt.
  writeFileSync(
    join(config, 'searchbook', 'profiles.json'),
    JSON.stringify({
      version: 1,
      profiles: [
        {
          engine: 'elasticsearch',
          name: 'es-ask',
          host: '127.0.0.1',
          port: Number(new URL(sandbox.esUrl).port),
          ssl: 'disabled',
          auth: 'basic',
          username: 'elastic'
        }
      ]
    }),
    { mode: 0o600 }
  );
  kernel = await KernelClient.start({
    JUPYTER_CONFIG_DIR: config,
    ...credentialVariables(apiKey)
  });
  comm = await PanelCommClient.open(kernel);
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('names the variable each %connect line read, with the user in clear; each command runs with only those variables', async () => {
  await connect(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:REAL_ES_PASSWORD} name=pw`
  );
  await connect(
    `%connect elasticsearch ${sandbox.esUrl} key=\${env:OPS_ES_KEY} name=apikey`
  );
  await connect(
    `%connect typesense ${sandbox.tsUrl} key=\${env:MY_TS_KEY} name=ts`
  );
  const reply = await comm.expect(
    {
      type: 'curl',
      cell: '%use pw\nGET /products/_count\n%use apikey\nGET /products/_count\n%use ts\nGET /collections'
    },
    'curl'
  );
  const [basic, key, ts] = reply.commands as [string, string, string];
  expect(reply.commands).toHaveLength(3);
  expect(basic).toContain(' -u "elastic:$REAL_ES_PASSWORD"');
  expect(key).toContain(' -H "Authorization: ApiKey $OPS_ES_KEY"');
  expect(ts).toContain(' -H "X-TYPESENSE-API-KEY: $MY_TS_KEY"');
  expectNoSecret(reply.commands.join('\n'), [apiKey]);
  expect(
    await runCopied(basic, { REAL_ES_PASSWORD: SECRETS.ES_PASSWORD })
  ).toMatchObject({ count: 20 });
  expect(await runCopied(key, { OPS_ES_KEY: apiKey })).toMatchObject({
    count: 20
  });
  expect(await runCopied(ts, { MY_TS_KEY: SECRETS.TS_API_KEY })).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'books' })])
  );
});

it("a grid's Copy as curl names the same variable", async () => {
  const opened = await comm.expect(
    { type: 'open', connection: 'pw', target: 'products' },
    'opened'
  );
  expect(opened.request.curl).toContain(' -u "elastic:$REAL_ES_PASSWORD"');
  expect(
    await runCopied(opened.request.curl, {
      REAL_ES_PASSWORD: SECRETS.ES_PASSWORD
    })
  ).toMatchObject({ hits: { total: { value: 20 } } });
  await comm.call({ type: 'close', gridId: opened.gridId });
});

it('a password typed at the prompt becomes a placeholder variable, explained once in a comment line', async () => {
  const { id, reply } = await kernel.submit('shell', 'execute_request', {
    code: '%connect es-ask',
    silent: false,
    store_history: true,
    user_expressions: {},
    allow_stdin: true,
    stop_on_error: true
  });
  await kernel.inputReply(await kernel.nextInputRequest(), SECRETS.ES_PASSWORD);
  expect((await reply).content.status).toBe('ok');
  await kernel.iopubFor(id);
  const copied = await comm.expect(
    { type: 'curl', cell: 'GET /products/_count\nGET /products/_count' },
    'curl'
  );
  expect(copied.commands).toHaveLength(3);
  expect(copied.commands[0]).toBe(
    '# $ES_PASSWORD stands for the password of elastic, which this connection took from the password prompt when connecting: set ES_PASSWORD before running this.'
  );
  expect(copied.commands[1]).toContain(' -u "elastic:$ES_PASSWORD"');
  expectNoSecret(copied.commands.join('\n'));
  // The comment line and a command, pasted together, run in a shell that has ES_PASSWORD.
  for (const command of copied.commands.slice(1)) {
    expect(
      await runCopied(`${copied.commands[0]}\n${command}`, {
        ES_PASSWORD: SECRETS.ES_PASSWORD
      })
    ).toMatchObject({ count: 20 });
  }
});

it('a connection that trusts a CA of its own is copied with that file as --cacert, and curl checks the certificate against it', async () => {
  const https = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: true,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 20
  });
  try {
    const caFile = https.caFile as string;
    await connect(
      `%connect elasticsearch ${https.esUrl} ssl=verify-identity ca=${caFile} user=elastic password=\${env:REAL_ES_PASSWORD} name=es-ca`
    );
    await connect(
      `%connect typesense ${https.tsUrl} ssl=verify-ca ca=${caFile} key=\${env:MY_TS_KEY} name=ts-ca`
    );
    const reply = await comm.expect(
      {
        type: 'curl',
        cell: '%use es-ca\nGET /products/_count\n%use ts-ca\nGET /collections'
      },
      'curl'
    );
    const [es, ts] = reply.commands as [string, string];
    expect(es).toContain(` --cacert '${caFile}'`);
    expect(ts).toContain(` --cacert '${caFile}'`);
    expect(es).not.toContain(' -k ');
    expect(
      await runCopied(es, { REAL_ES_PASSWORD: SECRETS.ES_PASSWORD })
    ).toMatchObject({ count: 20 });
    expect(await runCopied(ts, { MY_TS_KEY: SECRETS.TS_API_KEY })).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'books' })])
    );
  } finally {
    await https.close();
  }
});
