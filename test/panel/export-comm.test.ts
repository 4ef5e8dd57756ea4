/**
 * The side panel's "Export…" over the wire (kernel process, ZeroMQ, sandbox engines over
 * HTTP): an index or a collection, or what a grid shows under its filter, written next to
 * the notebook (the kernel's working directory) with progress messages before the one answer;
 * a cancel stops it and says how far it got, as closing the panel that asked does; an existing
 * file is kept without overwrite.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import { parseCsv, partialsOf, scratchDir } from '../export/export-helpers';
import { startExportSandbox } from '../export/export-sandbox';
import type { BreakingProxy } from '../support/breaking-proxy';
import type { KernelClient } from '../support/kernel-client';
import {
  PanelCommClient,
  kernelWithPanelComm,
  startExport as startPanelExport
} from './panel-comm-client';

const COUNT = 2_000;
let kernel: KernelClient;
let sandbox: RunningSandbox;
let proxy: BreakingProxy;
let comm: PanelCommClient;
const cwd = scratchDir();

beforeAll(async () => {
  const started = await startExportSandbox(COUNT);
  ({ sandbox, proxy } = started);
  const lines = [
    started.connect,
    started.windowCell(200),
    `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
  ];
  ({ kernel, comm } = await kernelWithPanelComm(
    lines,
    { ...SECRETS },
    { cwd }
  ));
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  proxy.rules.length = 0;
});

/** Sends an export request (from `panel`); its progress messages and, once it comes, its one answer. */
const startExport = (
  data: Record<string, unknown>,
  panel: PanelCommClient = comm
) => startPanelExport(kernel, panel, data);

/** The pages of documents read so far (every export and grid reads through /_search). */
const searches = () => proxy.seen.filter(r => r.url === '/_search').length;

const lines = (file: string) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean);

it('an index goes to a file next to the notebook, with progress before the answer and the final line of %export', async () => {
  proxy.rules.push({ matches: (_m, url) => url === '/_search', delayMs: 60 });
  const run = startExport({
    exportId: 'e1',
    connection: 'es',
    target: 'products',
    file: 'products.jsonl',
    format: 'jsonl'
  });
  const answer = await run.answer();
  if (answer.type !== 'exported') {
    throw new Error(JSON.stringify(answer));
  }
  const file = join(cwd, 'products.jsonl');
  expect(answer.file).toBe(file);
  expect(lines(file)).toHaveLength(COUNT);
  expect(answer.progress).toMatchObject({ documents: COUNT, total: COUNT });
  expect(answer.progress.text).toMatch(
    /^Exported 2,000 documents of products \([\d,]+ bytes, [\d.]+ KB\) to products\.jsonl in [\d.]+ s \([\d,]+ docs\/s\)\.$/
  );
  const progress = run.progress();
  expect(progress.length).toBeGreaterThan(0);
  expect(
    progress.every(p => p.exportId === 'e1' && p.progress.total === COUNT)
  ).toBe(true);
  expect(
    progress
      .map(p => p.progress.text)
      .some(t =>
        /^Exporting products to products\.jsonl: [\d,]+ of 2,000 documents \(\d+%\), [\d,]+ docs\/s, about \d+ s left$/.test(
          t
        )
      )
  ).toBe(true);
});

it("a grid's export holds what the grid shows under its filter, in the format and fields asked for", async () => {
  const view = {
    filters: [{ column: 'price', operator: 'greater or equal', value: '400' }]
  };
  const opened = await comm.expect(
    { type: 'open', connection: 'es', target: 'products', blockSize: 50, view },
    'opened'
  );
  const answer = await startExport({
    exportId: 'e2',
    connection: 'es',
    target: 'products',
    gridId: opened.gridId,
    file: 'dear.csv',
    format: 'csv',
    fields: ['name', 'price']
  }).answer();
  expect(answer).toMatchObject({
    type: 'exported',
    progress: { documents: opened.total, total: opened.total }
  });
  const [header, ...rows] = parseCsv(
    readFileSync(join(cwd, 'dear.csv'), 'utf8')
  );
  expect(header).toEqual(['_id', '_index', 'name', 'price']);
  expect(rows).toHaveLength(opened.total);
  expect(rows.every(r => Number(r[3]) >= 400)).toBe(true);
  await comm.expect({ type: 'close', gridId: opened.gridId }, 'closed');
});

it('a collection exports as Typesense lines, re-importable', async () => {
  const answer = await startExport({
    exportId: 'e3',
    connection: 'ts',
    target: 'books',
    file: 'books.jsonl',
    format: 'jsonl'
  }).answer();
  if (answer.type !== 'exported') {
    throw new Error(JSON.stringify(answer));
  }
  const docs = lines(join(cwd, 'books.jsonl')).map(
    l => JSON.parse(l) as { id: string; title: string }
  );
  expect(docs).toHaveLength(answer.progress.documents);
  expect(docs.length).toBeGreaterThan(0);
  expect(
    docs.every(d => typeof d.id === 'string' && typeof d.title === 'string')
  ).toBe(true);
});

