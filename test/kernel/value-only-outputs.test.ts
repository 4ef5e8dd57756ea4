/**
 * A frontend that reads only the answers' values (a quiet magic call in a Python kernel) says
 * so in the execute_request's metadata, `{"searchbook": {"valueOnly": true}}`: over ZeroMQ
 * against the sandbox, the kernel then sends the same answer payload without the text and HTML
 * grids (their summary line only), and a shown cell keeps its grids. Metadata it cannot read
 * changes nothing.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  ANSWER_BYTES_MIME,
  HITS_MIME,
  HitsPayloadSchema,
  TABLE_MIME
} from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import { KernelClient } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';
import { displays, plainText, type MimeBundle } from '../support/shown-text';

jest.setTimeout(60_000);

let kernel: KernelClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS, DOC_SECRET }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 200
    })
  ]);
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=es`
  );
  expect(reply.content).toMatchObject({ status: 'ok' });
});

afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

const SEARCH = 'GET /products/_search?size=100&sort=created_at:asc';
const DOC_SECRET = 'pw-"quoted"-7f3a-secret';
const VALUE_ONLY = { searchbook: { valueOnly: true } };

/** The one display_data bundle of a cell that ran without error. */
async function bundleOf(
  code: string,
  metadata: Record<string, unknown> = {}
): Promise<MimeBundle> {
  const { reply, iopub } = await kernel.execute(code, {}, metadata);
  expect(reply.content).toMatchObject({ status: 'ok' });
  const shown = displays(iopub);
  expect(shown).toHaveLength(1);
  return shown[0] ?? {};
}

/** A payload without what differs between two runs of one request: the kernel's and the engine's timings. */
const withoutTiming = (payload: unknown): unknown =>
  JSON.parse(
    JSON.stringify(payload)
      .replace(/"elapsedMs":[0-9.e+-]+/g, '"elapsedMs":0')
      .replace(/'took':\d+/g, "'took':0")
  );

it('a value-only search sends the same answer payload with its summary line instead of the grids', async () => {
  const shown = await bundleOf(SEARCH);
  const valueOnly = await bundleOf(SEARCH, VALUE_ONLY);

  expect(withoutTiming(valueOnly[HITS_MIME])).toEqual(
    withoutTiming(shown[HITS_MIME])
  );
  expect(HitsPayloadSchema.parse(valueOnly[HITS_MIME]).omittedRows).toBe(0);
  // The shown cell's fallbacks hold its rows; the value-only one's only the summary line.
  expect(shown['text/html']).toContain('<table');
  expect(valueOnly['text/html']).not.toContain('<table');
  const summary = plainText(valueOnly);
  expect(summary).toMatch(
    /^es: GET \/products\/_search\S* → 200 in \d+ ms \(200 total, 100 shown\)$/
  );
  // The shown text grid holds rows under its summary line.
  expect(plainText(shown)?.split('\n').length).toBeGreaterThan(5);
});

it('a value-only table answer keeps its rows and loses its grids', async () => {
  const code = 'GET /_cat/indices?format=json';
  const shown = await bundleOf(code);
  const valueOnly = await bundleOf(code, VALUE_ONLY);
  expect(withoutTiming(valueOnly[TABLE_MIME])).toEqual(
    withoutTiming(shown[TABLE_MIME])
  );
  expect(shown['text/html']).toContain('<table');
  expect(valueOnly['text/html']).not.toContain('<table');
});

it('metadata the kernel cannot read shows the grids as always', async () => {
  for (const metadata of [
    { searchbook: { valueOnly: 'yes' } },
    { searchbook: 'quiet' },
    { other: { valueOnly: true } }
  ]) {
    const bundle = await bundleOf(SEARCH, metadata);
    expect(bundle['text/html']).toContain('<table');
  }
});

