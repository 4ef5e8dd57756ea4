/**
 * Whole-collection export from the Typesense sandbox over HTTP, what is Typesense's own: the
 * streamed export read line by line into JSONL byte for byte, whole-collection CSV and JSON,
 * and what an interrupt, a stream cut mid-way and a full disk leave. What every engine's
 * export does is in test/engines/contract.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request as undiciRequest } from 'undici';
import { generateBooks } from '@searchbook/sandbox/data/generate-books';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../../kernel/src/connections/open-connection';
import { connect, SECRETS } from '../../drivers/helpers';
import {
  type BreakingProxy,
  startBreakingProxy
} from '../../support/breaking-proxy';
import {
  fullDiskAfter,
  parseCsv,
  partialsOf,
  run,
  scratchDir,
  stoppedBy
} from '../../export/export-helpers';

const BOOKS = 3_000;
const expected = [...generateBooks(BOOKS, 42)];

let sandbox: RunningSandbox;
let proxy: BreakingProxy;
let ts: Connection;
const dir = scratchDir();

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
    products: 5
  });
  proxy = await startBreakingProxy(sandbox.tsUrl);
  ts = await connect(`typesense ${proxy.url} key=\${env:TS_API_KEY}`);
});
afterAll(async () => {
  await ts?.driver.close();
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l !== '');
const isExport = (url: string) =>
  url.startsWith('/collections/books/documents/export');

async function bareExport(query = ''): Promise<string> {
  const response = await undiciRequest(
    `${sandbox.tsUrl}/collections/books/documents/export${query}`,
    { headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY } }
  );
  return response.body.text();
}

it('JSONL is the engine export byte for byte (one line per document, newline-terminated), holding every book', async () => {
  const file = join(dir, 'books.jsonl');
  const summary = await run(ts.driver, { target: 'books', file });
  const bare = await bareExport();
  expect(readFileSync(file, 'utf8')).toBe(`${bare}\n`);
  expect(summary).toMatchObject({
    documents: BOOKS,
    total: BOOKS,
    bytes: statSync(file).size
  });
  const byId = new Map(
    lines(file)
      .map(l => JSON.parse(l) as { id: string })
      .map(d => [d.id, d])
  );
  expect(byId.size).toBe(BOOKS);
  for (const book of expected) {
    expect(byId.get(book.id)).toEqual(book);
  }
  expect(proxy.seen.filter(r => isExport(r.url))).toHaveLength(1);
});

it('JSON is one array of the documents, whole-collection CSV quotes arrays of objects as JSON', async () => {
  const jsonFile = join(dir, 'books.json');
  await run(ts.driver, { target: 'books', file: jsonFile, format: 'json' });
  expect(JSON.parse(readFileSync(jsonFile, 'utf8'))).toEqual(
    JSON.parse(`[${(await bareExport()).split('\n').join(',')}]`)
  );
  const csvFile = join(dir, 'books.csv');
  await run(ts.driver, { target: 'books', file: csvFile, format: 'csv' });
  const [header, ...rows] = parseCsv(readFileSync(csvFile, 'utf8'));
  expect(header).toEqual([
    'id',
    'title',
    'author',
    'genre',
    'year',
    'ratings_count',
    'rating',
    'in_print',
    'meta.pages',
    'meta.publisher',
    'variants',
    'variants.sku',
    'variants.format'
  ]);
  const variants = (header as string[]).indexOf('variants');
  const byId = new Map(expected.map(b => [b.id, b]));
  expect(rows).toHaveLength(BOOKS);
  for (const row of rows) {
    expect(JSON.parse(row[variants] as string)).toEqual(
      byId.get(row[0] as string)?.variants
    );
  }
});

it('a stream cut mid-way stops the export: nothing complete-looking is left, the lines read are in .partial', async () => {
  const file = join(dir, 'cut.jsonl');
  proxy.rules.push({
    matches: (_m, url) => isExport(url),
    breakAfterBytes: 600_000
  });
  const stopped = await stoppedBy(run(ts.driver, { target: 'books', file }));
  expect(stopped.stop).toBe('engine');
  expect(stopped.progress.documents).toBeGreaterThan(0);
  expect(stopped.progress.documents).toBeLessThan(BOOKS);
  expect(existsSync(file)).toBe(false);
  expect(partialsOf(dir, 'cut.jsonl')).toEqual([stopped.partial]);
  const partial = lines(stopped.partial);
  expect(partial).toHaveLength(stopped.progress.documents);
  // Only whole lines are written: each parses.
  for (const line of partial) {
    expect(() => JSON.parse(line)).not.toThrow();
  }
});

it('an interrupt stops reading the stream and says how far it got', async () => {
  const file = join(dir, 'interrupted.jsonl');
  const controller = new AbortController();
  const stopped = await stoppedBy(
    run(
      ts.driver,
      { target: 'books', file },
      {
        signal: controller.signal,
        onProgress: p => p.documents > 0 && controller.abort()
      }
    )
  );
  expect(stopped.stop).toBe('interrupted');
  expect(stopped.progress.documents).toBeGreaterThan(0);
  expect(stopped.progress.documents).toBeLessThan(BOOKS);
  expect(existsSync(file)).toBe(false);
  expect(partialsOf(dir, 'interrupted.jsonl')).toEqual([stopped.partial]);
  expect(lines(stopped.partial)).toHaveLength(stopped.progress.documents);
});

it('a full disk stops the export and removes the .partial file', async () => {
  const file = join(dir, 'full.jsonl');
  const stopped = await stoppedBy(
    run(ts.driver, { target: 'books', file }, { files: fullDiskAfter(100_000) })
  );
  expect(stopped.stop).toBe('write');
  expect(existsSync(file)).toBe(false);
  expect(partialsOf(dir, 'full.jsonl')).toEqual([]);
});
