/** @jest-environment jsdom */
import './support/dom';
import type { DataModel } from '@lumino/datagrid';
import type { Block, Column } from '../../contracts/panel-protocol';
import { pagedModel } from './support/paged-model';
import { rangeAsTsv } from '../../extension/src/datagrid/selection-copy';

const columns: Column[] = [
  { name: '_id', type: 'keyword', readOnly: true, json: false, origin: 'meta' },
  { name: 'n', type: 'long', readOnly: false, json: false, origin: 'mapping' }
];
const BLOCK = 10;
const TOTAL = 95;

function block(index: number, extra: Partial<Block> = {}): Block {
  const offset = index * BLOCK;
  const count = Math.max(0, Math.min(BLOCK, TOTAL - offset));
  const rows = Array.from({ length: count }, (_, i) => ({
    _id: `d${offset + i}`,
    n: offset + i
  }));
  return {
    block: index,
    offset,
    rows,
    cut: [],
    columns,
    requests: [{ method: 'POST', path: '/_search', status: 200, elapsedMs: 3 }],
    ...extra
  };
}

/** A fetcher whose answers the test releases one by one, recording what was asked. */
function controlledFetch() {
  const asked: number[] = [];
  const pending = new Map<
    number,
    {
      resolve: (b: { block: Block; total: number }) => void;
      reject: (e: Error) => void;
    }
  >();
  const fetch = (index: number) =>
    new Promise<{ block: Block; total: number }>((resolve, reject) => {
      asked.push(index);
      pending.set(index, { resolve, reject });
    });
  const answer = async (index: number, extra: Partial<Block> = {}) => {
    pending.get(index)?.resolve({ block: block(index, extra), total: TOTAL });
    await new Promise(r => setTimeout(r, 0));
  };
  const fail = async (index: number, message: string) => {
    pending.get(index)?.reject(new Error(message));
    await new Promise(r => setTimeout(r, 0));
  };
  return { asked, fetch, answer, fail };
}

const tick = () => new Promise(r => setTimeout(r, 0));

it('answers loaded rows, asks for the block a painted row needs, and repaints those rows when it arrives', async () => {
  const remote = controlledFetch();
  const model = pagedModel(columns, TOTAL, BLOCK, block(0), remote.fetch);
  const changes: DataModel.ChangedArgs[] = [];
  model.changed.connect((_, args) => changes.push(args));
  expect(model.rowCount('body')).toBe(TOTAL);
  expect(model.data('body', 3, 0)).toBe('d3');
  expect(model.data('body', 42, 1)).toBe('');
  await tick();
  expect(remote.asked).toEqual([4]);
  // Painting the same missing rows again does not ask twice.
  model.data('body', 43, 1);
  await tick();
  expect(remote.asked).toEqual([4]);
  await remote.answer(4);
  expect(model.data('body', 42, 1)).toBe('42');
  expect(changes).toContainEqual({
    type: 'cells-changed',
    region: 'body',
    row: 40,
    column: 0,
    rowSpan: 10,
    columnSpan: 2
  });
  expect(model.currentStatus).toMatchObject({
    loadedRows: 20,
    total: TOTAL,
    last: { method: 'POST', path: '/_search', requests: 1 }
  });
});

it('fetches the newest wanted block first, two at a time, so a scrollbar drag ends where it stops', async () => {
  const remote = controlledFetch();
  const model = pagedModel(columns, TOTAL, BLOCK, block(0), remote.fetch);
  for (const row of [15, 25, 35, 45, 55]) {
    model.data('body', row, 0);
  }
  await tick();
  expect(remote.asked).toEqual([5, 4]);
  await remote.answer(5);
  expect(remote.asked).toEqual([5, 4, 3]);
});

it('a failed block shows the engine reason on the status line and is not asked again by every repaint', async () => {
  const remote = controlledFetch();
  const model = pagedModel(columns, TOTAL, BLOCK, block(0), remote.fetch);
  model.data('body', 70, 0);
  await tick();
  await remote.fail(
    7,
    'Elasticsearch answered 404: search_context_missing_exception'
  );
  expect(model.currentStatus.error).toBe(
    'Rows 71–80: Elasticsearch answered 404: search_context_missing_exception'
  );
  model.data('body', 70, 0);
  await tick();
  expect(remote.asked).toEqual([7]);
  // The rest of the grid stays usable.
  model.data('body', 30, 0);
  await tick();
  expect(remote.asked).toEqual([7, 3]);
});

