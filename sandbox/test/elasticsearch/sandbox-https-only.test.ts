/** `searchbook-sandbox --tls` is HTTPS only, as an 8.x node with TLS on the HTTP layer is. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

describe('sandbox --tls: HTTPS only', () => {
  let dir: string;
  let running: RunningSandbox;
  const auth = 'Basic ' + Buffer.from('elastic:pw').toString('base64');

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sandbox-https-only-'));
    running = await startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: true,
      dataDir: dir,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: 'pw',
      tsApiKey: 'key',
      security: true,
      products: 50
    });
  });
  afterAll(async () => {
    await running.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('refuses plain HTTP with a connection error, not an HTTP answer such as 401', async () => {
    const port = new URL(running.esUrl).port;
    const plain = new Agent();
    try {
      const attempt = request(`http://127.0.0.1:${port}/`, {
        headers: { authorization: auth },
        dispatcher: plain
      });
      await expect(attempt).rejects.toThrow();
      const err = await attempt.catch((e: unknown) => e);
      // A network or protocol failure (socket closed, parser error), never a status code.
      expect(err).toBeInstanceOf(Error);
      expect((err as { statusCode?: number }).statusCode).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('answers HTTPS verified against the written CA file, as Elasticsearch', async () => {
    expect(running.esUrl.startsWith('https://127.0.0.1:')).toBe(true);
    const verifying = new Agent({
      connect: { ca: await fs.readFile(running.caFile as string, 'utf8') }
    });
    try {
      const res = await request(`${running.esUrl}/`, {
        headers: { authorization: auth },
        dispatcher: verifying
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
      expect(JSON.parse(await res.body.text())).toMatchObject({
        version: { number: '8.15.0' }
      });
    } finally {
      await verifying.close();
    }
  });
});
