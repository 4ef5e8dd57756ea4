/** @jest-environment jsdom */
import './support/dom';
import { Widget } from '@lumino/widgets';
import { swapQuotes } from '../../contracts/answer-rows';
import { ANSWER_FORMAT, TABLE_MIME } from '../../contracts/mime-types';
import { type GridView } from '../../extension/src/datagrid/grid-view';
import {
  rangeAsTsv,
  selectedRange
} from '../../extension/src/datagrid/selection-copy';
import { ResultsOutput } from '../../extension/src/mime/results-output';
import { outputGrids } from './support/output-grids';

/** A table payload as the kernel writes one for an ES|QL answer (`POST /_query`). */
const esql = {
  info: {
    connection: 'es',
    engine: 'elasticsearch',
    method: 'POST',
    path: '/_query',
    status: 200,
    elapsedMs: 4
  },
  columns: ['c', 'brand', 'tags'],
  types: ['long', 'keyword', 'keyword'],
  rows: [
    { c: 3, brand: 'acme', tags: ['new', 'sale'] },
    { c: '9007199254740993', brand: '<b>big</b>', tags: null }
  ],
  omittedRows: 0,
  cut: [],
  notes: [
    'Partial answer (is_partial): some shards or clusters did not answer, so rows may be missing. Their failures are in Raw JSON (_clusters).'
  ]
};

async function render(payload: unknown): Promise<ResultsOutput> {
  const output = new ResultsOutput(TABLE_MIME);
  Widget.attach(output, document.body);
  await output.renderModel({
    data: { [TABLE_MIME]: payload, 'text/plain': 'fallback' },
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never);
  return output;
}

function gridOf(output: ResultsOutput): GridView {
  const [grid] = outputGrids(output);
  if (!grid) {
    throw new Error('no grid in the output');
  }
  return grid;
}

afterEach(() => {
  document.body.innerHTML = '';
});

it('shows each column of an ES|QL table with its type under its name, in the answer order', async () => {
  const grid = gridOf(await render(esql));
  expect(grid.model.rowCount('column-header')).toBe(2);
  expect([0, 1, 2].map(c => grid.model.data('column-header', 0, c))).toEqual([
    'c',
    'brand',
    'tags'
  ]);
  expect([0, 1, 2].map(c => grid.model.data('column-header', 1, c))).toEqual([
    'long',
    'keyword',
    'keyword'
  ]);
});

it('paints a long past 2^53 with every digit, a multi-valued field as its array, null as empty, markup as text', async () => {
  const output = await render(esql);
  const grid = gridOf(output);
  expect([0, 1, 2].map(c => grid.model.data('body', 1, c))).toEqual([
    '9007199254740993',
    '<b>big</b>',
    ''
  ]);
  expect(grid.model.data('body', 0, 2)).toBe('["new","sale"]');
  expect(output.node.querySelector('b')).toBeNull();
  expect(rangeAsTsv(grid.model, selectedRange(grid.model, null))).toBe(
    'c\tbrand\ttags\n3\tacme\t["new","sale"]\n9007199254740993\t<b>big</b>\t'
  );
});

it('says under the table what the answer says of itself (a partial answer)', async () => {
  const output = await render(esql);
  expect(
    [...output.node.querySelectorAll('.searchbook-TableNote')].map(
      n => n.textContent
    )
  ).toEqual(esql.notes);
});

it('renders a table saved before types as it did: one header row, no notes', async () => {
  const { types: _types, notes: _notes, ...saved } = esql;
  const output = await render(saved);
  const grid = gridOf(output);
  expect(grid.model.rowCount('column-header')).toBe(1);
  expect(output.node.querySelector('.searchbook-TableNote')).toBeNull();
});

it('shows the answer in Raw JSON with a long past 2^53 digit for digit, as the engine sent it', async () => {
  const engine =
    '{"took":3,"columns":[{"name":"c","type":"long"},{"name":"u","type":"unsigned_long"}],"values":[[9007199254740993,18446744073709551615],[-9223372036854775808,"9007199254740993"]]}';
  const output = await render({
    ...esql,
    columns: ['c', 'u'],
    types: ['long', 'unsigned_long'],
    rows: [
      { c: '9007199254740993', u: '18446744073709551615' },
      { c: '-9223372036854775808', u: '9007199254740993' }
    ],
    answer: swapQuotes(engine),
    answerFormat: ANSWER_FORMAT
  });
  [...output.node.querySelectorAll('button')]
    .find(b => b.textContent === 'Raw JSON')
    ?.click();
  const raw = output.node.querySelector('.searchbook-RawJson')?.textContent;
  expect(raw).toBe(
    [
      '{',
      '  "took": 3,',
      '  "columns": [',
      '    {',
      '      "name": "c",',
      '      "type": "long"',
      '    },',
      '    {',
      '      "name": "u",',
      '      "type": "unsigned_long"',
      '    }',
      '  ],',
      '  "values": [',
      '    [',
      '      9007199254740993,',
      '      18446744073709551615',
      '    ],',
      '    [',
      '      -9223372036854775808,',
      '      "9007199254740993"',
      '    ]',
      '  ]',
      '}'
    ].join('\n')
  );
});
