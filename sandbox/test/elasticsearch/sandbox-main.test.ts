/** startSandbox (both engines, sample data, TLS CA file) and the CLI flag parsing. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { parseSandboxArgs, SandboxUsageError } from '../../src/main';
import { startSandbox } from '../../src/sandbox';

it('parses flags with defaults', () => {
  expect(parseSandboxArgs([])).toEqual({
    esPort: 9200,
    tsPort: 8108,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: 'sandbox-password',
    tsApiKey: 'sandbox-api-key',
    security: true
  });
  expect(
    parseSandboxArgs([
      '--es-port',
      '0',
      '--ts-port=0',
      '--tls',
      '--data',
      '/tmp/x',
      '--es-version',
      '7.17.0',
      '--no-security',
      '--es-password',
      'p',
      '--ts-api-key',
      'k'
    ])
  ).toMatchObject({
    esPort: 0,
    tsPort: 0,
    tls: true,
    dataDir: '/tmp/x',
    esVersion: '7.17.0',
    security: false,
    esPassword: 'p',
    tsApiKey: 'k'
  });
  expect(() => parseSandboxArgs(['--es-port', 'x'])).toThrow(SandboxUsageError);
  expect(() => parseSandboxArgs(['--bogus'])).toThrow(/unknown option/);
});

it('starts both engines over HTTPS with the sample data and a CA file that verifies', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sandbox-test-'));
  const lines: string[] = [];
  const running = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: true,
    dataDir: dir,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: 'pw',
    tsApiKey: 'key',
    security: true,
    products: 500,
    log: l => lines.push(l)
  });
  const agent = new Agent({
    connect: { ca: await fs.readFile(running.caFile as string, 'utf8') }
  });
  try {
    expect(running.caFile).toBe(path.join(dir, 'sandbox-ca.pem'));
    const auth = 'Basic ' + Buffer.from('elastic:pw').toString('base64');
    const es = await request(`${running.esUrl}/catalog/_count`, {
      headers: { authorization: auth },
      dispatcher: agent
    });
    expect(JSON.parse(await es.body.text())).toMatchObject({ count: 500 });
    const ts = await request(`${running.tsUrl}/collections`, {
      headers: { 'x-typesense-api-key': 'key' },
      dispatcher: agent
    });
    expect(ts.statusCode).toBe(200);
    await ts.body.text();
    expect(lines.join('\n')).toContain('loaded 500 documents into "products"');
  } finally {
    await agent.close();
    await running.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
