/**
 * `%export` over the wire (kernel process, ZeroMQ, sandbox over HTTP): files land in
 * the kernel's working directory (the notebook's), progress is one output updated in place
 * (display_id) readable as text/plain and text/html, the final line gives documents, bytes,
 * file and time; an interrupt says how far it got; bad lines are refused with nothing sent.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import { partialsOf, scratchDir } from '../export/export-helpers';
import { startExportSandbox } from '../export/export-sandbox';
import type { BreakingProxy } from '../support/breaking-proxy';
import { KernelClient, errorOf, okOf } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

const COUNT = 3_000;
let kernel: KernelClient;
let sandbox: RunningSandbox;
let proxy: BreakingProxy;
const cwd = scratchDir();

beforeAll(async () => {
  const started = await startExportSandbox(COUNT);
  ({ sandbox, proxy } = started);
  kernel = await KernelClient.start({ ...SECRETS }, { cwd });
  const connected = await kernel.execute(started.connect);
  expect(connected.reply.content.status).toBe('ok');
  const window = await kernel.execute(started.windowCell(500));
  expect(window.reply.content.status).toBe('ok');
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

const plain = (m: KernelMessage.IUpdateDisplayDataMsg | undefined) =>
  String(m?.content.data['text/plain'] ?? '');

it('writes the file next to the notebook, with progress updated in place and a final line', async () => {
  proxy.rules.push({ matches: (_m, url) => url === '/_search', delayMs: 300 });
  const { reply, iopub } = await kernel.execute(
    '%export products products.jsonl'
  );
  expect(reply.content.status).toBe('ok');
  const file = join(cwd, 'products.jsonl');
  expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(
    COUNT
  );
  const [shown, ...more] = iopub.filter(KernelMessage.isDisplayDataMsg);
  expect(more).toHaveLength(0);
  const displayId = shown?.content.transient?.display_id;
  expect(displayId).toEqual(expect.any(String));
  const updates = iopub.filter(KernelMessage.isUpdateDisplayDataMsg);
  expect(updates.length).toBeGreaterThan(1);
  for (const u of updates) {
    expect(u.content.transient.display_id).toBe(displayId);
  }
  expect(
    updates
      .map(plain)
      .some(t =>
        /^Exporting products to products\.jsonl: [\d,]+ of 3,000 documents \(\d+%\), [\d,]+ docs\/s, about \d+ s left$/.test(
          t
        )
      )
  ).toBe(true);
  const last = updates.at(-1);
  const bytes = statSync(file).size;
  expect(plain(last)).toMatch(
    new RegExp(
      `^Exported 3,000 documents of products \\(${bytes.toLocaleString('en-US')} bytes, [\\d.]+ [KM]B\\) to products\\.jsonl in [\\d.]+ s \\([\\d,]+ docs/s\\)\\.$`
    )
  );
  const html = String(last?.content.data['text/html']);
  expect(html).toContain('<progress max="3000" value="3000"></progress>');
  expect(html).toContain('Exported 3,000 documents of products');
});

it('slices=2 writes the records one cursor writes, the header included', async () => {
  const one = await kernel.execute('%export products one.csv');
  expect(one.reply.content.status).toBe('ok');
  const two = await kernel.execute('%export products two.csv slices=2');
  expect(two.reply.content.status).toBe('ok');
  const records = (name: string) =>
    readFileSync(join(cwd, name), 'utf8').split('\r\n');
  const [header, ...lines] = records('one.csv');
  const [slicedHeader, ...slicedLines] = records('two.csv');
  expect(slicedHeader).toBe(header);
  expect(lines.filter(Boolean)).toHaveLength(COUNT);
  expect(slicedLines.sort()).toEqual(lines.sort());
  const slices = new Set(
    proxy.seen
      .filter(r => r.url === '/_search')
      .map(r => (JSON.parse(r.body) as { slice?: { id: number } }).slice?.id)
  );
  expect(slices).toEqual(new Set([undefined, 0, 1]));
});

it('an interrupt stops the export and says how far it got; no complete-looking file is left', async () => {
  proxy.rules.push({ matches: (_m, url) => url === '/_search', delayMs: 400 });
  const cell = await kernel.submit('shell', 'execute_request', {
    code: '%export products stopped.csv',
    silent: false,
    store_history: true,
    user_expressions: {},
    allow_stdin: false,
    stop_on_error: true
  });
  const deadline = Date.now() + 10_000;
  while (
    proxy.seen.filter(r => r.url === '/_search').length < 3 &&
    Date.now() < deadline
  ) {
    await new Promise(r => setTimeout(r, 20));
  }
  const interrupt = await kernel.request('control', 'interrupt_request', {});
  expect(interrupt.content.status).toBe('ok');
  const reply = await cell.reply;
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Interrupted'
  });
  expect(String(reply.content.evalue)).toMatch(
    /^The export of products was interrupted after [\d,]+ of 3,000 documents \([\d,]+ bytes.*\) in [\d.]+ s: stopped\.csv was not written; the documents read so far are in stopped\.csv\.searchbook-[0-9a-f]{8}\.partial\.$/
  );
  expect(existsSync(join(cwd, 'stopped.csv'))).toBe(false);
  // The file the message names holds what was read; it is the only one left.
  const named = /in (stopped\.csv\.searchbook-[0-9a-f]{8}\.partial)\.$/.exec(
    String(reply.content.evalue)
  )?.[1] as string;
  expect(partialsOf(cwd, 'stopped.csv')).toEqual([join(cwd, named)]);
  expect(
    readFileSync(join(cwd, named), 'utf8').split('\r\n').length
  ).toBeGreaterThan(1);
  const later = await kernel.execute('%connections');
  expect(later.reply.content.status).toBe('ok');
});

it('an existing file is kept unless overwrite is given', async () => {
  writeFileSync(join(cwd, 'mine.json'), '[]\n');
  const refused = await kernel.execute('%export products mine.json');
  expect(refused.reply.content).toMatchObject({
    status: 'error',
    ename: 'FileExists'
  });
  expect(errorOf(refused.reply).traceback.join('\n')).toContain(
    'Add overwrite to the %export line'
  );
  expect(readFileSync(join(cwd, 'mine.json'), 'utf8')).toBe('[]\n');
  expect(proxy.seen).toHaveLength(0);
  const replaced = await kernel.execute(
    '%export products mine.json overwrite\n{"range": {"price": {"gte": 490}}}'
  );
  expect(replaced.reply.content.status).toBe('ok');
  const docs = JSON.parse(readFileSync(join(cwd, 'mine.json'), 'utf8')) as {
    _source: { price: number };
  }[];
  expect(docs.length).toBeGreaterThan(0);
  for (const d of docs) {
    expect(d._source.price).toBeGreaterThanOrEqual(490);
  }
});

it.each([
  [
    '%export products',
    /needs an index or collection and a file name/,
    /Write `%export <index-or-collection> <file>/
  ],
  [
    '%export products out.xml format=xml',
    /format=xml is not a format/,
    /format=jsonl, format=csv or format=json/
  ],
  [
    '%export products out.jsonl slices=0',
    /slices=0 is not a number of slices/,
    /slices=N with N from 1 to 64/
  ],
  [
    '%export products out.jsonl fields=',
    /fields= needs field names/,
    /fields=title,author/
  ],
  [
    '%export products out.jsonl --force',
    /does not know `--force`/,
    /overwrite/
  ],
  ['%export products out.jsonl\n{"query": ', /./, /./]
])(
  '%s is refused before anything is sent, saying what to write',
  async (code, message, hint) => {
    const { reply } = await kernel.execute(code);
    expect(reply.content.status).toBe('error');
    expect(errorOf(reply).evalue).toMatch(message);
    expect(errorOf(reply).evalue).toContain('Nothing was sent');
    expect(errorOf(reply).traceback.join('\n')).toMatch(hint);
    expect(proxy.seen).toHaveLength(0);
    expect(existsSync(join(cwd, 'out.jsonl'))).toBe(false);
  }
);

it("Tab on a %export line completes the index, then the options and the index's field names", async () => {
  const complete = async (code: string) => {
    const reply = await kernel.request('shell', 'complete_request', {
      code,
      cursor_pos: [...code].length
    });
    expect(reply.content.status).toBe('ok');
    return okOf(reply).matches as string[];
  };
  expect(await complete('%export prod')).toEqual(['products']);
  expect(await complete('%export products out.csv ')).toEqual([
    'format=',
    'fields=',
    'slices=',
    'overwrite'
  ]);
  expect(await complete('%export products out.csv format=c')).toEqual([
    'format=csv'
  ]);
  expect(
    await complete('%export products out.csv fields=name,address.c')
  ).toEqual(['address.city', 'address.country']);
});
