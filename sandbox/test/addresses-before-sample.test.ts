/**
 * `searchbook-sandbox --addresses FILE`, as `npm start` runs it: the addresses are written as
 * soon as both engines listen, before the sample data has loaded, so JupyterLab starts
 * alongside the load; a request sent at once waits for the load and sees every document.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(120_000);

const PACKAGE = join(__dirname, '..');

it('writes the addresses before the sample loads, and a request sent then sees the whole sample', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'searchbook-addresses-'));
  const file = join(dir, 'addresses');
  const child = spawn(
    process.execPath,
    [
      join(PACKAGE, 'bin', 'searchbook-sandbox.js'),
      '--es-port',
      '0',
      '--ts-port',
      '0',
      '--es-password',
      'addresses-test',
      '--addresses',
      file
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  );
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  try {
    let addresses = '';
    for (let attempt = 0; attempt < 1200 && !addresses; attempt++) {
      addresses = await readFile(file, 'utf8').catch(() => '');
      if (!addresses) {
        await new Promise(r => setTimeout(r, 50));
      }
    }
    const printedWhenWritten = printed;
    const esUrl = /SEARCHBOOK_ES_URL=(\S+)/.exec(addresses)?.[1];
    const tsUrl = /SEARCHBOOK_TYPESENSE_URL=(\S+)/.exec(addresses)?.[1];
    expect(esUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(tsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The 25,000 products take seconds to generate; the addresses came before they did.
    expect(printedWhenWritten).not.toContain('loaded 25000 documents');

    const count = await fetch(`${esUrl}/products/_count`, {
      headers: {
        authorization: `Basic ${Buffer.from('elastic:addresses-test').toString('base64')}`
      }
    });
    expect(await count.json()).toMatchObject({ count: 25000 });
    const books = await fetch(`${tsUrl}/collections/books`, {
      headers: { 'x-typesense-api-key': 'sandbox-api-key' }
    });
    expect(await books.json()).toMatchObject({ num_documents: 3000 });
    expect(printed).toContain('loaded 25000 documents');
  } finally {
    child.kill('SIGTERM');
    await new Promise(r => child.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
});
