/** @jest-environment jsdom */
import './support/dom';
import { Widget } from '@lumino/widgets';
import { HITS_MIME } from '../../contracts/mime-types';
import {
  rangeAsTsv,
  selectedRange
} from '../../extension/src/datagrid/selection-copy';
import { ResultsOutput } from '../../extension/src/mime/results-output';
import { outputGrids } from './support/output-grids';

const info = {
  connection: 'ts',
  engine: 'typesense' as const,
  method: 'GET',
  path: '/collections/books/documents/search',
  status: 200,
  elapsedMs: 3
};

async function render(aggregations: unknown[]): Promise<ResultsOutput> {
  const output = new ResultsOutput(HITS_MIME);
  Widget.attach(output, document.body);
  const payload = {
    info,
    columns: [],
    rows: [],
    omittedRows: 0,
    cut: [],
    aggregations
  };
  await output.renderModel({
    data: { [HITS_MIME]: payload },
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never);
  return output;
}

afterEach(() => {
  document.body.innerHTML = '';
});

it('paints statistics grouped and cut (never rounded) with a mark where digits are left out, keys as written; copies keep the exact values', async () => {
  const output = await render([
    {
      name: 'by_year',
      rows: [
        {
          key: 1990,
          doc_count: 1234567,
          avg_price: 252.25223404255382,
          share: 0.000123456
        }
      ]
    }
  ]);
  const [grid] = outputGrids(output);
  const painted = [0, 1, 2, 3].map(c => grid?.model.data('body', 0, c));
  expect(painted).toEqual(['1990', '1,234,567', '252.25…', '0.000123…']);
  const tsv = grid
    ? rangeAsTsv(grid.model, selectedRange(grid.model, null))
    : '';
  expect(tsv).toBe(
    'key\tdoc_count\tavg_price\tshare\n1990\t1234567\t252.25223404255382\t0.000123456'
  );
});

it('titles Typesense facets as facets, Elasticsearch aggregations as aggregations', async () => {
  const output = await render([
    { name: 'genre', kind: 'facet', rows: [{ key: 'Fiction', doc_count: 3 }] },
    { name: 'brands', rows: [{ key: 'acme', doc_count: 7 }] }
  ]);
  const titles = [
    ...output.node.querySelectorAll('.searchbook-Aggregation-title')
  ].map(n => n.textContent);
  expect(titles).toEqual(['Facet genre', 'Aggregation brands']);
});

it('labels the bars of a sub-aggregation with the parent keys and its own, and says the notes and what is not shown under the table, as text', async () => {
  const output = await render([
    {
      name: 'brands > colors',
      rows: [
        { brands: 'acme', key: 'red', doc_count: 4 },
        { brands: '<b>globex</b>', key: 'red', doc_count: 8 }
      ],
      keyColumns: ['brands', 'key'],
      notes: [
        'documents in other buckets (sum_other_doc_count), per brands bucket: acme: 3; <b>globex</b>: 0'
      ],
      notShown: ['brands.buckets[].colors.key']
    }
  ]);
  const labels = [
    ...output.node.querySelectorAll('.searchbook-BarChart-label')
  ].map(n => n.textContent);
  expect(labels).toEqual(['acme · red', '<b>globex</b> · red']);
  const notes = [
    ...output.node.querySelectorAll('.searchbook-Aggregation-note')
  ].map(n => n.textContent);
  expect(notes).toEqual([
    'documents in other buckets (sum_other_doc_count), per brands bucket: acme: 3; <b>globex</b>: 0',
    "Not shown in this table (read them in Raw JSON, the engine's answer): brands.buckets[].colors.key."
  ]);
  // Values from the answer are text, never markup.
  expect(output.node.querySelector('b')).toBeNull();
  // Parent keys read as written, like the bucket's own key.
  const [grid] = outputGrids(output);
  expect([0, 1, 2].map(c => grid?.model.data('body', 0, c))).toEqual([
    'acme',
    'red',
    '4'
  ]);
});

it('shows a partial failure as a warning under the status line, reasons as text', async () => {
  const output = new ResultsOutput(HITS_MIME);
  Widget.attach(output, document.body);
  const partialFailures = [
    {
      failed: 1,
      of: 2,
      unit: 'shards',
      outcome: 'failed',
      reasons: ['products shard 0: <i>query_shard_exception</i>']
    }
  ];
  const payload = {
    info: { ...info, partialFailures },
    columns: [],
    rows: [],
    omittedRows: 0,
    cut: [],
    aggregations: []
  };
  await output.renderModel({
    data: { [HITS_MIME]: payload },
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never);
  expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
    'ts · GET /collections/books/documents/search · 200 · 3 ms · ⚠ 1 of 2 shards failed · 0 shown'
  );
  const warning = output.node.querySelector('.searchbook-Warning');
  expect(warning?.getAttribute('role')).toBe('alert');
  expect(warning?.textContent).toBe(
    'Warning: 1 of 2 shards failed. First reasons:\n  - products shard 0: <i>query_shard_exception</i>'
  );
  expect(output.node.querySelector('i')).toBeNull();
});

it('draws no bar chart for a single-bucket aggregation (nested, filter, global): its one count has no bucket to name', async () => {
  const output = await render([
    { name: 'variants', rows: [{ doc_count: 37527 }] },
    {
      name: 'variants > colors',
      rows: [{ key: 'red', doc_count: 5422 }],
      keyColumns: ['key']
    }
  ]);
  const charts = [...output.node.querySelectorAll('.searchbook-BarChart')].map(
    n => n.getAttribute('aria-label')
  );
  expect(charts).toEqual(['Bar chart of variants > colors']);
  const [grid] = outputGrids(output);
  expect(grid?.model.data('body', 0, 0)).toBe('37,527');
});

it('a table read back from a saved notebook, whose rows nbformat wrote with sorted keys, keeps the engine order of its columns', async () => {
  const sortedKeys = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).sort(([a], [b]) => a.localeCompare(b))
    );
  const rows = [
    {
      key: 'Initech',
      doc_count: 2368,
      'price_stats.min': 1.38,
      'price_stats.max': 499.93
    }
  ].map(sortedKeys);
  const output = await render([
    {
      name: 'brands',
      rows,
      columns: ['key', 'doc_count', 'price_stats.min', 'price_stats.max']
    }
  ]);
  const [grid] = outputGrids(output);
  expect(
    [0, 1, 2, 3].map(c => grid?.model.data('column-header', 0, c))
  ).toEqual(['key', 'doc_count', 'price_stats.min', 'price_stats.max']);
});