it('a quiet search sent as the engine’s bytes (as the Python magics ask) gives what a shown one gives: payload, bytes, secrets masked, every digit', async () => {
  // Documents of several shapes: unmapped fields, objects, arrays, nulls, numbers no double holds, a secret.
  const docs = [
    '{"ref": "1", "name": ${env:DOC_SECRET}, "n": 9007199254740993, "extra": {"deep": "x", "big": 12345678901234567890}, "tags": ["a", "b"]}',
    '{"ref": "2", "name": "b \\"q\\" é", "n": 2, "mixed": [{"k": 1}, null], "flag": true, "none": null}',
    '{"ref": "3", "name": "c", "other": {}}'
  ];
  for (const [i, doc] of docs.entries()) {
    const { reply } = await kernel.execute(
      `PUT /shapes/_doc/${i + 1}?refresh=true\n${doc}`
    );
    expect(reply.content).toMatchObject({ status: 'ok' });
  }
  const search = 'GET /shapes/_search';
  const sent = async (valueOnly: boolean) => {
    const { reply, iopub } = await kernel.execute(
      search,
      {},
      { searchbook: { answerAsBuffer: true, valueOnly } }
    );
    expect(reply.content).toMatchObject({ status: 'ok' });
    const output = iopub.find(KernelMessage.isDisplayDataMsg);
    const payload = HitsPayloadSchema.parse(output?.content.data[HITS_MIME]);
    const bytes = String(output?.buffers?.[payload.answerBuffer ?? -1]);
    const grids = [
      output?.content.data['text/plain'],
      output?.content.data['text/html']
    ].map(text => String(text).replace(/ in \d+ ms/g, ''));
    return { payload, bytes: bytes.replace(/"took":\d+/, '"took":0'), grids };
  };
  const shown = await sent(false);
  const quiet = await sent(true);
  expect(withoutTiming(quiet.payload)).toEqual(withoutTiming(shown.payload));
  expect(quiet.payload.columns.map(c => c.name)).toEqual(
    expect.arrayContaining(['extra.deep', 'extra.big', 'mixed', 'other'])
  );
  expect(quiet.bytes).toBe(shown.bytes);
  // A shown grid read from the documents one by one is the grid of the whole answer (as JupyterLab asks).
  const asJupyterLab = await bundleOf(search);
  expect(shown.grids).toEqual(
    [asJupyterLab['text/plain'], asJupyterLab['text/html']].map(text =>
      String(text).replace(/ in \d+ ms/g, '')
    )
  );
  expect(shown.grids[1]).toContain('${env:DOC_SECRET}');
  expect(shown.grids[1]).toContain('12345678901234567890');
  expect(quiet.bytes).toContain('9007199254740993');
  expect(quiet.bytes).toContain('12345678901234567890');
  expect(quiet.bytes).not.toContain('7f3a-secret');
  expect(quiet.bytes).toContain('${env:DOC_SECRET}');
  // The answer a quiet call leaves for %set is the whole one, not its shape.
  await kernel.execute(
    search,
    {},
    { searchbook: { answerAsBuffer: true, valueOnly: true } }
  );
  const refs = await kernel.execute('%set refs = hits.hits[*]._source.ref');
  expect(refs.reply.content).toMatchObject({ status: 'ok' });
  const found = await bundleOf(
    'GET /shapes/_search\n{"query": {"ids": {"values": ${refs}}}}',
    VALUE_ONLY
  );
  expect(HitsPayloadSchema.parse(found[HITS_MIME]).total?.value).toBe(3);
});

it('asked for early bytes (as the Python magics ask), a search answer’s bytes come before its output, masked, as its output carries them', async () => {
  const { reply } = await kernel.execute(
    'PUT /early/_doc/1?refresh=true\n{"name": ${env:DOC_SECRET}, "n": 9007199254740993}'
  );
  expect(reply.content).toMatchObject({ status: 'ok' });
  const run = async (code: string, asked: Record<string, unknown>) => {
    const { reply, iopub } = await kernel.execute(
      code,
      {},
      { searchbook: { answerAsBuffer: true, ...asked } }
    );
    const outputs = iopub.filter(KernelMessage.isDisplayDataMsg);
    return { status: reply.content.status, outputs };
  };
  for (const valueOnly of [true, false]) {
    const { status, outputs } = await run('GET /early/_search', {
      answerEarly: true,
      valueOnly
    });
    expect(status).toBe('ok');
    const [early, answer] = outputs;
    expect(outputs).toHaveLength(2);
    expect(Object.keys(early?.content.data ?? {})).toEqual([ANSWER_BYTES_MIME]);
    const at = (
      early?.content.data[ANSWER_BYTES_MIME] as { answerBuffer: number }
    ).answerBuffer;
    const earlyBytes = String(early?.buffers?.[at]);
    const payload = HitsPayloadSchema.parse(answer?.content.data[HITS_MIME]);
    expect(earlyBytes).toBe(
      String(answer?.buffers?.[payload.answerBuffer ?? -1])
    );
    expect(earlyBytes).toContain('${env:DOC_SECRET}');
    expect(earlyBytes).not.toContain('7f3a-secret');
    expect(earlyBytes).toContain('9007199254740993');
  }
  // Not asked, not a search, or the request failed: the answer's output alone.
  const unasked = await run('GET /early/_search', { valueOnly: true });
  expect(unasked.outputs).toHaveLength(1);
  const document = await run('GET /early/_doc/1', {
    answerEarly: true,
    valueOnly: true
  });
  expect(document.status).toBe('ok');
  expect(document.outputs).toHaveLength(1);
  const failed = await run('GET /no-such-index/_search', {
    answerEarly: true,
    valueOnly: true
  });
  expect(failed.status).toBe('error');
  expect(
    failed.outputs.filter(o => ANSWER_BYTES_MIME in o.content.data)
  ).toHaveLength(0);
});
