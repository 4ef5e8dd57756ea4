/**
 * A table of buckets in buckets multiplies rows (50 parents × 500 buckets is 25,000 rows): over
 * ZeroMQ against the Elasticsearch sandbox, the notebook keeps the first rows of such a table
 * and says under it how many more the answer holds, and the text and HTML fallbacks show as many
 * rows as fit their share and say what they leave out, in place.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { swapQuotes } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { DEFAULT_LIMITS } from '../../kernel/src/render/output-limits';
import { SECRETS } from '../drivers/helpers';
import { KernelClient } from '../support/kernel-client';
import { displaysAndUpdates } from '../support/shown-text';
import { swappedAnswerText } from '../../contracts/answer-format';

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
      products: 3_000
    })
  ]);
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=es`
  );
  expect(reply.content.status).toBe('ok');
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('a terms of 500 names inside a terms of categories: the first rows kept, the rest counted under the table in the grid and both fallbacks', async () => {
  // Every product's name is its own, so each category holds up to 500 name buckets.
  const { reply, iopub } = await kernel.execute(
    'GET /products/_search\n{"size": 0, "aggs": {"cats": {"terms": {"field": "category", "size": 10}, "aggs": {"names": {"terms": {"field": "name.keyword", "size": 500}}}}}}'
  );
  expect(reply.content.status).toBe('ok');
  const data = displaysAndUpdates(iopub).find(d => d[HITS_MIME] !== undefined);
  const payload = HitsPayloadSchema.parse(data?.[HITS_MIME]);
  const answer = JSON.parse(swapQuotes(String(swappedAnswerText(payload)))) as {
    aggregations: { cats: { buckets: { names: { buckets: unknown[] } }[] } };
  };
  const inAnswer = answer.aggregations.cats.buckets.reduce(
    (sum, b) => sum + b.names.buckets.length,
    0
  );
  expect(inAnswer).toBeGreaterThan(DEFAULT_LIMITS.gridRows);

  const table = payload.aggregations.find(a => a.name === 'cats > names');
  expect(table?.rows).toHaveLength(DEFAULT_LIMITS.gridRows);
  expect(table?.omittedRows).toBe(inAnswer - DEFAULT_LIMITS.gridRows);
  const said = `${(inAnswer - DEFAULT_LIMITS.gridRows).toLocaleString('en-US')} more rows of this table are not in the notebook (read them in Raw JSON, or raise Rows kept in notebook outputs in searchbook`;

  const plain = String(data?.['text/plain']);
  const html = String(data?.['text/html']);
  for (const text of [plain, html]) {
    const under = text.slice(
      text.indexOf('Aggregation cats &gt; names') >= 0
        ? text.indexOf('Aggregation cats &gt; names')
        : text.indexOf('Aggregation cats > names')
    );
    expect(under).toContain(said);
    // The fallbacks show what fits their share of the notebook and say so right under the table.
    expect(under).toMatch(
      new RegExp(
        `This table shows the first \\d+ of the ${DEFAULT_LIMITS.gridRows} rows this notebook holds`
      )
    );
    expect(text.length).toBeLessThan(4 * DEFAULT_LIMITS.fallbackChars);
  }
});
