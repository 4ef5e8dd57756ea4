/** @jest-environment jsdom */
/**
 * Grids over documents whose fields are named like JavaScript object properties (`constructor`,
 * `__proto__`, `toString`, ...), held by some rows and absent from others: the notebook's hits
 * grid (rows rebuilt from the answer the output keeps) and the panel's editing grid (rows as
 * its comm sends them) show each value in its column and an empty cell where a row lacks it.
 */
import './support/dom';
import fc from 'fast-check';
import type { JsonValue } from '../../kernel/src/console/cell';
import type {
  ConsoleResult,
  EngineResponse
} from '../../kernel/src/driver-core/driver';
import { presentElasticsearch } from '../../kernel/src/engines/elasticsearch/present';
import { BlockSchema } from '../../contracts/panel-protocol';
import { swapQuotes } from '../../contracts/answer-rows';
import { cutLongCells } from '../../kernel/src/render/cell-cut';
import { ANSWER_FORMAT, HITS_MIME } from '../../contracts/mime-types';
import { cellText } from '../../extension/src/datagrid/cell-text';
import { type GridView } from '../../extension/src/datagrid/grid-view';
import { ResultsOutput } from '../../extension/src/mime/results-output';
import { EditableRowsModel } from '../../extension/src/documents/editable-rows-model';
import { PendingChanges } from '../../extension/src/documents/pending-changes';
import { hostileDocuments } from '../support/hostile-documents';
import { outputGrids } from './support/output-grids';

type Hits = Extract<ConsoleResult, { kind: 'hits' }>;

function search(docs: { json: string; cells: Map<string, JsonValue> }[]) {
  const text = `{"took":1,"hits":{"total":{"value":${docs.length},"relation":"eq"},"hits":[${docs.map((d, i) => `{"_index":"cars","_id":"d${i}","_score":1,"_source":${d.json}}`).join(',')}]}}`;
  const response: EngineResponse = {
    status: 200,
    headers: {},
    body: { kind: 'json', value: JSON.parse(text) as JsonValue },
    elapsedMs: 1
  };
  const hits = presentElasticsearch(
    {
      kind: 'request',
      method: 'GET',
      path: '/cars/_search',
      query: '',
      line: 1
    },
    response
  ) as Hits;
  const expected = docs.map(
    (d, i) =>
      new Map<string, JsonValue>([
        ['_id', `d${i}`],
        ['_index', 'cars'],
        ['_score', 1],
        ...d.cells
      ])
  );
  return { text, hits, expected };
}

/** What a grid cell paints: the value's text, empty where the row lacks the field. */
const painted = (value: JsonValue | undefined): string =>
  value === undefined ? '' : cellText(value);

async function notebookGrid(text: string, hits: Hits): Promise<GridView> {
  const payload = {
    info: {
      connection: 'cars',
      engine: 'elasticsearch',
      method: 'GET',
      path: '/cars/_search',
      status: 200,
      elapsedMs: 1
    },
    columns: hits.columns,
    // As the kernel keeps it: the answer, the rows rebuilt from it.
    answer: swapQuotes(text),
    answerFormat: ANSWER_FORMAT,
    documents: hits.documents,
    omittedRows: 0,
    cut: [],
    aggregations: []
  };
  const output = new ResultsOutput(HITS_MIME);
  // As the notebook hands it over: the output's JSON, parsed.
  await output.renderModel({
    data: JSON.parse(JSON.stringify({ [HITS_MIME]: payload })) as Record<
      string,
      unknown
    >,
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never);
  const grid = outputGrids(output)[0];
  if (!grid) {
    throw new Error('no grid in the output');
  }
  return grid;
}

it('the notebook hits grid shows each value in its own column, empty where a row lacks it, sorted or not', async () => {
  await fc.assert(
    fc.asyncProperty(hostileDocuments(), async docs => {
      const { text, hits, expected } = search(docs);
      const grid = await notebookGrid(text, hits);
      const columns = grid.model.columns.map(c => c.name);
      expect(columns).toEqual(hits.columns.map(c => c.name));
      expected.forEach((cells, row) =>
        expect(columns.map((_, c) => grid.model.data('body', row, c))).toEqual(
          columns.map(name => painted(cells.get(name)))
        )
      );
      for (const column of columns) {
        grid.model.sort = { column, direction: 'ascending' };
        const order = expected.map((_, row) => grid.model.responseIndex(row));
        expect([...order].sort((a, b) => a - b)).toEqual(
          expected.map((_, i) => i)
        );
      }
    }),
    { numRuns: 60 }
  );
});

it("the panel's editing grid shows each value of the rows its comm sends in its own column, empty where a row lacks it", async () => {
  await fc.assert(
    fc.asyncProperty(hostileDocuments(), async docs => {
      const { hits, expected } = search(docs);
      const rows = cutLongCells(hits.rows).rows;
      const block = BlockSchema.parse(
        JSON.parse(
          JSON.stringify({
            block: 0,
            offset: 0,
            rows,
            cut: [],
            columns: hits.columns,
            requests: [],
            keys: rows.map((_, i) => ({ index: 'cars', id: `d${i}` })),
            versions: rows.map((_, i) => ({ seqNo: i, primaryTerm: 1 }))
          })
        )
      );
      const model = new EditableRowsModel(
        hits.columns,
        rows.length,
        100,
        block,
        () => new Promise(() => undefined),
        new PendingChanges(),
        () => 'cars'
      );
      const columns = hits.columns.map(c => c.name);
      expected.forEach((cells, row) => {
        expect(columns.map((_, c) => model.data('body', row, c))).toEqual(
          columns.map(name => painted(cells.get(name)))
        );
        expect(columns.map((_, c) => model.storedValue(row, c))).toEqual(
          columns.map(name => cells.get(name) ?? null)
        );
      });
    }),
    { numRuns: 60 }
  );
});