it('a cancel stops the export, which says how far it got; only the .partial file is left', async () => {
  proxy.rules.push({ matches: (_m, url) => url === '/_search', delayMs: 400 });
  const run = startExport({
    exportId: 'e4',
    connection: 'es',
    target: 'products',
    file: 'stopped.jsonl',
    format: 'jsonl'
  });
  await run.started();
  await comm.expect(
    { type: 'cancelExport', exportId: 'e4' },
    'exportCancelled'
  );
  const answer = await run.answer();
  expect(answer.type).toBe('error');
  expect(answer.type === 'error' && answer.message).toMatch(
    /^The export of products was interrupted after [\d,]+ of 2,000 documents .*: stopped\.jsonl was not written; the documents read so far are in stopped\.jsonl\.searchbook-[0-9a-f]{8}\.partial\.$/
  );
  expect(existsSync(join(cwd, 'stopped.jsonl'))).toBe(false);
  const named = /in (stopped\.jsonl\.searchbook-[0-9a-f]{8}\.partial)\.$/.exec(
    answer.type === 'error' ? answer.message : ''
  )?.[1] as string;
  expect(partialsOf(cwd, 'stopped.jsonl')).toEqual([join(cwd, named)]);
  expect(lines(join(cwd, named)).length).toBeLessThan(COUNT);
});

it('closing the panel stops its export: no page is read after it, and only the .partial file is left', async () => {
  const panel = await PanelCommClient.open(kernel);
  proxy.rules.push({ matches: (_m, url) => url === '/_search', delayMs: 300 });
  const run = startExport(
    {
      exportId: 'e6',
      connection: 'es',
      target: 'products',
      file: 'closed.jsonl',
      format: 'jsonl'
    },
    panel
  );
  await run.started();
  expect(run.progress().length).toBeGreaterThan(0);
  // The next page is held: the export waits on it as the panel closes.
  let release!: () => void;
  const page = (_m: string, url: string) => url === '/_search';
  proxy.rules.unshift({
    matches: page,
    holdUntil: new Promise<void>(r => (release = r))
  });
  const held = await proxy.nextRequest(page);
  const close = await kernel.submit('shell', 'comm_close', {
    comm_id: panel.commId,
    data: {}
  });
  await kernel.iopubFor(close.id);
  // Stopped, the export gives up the page it waited for (left running, it would wait on).
  await proxy.abandoned(held);
  release();
  const pages = searches();
  // A cell's request through the same proxy is answered after it: no page was asked for in between.
  const count = await kernel.execute('%use es\nGET /products/_count');
  expect(count.reply.content.status).toBe('ok');
  expect(searches()).toBe(pages);
  expect(existsSync(join(cwd, 'closed.jsonl'))).toBe(false);
  const [partial] = partialsOf(cwd, 'closed.jsonl');
  expect(partialsOf(cwd, 'closed.jsonl')).toHaveLength(1);
  expect(lines(partial as string).length).toBeLessThan(COUNT);
  // The other panel's comm still answers.
  await comm.expect({ type: 'connections' }, 'connections');
});

it('an existing file is kept unless overwrite is asked for; a missing file name says what to write', async () => {
  writeFileSync(join(cwd, 'mine.json'), '[]\n');
  const refused = await startExport({
    exportId: 'e5',
    connection: 'es',
    target: 'products',
    file: 'mine.json',
    format: 'json'
  }).answer();
  expect(refused.type === 'error' && refused.message).toMatch(
    /mine\.json exists, so nothing was exported\. Tick "Replace an existing file" in the export dialog/
  );
  expect(readFileSync(join(cwd, 'mine.json'), 'utf8')).toBe('[]\n');
  const replaced = await startExport({
    exportId: 'e6',
    connection: 'es',
    target: 'products',
    file: 'mine.json',
    format: 'json',
    overwrite: true
  }).answer();
  expect(replaced.type).toBe('exported');
  expect(JSON.parse(readFileSync(join(cwd, 'mine.json'), 'utf8'))).toHaveLength(
    COUNT
  );
  const unnamed = await startExport({
    exportId: 'e7',
    connection: 'es',
    target: 'products',
    file: ' ',
    format: 'json'
  }).answer();
  expect(unnamed.type === 'error' && unnamed.message).toMatch(
    /Name the file to write, for example products\.jsonl/
  );
});

it("an index whose _source the engine rebuilds (logsdb): the export's last line says the file holds the rebuilt documents", async () => {
  const index = `logs-${randomUUID().slice(0, 8)}`;
  const auth = `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`;
  for (const [path, body] of [
    [`/${index}`, { settings: { 'index.mode': 'logsdb' } }],
    [
      `/${index}/_doc?refresh=true`,
      { message: 'started', '@timestamp': '2026-11-27T03:00:00Z' }
    ]
  ] as const) {
    const answer = await fetch(`${sandbox.esUrl}${path}`, {
      method: path.includes('_doc') ? 'POST' : 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body)
    });
    expect(answer.status).toBeLessThan(300);
  }
  const reply = await startExport({
    exportId: 'logsdb',
    connection: 'es',
    target: index,
    file: `${index}.jsonl`,
    format: 'jsonl'
  }).answer();
  if (reply.type !== 'exported') {
    throw new Error(`not exported: ${JSON.stringify(reply)}`);
  }
  expect(reply.progress.text).toContain(
    "This index's _source is rebuilt by Elasticsearch (synthetic _source, index.mode: logsdb), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. The file holds the documents as rebuilt, and so will a re-import of it."
  );
  expect(lines(join(cwd, `${index}.jsonl`))).toHaveLength(1);
});
