/**
 * What a user does first on a newly connected engine, through the kernel over ZeroMQ: run a
 * cell and read what it shows (its status, every output's text, and the hits grid's rows as
 * the grid rebuilds them from the payload).
 */
import { hitsPayloadRows, type Row } from '../../contracts/answer-rows';
import {
  HITS_MIME,
  HitsPayloadSchema,
  type HitsPayload
} from '../../contracts/mime-types';
import type { KernelClient } from '../support/kernel-client';
import { displaysAndUpdates } from '../support/shown-text';

export interface CellRun {
  status: unknown;
  /** Every output's content and the reply, as JSON text (for `toContain`). */
  text: string;
  /** The last hits grid shown (a progress display is replaced by it), or undefined. */
  hits: { payload: HitsPayload; rows: Row[] } | undefined;
}

export async function runCell(
  kernel: KernelClient,
  code: string
): Promise<CellRun> {
  const { reply, iopub } = await kernel.execute(code);
  const grids = displaysAndUpdates(iopub).filter(
    bundle => bundle[HITS_MIME] !== undefined
  );
  const last = grids[grids.length - 1];
  const payload = last ? HitsPayloadSchema.parse(last[HITS_MIME]) : undefined;
  return {
    status: reply.content['status'],
    text: JSON.stringify([reply.content, ...iopub.map(m => m.content)]),
    hits: payload ? { payload, rows: hitsPayloadRows(payload) } : undefined
  };
}

/** Creates `index` with a small product mapping and three documents, through cells. */
export async function indexThreeProducts(
  kernel: KernelClient,
  index: string,
  titleAnalyzer?: string
): Promise<void> {
  const title = titleAnalyzer
    ? { type: 'text', analyzer: titleAnalyzer }
    : { type: 'text' };
  const created = await runCell(
    kernel,
    `PUT /${index}\n${JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { title: title, sku: { type: 'keyword' }, price: { type: 'double' } } } })}`
  );
  if (created.status !== 'ok') {
    throw new Error(`creating ${index} failed: ${created.text.slice(0, 600)}`);
  }
  const documents = [
    { title: 'red lamp', sku: 'L-1', price: 10.5 },
    { title: 'blue lamp', sku: 'L-2', price: 20 },
    { title: 'green chair', sku: 'C-1', price: 30 }
  ];
  const lines = documents.flatMap((doc, n) => [
    JSON.stringify({ index: { _id: String(n + 1) } }),
    JSON.stringify(doc)
  ]);
  const loaded = await runCell(
    kernel,
    `POST /${index}/_bulk?refresh=true\n${lines.join('\n')}`
  );
  if (loaded.status !== 'ok' || !loaded.text.includes('"errors":false')) {
    throw new Error(`loading ${index} failed: ${loaded.text.slice(0, 600)}`);
  }
}

/**
 * Searches the products `indexThreeProducts` made for `word` in their titles: the hits grid
 * shows the two lamps, cheapest first, with the columns their mapping types.
 */
export async function expectLampsFound(
  kernel: KernelClient,
  index: string,
  word: string
): Promise<void> {
  const search = await runCell(
    kernel,
    `GET /${index}/_search\n{"query": {"match": {"title": "${word}"}}, "sort": [{"price": "asc"}]}`
  );
  expect(search.status).toBe('ok');
  expect(search.hits?.payload.total).toEqual({ value: 2, relation: 'eq' });
  expect(
    search.hits?.rows.map(row => [
      row['_id'],
      row['title'],
      row['sku'],
      row['price']
    ])
  ).toEqual([
    ['1', 'red lamp', 'L-1', 10.5],
    ['2', 'blue lamp', 'L-2', 20]
  ]);
  const types = Object.fromEntries(
    (search.hits?.payload.columns ?? []).map(c => [c.name, c.type])
  );
  expect(types).toMatchObject({
    _id: 'keyword',
    title: 'text',
    sku: 'keyword',
    price: 'double'
  });
}
