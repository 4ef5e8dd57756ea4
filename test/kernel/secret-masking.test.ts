/**
 * Secrets masked in every output of a cell, over ZeroMQ against the Elasticsearch sandbox: a
 * value that reached a request through `${env:NAME}` and that the engine echoes back (a 404's
 * `_id`) shows as `${env:NAME}` in the bundle of every MIME type, the fallbacks, the error and
 * the reply: nothing of the cell, which the notebook saves, holds the value.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import {
  type ExecuteReply,
  KernelClient,
  type IopubMessage
} from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(60_000);

/** Quotes and HTML's special characters too, which JSON, the swapped answer and the HTML fallback each write differently. */
const DOC_SECRET = 'pw-"quoted"-it\'s-<b>&-7f3a';

let kernel: KernelClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS, DOC_SECRET, SHORT_ID: 'doc' }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 20
    })
  ]);
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
  );
  expect(reply.content.status).toBe('ok');
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

/** Every form the value could be written in: as is, in a JSON string, quote-swapped, HTML-escaped. */
function forms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const swapped = [...escaped]
    .map(c => (c === '"' ? "'" : c === "'" ? '"' : c))
    .join('');
  const html = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    ...new Set([
      secret,
      escaped,
      swapped,
      html(secret),
      html(escaped),
      html(swapped),
      encodeURIComponent(secret)
    ])
  ];
}

function cellText(reply: ExecuteReply, iopub: IopubMessage[]): string {
  return [reply, ...iopub].map(m => JSON.stringify(m)).join('\n');
}

it('a 404 whose _id echoes ${env:NAME} shows ${env:NAME} in every output, fallback, error and reply', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /products/_doc/${env:DOC_SECRET}'
  );
  const text = cellText(reply, iopub);
  for (const form of forms(DOC_SECRET)) {
    expect(text).not.toContain(form);
  }
  for (const secret of Object.values(SECRETS)) {
    expect(text).not.toContain(secret);
  }
  // The answer is still shown, with the reference where the value was.
  const data = iopub.find(KernelMessage.isDisplayDataMsg)?.content.data ?? {};
  expect(Object.keys(data).length).toBeGreaterThan(1);
  for (const [mime, value] of Object.entries(data)) {
    expect([mime, JSON.stringify(value)]).toEqual([
      mime,
      expect.stringContaining('${env:DOC_SECRET}')
    ]);
  }
  expect(String(data['text/plain'])).toContain(
    'GET /products/_doc/${env:DOC_SECRET}'
  );
});

it('an error text that repeats the value masks it too', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /${env:DOC_SECRET}/_search'
  );
  expect(reply.content.status).toBe('error');
  const text = cellText(reply, iopub);
  for (const form of forms(DOC_SECRET)) {
    expect(text).not.toContain(form);
  }
  expect(text).toContain('${env:DOC_SECRET}');
});

it('values shorter than four characters are left alone, so an answer stays readable', async () => {
  const { iopub } = await kernel.execute('GET /products/_doc/${env:SHORT_ID}');
  const data = iopub.find(KernelMessage.isDisplayDataMsg)?.content.data;
  expect(data?.['text/plain']).toMatch(/"_id": "doc"/);
});

it('an answer sent as a message buffer (the Python magics read it so) shows ${env:NAME} where a document holds the value', async () => {
  const put = await kernel.execute(
    'PUT /products/_doc/masked?refresh=true\n{"name": ${env:DOC_SECRET}}'
  );
  expect(put.reply.content.status).toBe('ok');
  const { reply, iopub } = await kernel.execute(
    'GET /products/_search\n{"query": {"ids": {"values": ["masked"]}}}',
    {},
    { searchbook: { answerAsBuffer: true } }
  );
  expect(reply.content.status).toBe('ok');
  const output = iopub.find(KernelMessage.isDisplayDataMsg);
  const payload = HitsPayloadSchema.parse(output?.content.data[HITS_MIME]);
  expect(payload.answer).toBeUndefined();
  const text = String(output?.buffers?.[payload.answerBuffer ?? -1]);
  for (const form of forms(DOC_SECRET)) {
    expect(text).not.toContain(form);
    expect(cellText(reply, iopub)).not.toContain(form);
  }
  const answer = JSON.parse(text) as {
    hits: { hits: { _id: string; _source: { name: string } }[] };
  };
  expect(answer.hits.hits.map(h => [h._id, h._source.name])).toEqual([
    ['masked', '${env:DOC_SECRET}']
  ]);
});