it('columns that a later block brings are added after the others', async () => {
  const remote = controlledFetch();
  const model = pagedModel(columns, TOTAL, BLOCK, block(0), remote.fetch);
  const changes: DataModel.ChangedArgs[] = [];
  model.changed.connect((_, args) => changes.push(args));
  model.data('body', 12, 0);
  await tick();
  const late: Column = {
    name: 'extra',
    type: 'string',
    readOnly: false,
    json: false,
    origin: 'documents'
  };
  await remote.answer(1, { columns: [...columns, late] });
  expect(model.columns.map(c => c.name)).toEqual(['_id', 'n', 'extra']);
  expect(changes).toContainEqual({
    type: 'columns-inserted',
    region: 'body',
    index: 2,
    span: 1
  });
  expect(model.data('column-header', 1, 2)).toBe('string · not mapped');
});

it('values are text: markup shows as its characters, cut cells are known', () => {
  const first = block(0);
  (first.rows[0] as Record<string, unknown>).n = '<img src=x onerror=alert(1)>';
  const model = pagedModel(
    columns,
    TOTAL,
    BLOCK,
    { ...first, cut: [{ row: 1, column: 'n' }] },
    controlledFetch().fetch
  );
  expect(model.data('body', 0, 1)).toBe('<img src=x onerror=alert(1)>');
  expect(model.isCut(1, 1)).toBe(true);
  expect(model.isCut(0, 1)).toBe(false);
});

it('a copy of rows scrolled out of memory reads just their missing blocks, then copies them as TSV', async () => {
  const remote = controlledFetch();
  const model = pagedModel(columns, TOTAL, BLOCK, block(0), remote.fetch);
  const range = { firstRow: 8, lastRow: 31, firstColumn: 0, lastColumn: 1 };
  const loading = model.loadRows(range.firstRow, range.lastRow);
  await tick();
  // Block 0 is loaded; 1, 2 and 3 are read in turn.
  expect(remote.asked).toEqual([1]);
  await remote.answer(1);
  await remote.answer(2);
  await remote.answer(3);
  await loading;
  expect(remote.asked).toEqual([1, 2, 3]);
  const tsv = rangeAsTsv(model, range).split('\n');
  expect(tsv).toHaveLength(25);
  expect(tsv.slice(0, 2)).toEqual(['_id\tn', 'd8\t8']);
  expect(tsv[24]).toBe('d31\t31');
});

it('a first block holding only the first screen is read whole at once: its later rows load, without a second fetch', async () => {
  const remote = controlledFetch();
  const firstScreen = block(0);
  firstScreen.rows = firstScreen.rows.slice(0, 4);
  const model = pagedModel(columns, TOTAL, BLOCK, firstScreen, remote.fetch);
  const changes: DataModel.ChangedArgs[] = [];
  model.changed.connect((_, args) => changes.push(args));
  expect(model.data('body', 3, 0)).toBe('d3');
  // Row 6 is in block 0 but not among the rows received: loading, not an empty document
  // (this model shows no rows before the documents).
  expect(model.isLoaded(6)).toBe(false);
  expect(model.data('body', 6, 1)).toBe('');
  expect(model.currentStatus.loadedRows).toBe(4);
  await tick();
  // Asked for before any row past the first screen was painted, and only once.
  expect(remote.asked).toEqual([0]);
  model.data('body', 7, 1);
  await tick();
  expect(remote.asked).toEqual([0]);
  await remote.answer(0);
  expect(model.isLoaded(6)).toBe(true);
  expect(model.data('body', 6, 0)).toBe('d6');
  expect(model.currentStatus.loadedRows).toBe(BLOCK);
  expect(changes).toContainEqual(
    expect.objectContaining({ type: 'cells-changed', region: 'body', row: 0 })
  );
  // Whole now: painting it again asks nothing.
  model.data('body', 9, 0);
  await tick();
  expect(remote.asked).toEqual([0]);
});

it('a first block that holds every document there is is not read again', async () => {
  const remote = controlledFetch();
  const model = pagedModel(
    columns,
    3,
    BLOCK,
    block(0, { rows: block(0).rows.slice(0, 3) }),
    remote.fetch
  );
  expect(model.data('body', 2, 0)).toBe('d2');
  await tick();
  expect(remote.asked).toEqual([]);
});
