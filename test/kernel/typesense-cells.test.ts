/**
 * Typesense cells over the wire (kernel process, ZeroMQ, sandbox over HTTP): the documents
 * export renders as a grid of the documents, as a search's hits do, and an int32 write error
 * fails the cell with the engine's message and advice on what to write, stopping the cell there.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { hitsPayloadRows } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import { KernelClient, errorOf } from '../support/kernel-client';
import { displays } from '../support/shown-text';
import { KernelMessage } from '../support/kernel-messages';

let kernel: KernelClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 5
    })
  ]);
  const { reply } = await kernel.execute(
    `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`
  );
  expect(reply.content.status).toBe('ok');
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('the documents export (JSONL) renders as a grid of the documents, columns from the schema', async () => {
  const { reply, iopub } = await kernel.execute(
    'GET /collections/books/documents/export?filter_by=year:<1960'
  );
  expect(reply.content.status).toBe('ok');
  const [bundle] = displays(iopub);
  const payload = HitsPayloadSchema.parse(bundle?.[HITS_MIME]);
  expect(payload.columns.map(c => c.name)).toEqual([
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
  const rows = hitsPayloadRows(payload);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(typeof row.id).toBe('string');
    expect(row.year as number).toBeLessThan(1960);
    expect(row['variants.sku']).toEqual(
      (row.variants as { sku: string }[]).map(v => v.sku)
    );
  }
  expect(String(bundle?.['text/plain'])).toMatch(
    new RegExp(
      `GET /collections/books/documents/export\\?filter_by=year:%3C1960 → 200 in \\d+ ms \\(${rows.length} shown\\)`
    )
  );
});

describe('an int32 field given "5" or 5.5', () => {
  const book = (year: unknown, id: string) =>
    JSON.stringify({
      id,
      title: 'T',
      author: 'A',
      genre: 'G',
      year,
      ratings_count: 1,
      rating: 1,
      in_print: true,
      meta: { pages: 1, publisher: 'P' }
    });

  it.each([
    ['"5"', '5'],
    ['5.5', 5.5]
  ])(
    '%s fails the cell with "Not an int32" and the advice, and the cell stops there',
    async (_label, year) => {
      const code = [
        `POST /collections/books/documents`,
        book(year, 'bad-year'),
        '',
        'POST /collections/books/documents',
        book(1999, 'after-bad-year')
      ].join('\n');
      const { reply, iopub } = await kernel.execute(code);
      expect(reply.content).toMatchObject({
        status: 'error',
        ename: 'RequestFailed'
      });
      expect(errorOf(reply).evalue).toMatch(
        /^Not an int32: Field `year` must be an int32\. An int32 field takes a whole number written without quotes.*a decimal with a fraction part is not an int32/
      );
      const error = iopub.find(KernelMessage.isErrorMsg);
      expect(error?.content.evalue).toBe(errorOf(reply).evalue);
      // The engine's answer is shown above the error.
      expect(displays(iopub)[0]?.['application/json']).toEqual({
        message: 'Field `year` must be an int32.'
      });
      // Nothing after the failed request ran.
      const later = await kernel.execute(
        'GET /collections/books/documents/after-bad-year'
      );
      expect(later.reply.content.status).toBe('error');
      expect(errorOf(later.reply).evalue).toContain(
        'Could not find a document with id: after-bad-year'
      );
    }
  );
});

it('SQL on a Typesense connection is refused with Typesense advice, not Elasticsearch advice', async () => {
  const { reply } = await kernel.execute(
    'SELECT * FROM books WHERE year > 2000'
  );
  expect(reply.content).toMatchObject({ status: 'error', ename: 'SQLRefused' });
  const traceback = errorOf(reply).traceback.join('\n');
  expect(traceback).toContain(
    'GET /collections/<name>/documents/search?q=<words>&query_by=<field>'
  );
  expect(traceback).toContain('filter_by=');
  expect(traceback).not.toMatch(/_search|"query"/);
});
