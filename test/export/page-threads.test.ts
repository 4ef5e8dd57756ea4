/**
 * Sliced exports whose pages are made on worker threads (the kernel's own script started as a
 * page worker), against the sandbox Elasticsearch over HTTP: the files hold the lines one cursor
 * on the main thread writes, awkward documents included; an interrupt and a thread that ends
 * mid-way stop the export as an engine failure would, the pages written so far kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { Connection } from '../../kernel/src/connections/open-connection';
import type { ExportFormat } from '../../kernel/src/export/formats';
import {
  endPageThreads,
  makeExportPagesWith
} from '../../kernel/src/export/page-workers';
import { connect, SECRETS } from '../drivers/helpers';
import { type ExportSandbox, startExportSandbox } from './export-sandbox';
import { partialsOf, run, scratchDir, stoppedBy } from './export-helpers';

const REPO = join(__dirname, '..', '..');
const KERNEL_SCRIPT = join(REPO, 'bin', 'searchbook.js');
const ENDING_WORKER = join(
  REPO,
  'dist',
  'test',
  'support',
  'page-worker-ending.js'
);
const PRODUCTS = 2_000;
const WINDOW = 150;
const AUTH = `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`;

/**
 * Documents CSV cannot copy as sent: escapes, quotes, commas and line breaks, numbers a double
 * prints otherwise, longs past 2^53, dotted keys beside objects, repeated keys, arrays of
 * objects, and fields that first appear on a later page (left out of the header).
 */
const AWKWARD = [
  '{"name":"say \\"hi\\", then go","n":1.0,"big":12345678901234567890}',
  '{"name":"line\\nbreak\\r\\nand \\u00e9\\u0000","n":1e2,"tags":["a,b","c\\"d"]}',
  '{"address.city":"Lyon","address":{"zip":"69001"},"n":-0}',
  '{"name":"repeated","name":"last wins","n":0.000001}',
  '{"items":[{"sku":"x","qty":1},{"sku":"y"}],"n":123456789012345678}',
  '{"name":"ünïcødé 😀","nested":{"deep":{"er":[{"k":null},{"k":[2,3]}]}}}',
  '{"\\u0061scaped":"key","n":1.5e300}',
  '{"late":"field","name":"past the first page"}'
];

let sandbox: ExportSandbox;
let es: Connection;
const dir = scratchDir();

