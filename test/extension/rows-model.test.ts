/** @jest-environment jsdom */
import './support/dom';
import { RowsModel } from '../../extension/src/datagrid/rows-model';
import {
  rangeAsJson,
  rangeAsTsv,
  selectedRange
} from '../../extension/src/datagrid/selection-copy';
import { nextSort } from '../../extension/src/datagrid/sort-order';

const columns = [
  { name: '_id', type: 'keyword', readOnly: true, json: false },
  { name: 'price', type: 'float', readOnly: false, json: false },
  { name: 'tags', type: 'keyword', readOnly: false, json: true }
];
const rows = [
  { _id: 'a', price: 10, tags: ['x'] },
  { _id: 'b', price: null, tags: [] },
  { _id: 'c', price: 2.5, tags: ['y', 'z'] },
  { _id: 'd', price: 100, tags: null }
];

describe('the grid model', () => {
  it('shows names, then types with read-only marks, in two header rows', () => {
    const model = new RowsModel(columns, rows);
    expect(model.rowCount('column-header')).toBe(2);
    expect([0, 1, 2].map(c => model.data('column-header', 0, c))).toEqual([
      '_id',
      'price',
      'tags'
    ]);
    expect([0, 1, 2].map(c => model.data('column-header', 1, c))).toEqual([
      'keyword · read-only',
      'float',
      'keyword'
    ]);
  });

  it('says which columns come from the documents rather than the mapping', () => {
    const mappedAndExtra = [
      {
        name: 'title',
        type: 'text',
        readOnly: false,
        json: false,
        origin: 'mapping' as const
      },
      {
        name: 'extra',
        type: 'string',
        readOnly: false,
        json: false,
        origin: 'documents' as const
      }
    ];
    expect(
      new RowsModel(mappedAndExtra, [{ extra: 'x' }]).data(
        'column-header',
        1,
        1
      )
    ).toBe('string · not mapped');
    // A listing with no mapping at all (GET /collections) has nothing to be unmapped from.
    expect(
      new RowsModel(mappedAndExtra.slice(1), [{ extra: 'x' }]).data(
        'column-header',
        1,
        0
      )
    ).toBe('string');
  });

  it('has one header row when the response says nothing about types', () => {
    const model = new RowsModel(
      [{ name: 'index', type: '', readOnly: false, json: false }],
      [{ index: 'products' }]
    );
    expect(model.rowCount('column-header')).toBe(1);
  });

  it('sorts numbers by value, keeps empty cells last in both directions, and marks the header', () => {
    const model = new RowsModel(columns, rows);
    model.sort = nextSort(null, 'price');
    expect([0, 1, 2, 3].map(r => model.data('body', r, 0))).toEqual([
      'c',
      'a',
      'd',
      'b'
    ]);
    expect(model.data('column-header', 0, 1)).toBe('price ▲');
    model.sort = nextSort(model.sort, 'price');
    expect([0, 1, 2, 3].map(r => model.data('body', r, 0))).toEqual([
      'd',
      'a',
      'c',
      'b'
    ]);
    model.sort = nextSort(model.sort, 'price');
    expect(model.sort).toBeNull();
    expect([0, 1, 2, 3].map(r => model.data('body', r, 0))).toEqual([
      'a',
      'b',
      'c',
      'd'
    ]);
  });

  it('numbers rows by their place in the response, whatever the sort', () => {
    const model = new RowsModel(columns, rows);
    model.sort = { column: 'price', direction: 'descending' };
    expect(model.data('row-header', 0, 0)).toBe('4');
  });

  it('follows cut cells through a sort', () => {
    const model = new RowsModel(columns, rows, [{ row: 2, column: 'tags' }]);
    expect(model.isCut(2, 2)).toBe(true);
    model.sort = { column: 'price', direction: 'ascending' };
    expect(model.isCut(0, 2)).toBe(true);
    expect(model.isCut(2, 2)).toBe(false);
  });

  it('shows arrays and objects as compact JSON and null as an empty cell', () => {
    const model = new RowsModel(columns, rows);
    expect(model.data('body', 2, 2)).toBe('["y","z"]');
    expect(model.data('body', 3, 2)).toBe('');
  });
});

describe('copying', () => {
  it('copies everything as TSV with a header line when nothing is selected', () => {
    const model = new RowsModel(columns, [
      { _id: 'a\tb', price: 1, tags: ['line\nbreak'] }
    ]);
    expect(rangeAsTsv(model, selectedRange(model, null))).toBe(
      '_id\tprice\ttags\na\\tb\t1\t["line\\nbreak"]'
    );
  });

  it('copies a selection as JSON objects holding the engine values, in display order', () => {
    const model = new RowsModel(columns, rows);
    model.sort = { column: '_id', direction: 'descending' };
    const range = { firstRow: 0, lastRow: 1, firstColumn: 0, lastColumn: 1 };
    expect(JSON.parse(rangeAsJson(model, range))).toEqual([
      { _id: 'd', price: 100 },
      { _id: 'c', price: 2.5 }
    ]);
  });
});

describe('rows read one at a time', () => {
  /** A reader over `rows` that notes which rows were built. */
  const reading = () => {
    const built: number[] = [];
    const reader = {
      count: rows.length,
      row: (index: number) => {
        built.push(index);
        return rows[index] ?? {};
      }
    };
    return { built, reader };
  };

  it('builds only the rows drawn, each once, and shows the same cells as the rows whole', () => {
    const { built, reader } = reading();
    const model = new RowsModel(columns, reader);
    const whole = new RowsModel(columns, rows);
    expect(model.rowCount('body')).toBe(4);
    expect(model.data('body', 2, 1)).toBe(whole.data('body', 2, 1));
    expect(model.data('body', 2, 2)).toBe(whole.data('body', 2, 2));
    expect(model.value(1, 1)).toBeNull();
    expect(built).toEqual([2, 1]);
  });

  it('sorts and copies over every row, and reads them again once let go', () => {
    const { built, reader } = reading();
    const model = new RowsModel(columns, reader, [], () => reader);
    model.sort = { column: 'price', direction: 'descending' };
    expect([0, 1, 2].map(r => model.data('body', r, 0))).toEqual([
      'd',
      'a',
      'c'
    ]);
    expect(built.sort()).toEqual([0, 1, 2, 3]);
    model.releaseRows();
    expect(model.data('body', 0, 0)).toBe('d');
    expect(built.length).toBe(5);
    const range = { firstRow: 0, lastRow: 0, firstColumn: 0, lastColumn: 1 };
    expect(JSON.parse(rangeAsJson(model, range))).toEqual([
      { _id: 'd', price: 100 }
    ]);
  });
});
