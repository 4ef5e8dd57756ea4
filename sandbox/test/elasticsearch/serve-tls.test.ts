import { promises as fs } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { listen } from '../../src/serve';
import { generateCertificates, writeCaFile } from '../../src/tls';

describe('sandbox plumbing: listen() and certificates', () => {
  const handler = (_req: unknown, res: ServerResponse): void => {
    res.setHeader('content-type', 'text/plain');
    res.end('ok');
  };

  it('serves plain HTTP on a free port and closes', async () => {
    const server = await listen(handler, { port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await request(server.url);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('ok');
    await server.close();
  });

  it('serves HTTPS with a certificate that verifies against the written CA file', async () => {
    const certs = await generateCertificates();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sandbox-ca-'));
    const caFile = await writeCaFile(certs, path.join(dir, 'ca.pem'));
    const server = await listen(handler, {
      port: 0,
      tls: { cert: certs.cert, key: certs.key }
    });
    expect(server.url.startsWith('https://127.0.0.1:')).toBe(true);

    const verifying = new Agent({
      connect: { ca: await fs.readFile(caFile, 'utf8') }
    });
    const ok = await request(server.url, { dispatcher: verifying });
    expect(await ok.body.text()).toBe('ok');
    // Identity check by host name, without depending on how this machine resolves localhost.
    const byName = new Agent({
      connect: { ca: certs.ca, servername: 'localhost' }
    });
    expect(
      await (await request(server.url, { dispatcher: byName })).body.text()
    ).toBe('ok');

    const untrusting = new Agent();
    await expect(
      request(server.url, { dispatcher: untrusting })
    ).rejects.toThrow();

    await Promise.all([verifying.close(), untrusting.close(), byName.close()]);
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