async function engine(
  method: 'PUT' | 'POST',
  path: string,
  body: string,
  type = 'application/json'
): Promise<void> {
  const answer = await request(`${sandbox.sandbox.esUrl}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': type },
    body
  });
  const text = await answer.body.text();
  // A bulk answers 200 with an error an item: none may be refused.
  expect({ path, status: answer.statusCode, text }).toMatchObject({
    status: 200,
    text: expect.not.stringContaining('"errors":true')
  });
}

beforeAll(async () => {
  sandbox = await startExportSandbox(PRODUCTS);
  es = await connect(
    `elasticsearch ${sandbox.proxy.url} user=elastic password=\${env:ES_PASSWORD}`
  );
  await engine(
    'PUT',
    '/products/_settings',
    `{"index": {"max_result_window": ${WINDOW}}}`
  );
  // Awkward documents among the products, the first one early and the last ones late.
  const bulk = AWKWARD.map(
    (json, i) => `{"index":{"_id":"awkward-${i}"}}\n${json}\n`
  ).join('');
  await engine(
    'POST',
    '/products/_bulk?refresh=true',
    bulk,
    'application/x-ndjson'
  );
  makeExportPagesWith(KERNEL_SCRIPT);
}, 60_000);
afterAll(async () => {
  endPageThreads();
  await es?.driver.close();
  await sandbox?.proxy.close();
  await sandbox?.sandbox.close();
});
beforeEach(() => {
  sandbox.proxy.rules.length = 0;
  sandbox.proxy.seen.length = 0;
  makeExportPagesWith(KERNEL_SCRIPT);
});

const searches = () =>
  sandbox.proxy.seen.filter(r => r.method === 'POST' && r.url === '/_search');

/**
 * A file's records: CSV's end in CRLF (a record may hold a line break inside quotes), its header
 * first; JSONL's in LF; a JSON array's elements without their commas, between its brackets.
 */
function records(file: string, format: ExportFormat): string[] {
  const text = readFileSync(file, 'utf8');
  if (format === 'csv') {
    return text.split('\r\n').filter(Boolean);
  }
  const lines = text.split('\n').filter(Boolean);
  if (format === 'jsonl') {
    return lines;
  }
  expect([lines[0], lines.at(-1)]).toEqual(['[', ']']);
  return lines.slice(1, -1).map(line => line.replace(/,$/, ''));
}

it.each([
  ['csv', undefined],
  ['csv', ['name', 'address', 'n', 'late']],
  ['jsonl', undefined],
  ['json', undefined]
] as const)(
  '%s (fields=%s): two cursors made on page threads write the lines one cursor writes, byte for byte',
  async (format, picked) => {
    // Slow enough pages that the thread, started by the sliced export, makes most of them:
    // the first are read on the main thread while it starts (CSV: its header fixed there).
    sandbox.proxy.rules.push({
      matches: (_m, url) => url === '/_search',
      delayMs: 40
    });
    const fields = picked ? [...picked] : undefined;
    const one = join(dir, `one.${format}`);
    const two = join(dir, `two.${format}`);
    const alone = await run(es.driver, {
      target: 'products',
      file: one,
      format,
      ...(fields ? { fields, overwrite: true } : {})
    });
    const sliced = await run(es.driver, {
      target: 'products',
      file: two,
      format,
      slices: 2,
      ...(fields ? { fields, overwrite: true } : {})
    });
    expect(sliced.documents).toBe(PRODUCTS + AWKWARD.length);
    expect(alone.documents).toBe(sliced.documents);
    const lines = records(one, format);
    const slicedLines = records(two, format);
    if (format === 'csv') {
      // The header comes from the first page, whichever cursor's it was: the mapping's
      // columns and those of that page's documents, the same here (the awkward ones come late).
      expect(slicedLines.shift()).toBe(lines.shift());
    }
    // A CSV record holding CRLF inside quotes counts as two pieces here, in both files alike.
    expect(lines.length).toBeGreaterThanOrEqual(PRODUCTS + AWKWARD.length);
    expect(slicedLines.sort()).toEqual(lines.sort());
    expect(new Set(sliced.leftOutColumns)).toEqual(
      new Set(alone.leftOutColumns)
    );
    if (format === 'csv' && !fields) {
      expect(alone.leftOutColumns.length).toBeGreaterThan(0);
    }
    // Each cursor asked for its next page before reading this one, and guessed right: about a
    // search a page and one more (after its last page, dropped unread) for both exports; a
    // wrong guess asks for each page twice.
    const pages = Math.ceil((PRODUCTS + AWKWARD.length) / WINDOW);
    expect(searches().length).toBeLessThanOrEqual(2 * (pages + 1) + 2);
    // Both cursors were read, a slice each.
    const slices = new Set(
      searches().map(
        r =>
          (JSON.parse(r.body) as { slice?: { id: number } }).slice?.id ?? 'none'
      )
    );
    expect(slices).toEqual(new Set(['none', 0, 1]));
  },
  60_000
);

it('an interrupt stops a sliced export, the pages written so far in .partial, the point in time closed', async () => {
  sandbox.proxy.rules.push({
    matches: (_m, url) => url === '/_search',
    delayMs: 150
  });
  const file = join(dir, 'interrupted.csv');
  const controller = new AbortController();
  const stopped = await stoppedBy(
    run(
      es.driver,
      { target: 'products', file, format: 'csv', slices: 2 },
      {
        signal: controller.signal,
        onProgress: p => p.documents >= 2 * WINDOW && controller.abort()
      }
    )
  );
  expect(stopped.stop).toBe('interrupted');
  expect(stopped.progress.documents).toBeGreaterThanOrEqual(2 * WINDOW);
  expect(stopped.progress.documents).toBeLessThan(PRODUCTS);
  expect(partialsOf(dir, 'interrupted.csv')).toEqual([stopped.partial]);
  // The header and one whole record a document written (no awkward one: they come last).
  expect(records(stopped.partial, 'csv')).toHaveLength(
    stopped.progress.documents + 1
  );
  expect(
    sandbox.proxy.seen.some(r => r.method === 'DELETE' && r.url === '/_pit')
  ).toBe(true);
  // The threads go on to the next export.
  const next = await run(es.driver, {
    target: 'products',
    file: join(dir, 'after-interrupt.csv'),
    format: 'csv',
    slices: 2
  });
  expect(next.documents).toBe(PRODUCTS + AWKWARD.length);
}, 60_000);

it('a page thread that ends mid-way stops the export, says so, keeps the pages written, and the next export runs', async () => {
  makeExportPagesWith(ENDING_WORKER);
  sandbox.proxy.rules.push({
    matches: (_m, url) => url === '/_search',
    delayMs: 60
  });
  const file = join(dir, 'thread-ended.jsonl');
  const stopped = await stoppedBy(
    run(es.driver, { target: 'products', file, slices: 2 })
  );
  expect(stopped.stop).toBe('engine');
  expect(stopped.reason).toMatch(
    /^The thread that makes the export's pages ended \(exit code 70\); run the export again, or with slices=1 to read it on the kernel's own thread\.$/
  );
  expect(stopped.kept).toBe(true);
  expect(partialsOf(dir, 'thread-ended.jsonl')).toEqual([stopped.partial]);
  expect(records(stopped.partial, 'jsonl')).toHaveLength(
    stopped.progress.documents
  );
  expect(stopped.progress.documents).toBeLessThan(PRODUCTS);
  expect(
    sandbox.proxy.seen.some(r => r.method === 'DELETE' && r.url === '/_pit')
  ).toBe(true);
  makeExportPagesWith(KERNEL_SCRIPT);
  const next = await run(es.driver, {
    target: 'products',
    file: join(dir, 'after-thread-ended.jsonl'),
    slices: 2
  });
  expect(next.documents).toBe(PRODUCTS + AWKWARD.length);
}, 60_000);
