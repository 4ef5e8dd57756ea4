/** @jest-environment jsdom */
import './support/dom';
import type { Block, Column } from '../../contracts/panel-protocol';
import {
  arrangeColumns,
  ColumnLayoutStore,
  defaultColumnLayout,
  withHidden,
  withMoved
} from '../../extension/src/datagrid/column-layout';
import { pagedModel } from './support/paged-model';

const column = (name: string, extra: Partial<Column> = {}): Column => ({
  name,
  type: 'keyword',
  readOnly: false,
  json: false,
  origin: 'mapping',
  ...extra
});
const ID = column('_id', { readOnly: true, origin: 'meta', primaryKey: true });
const COLUMNS = [ID, column('_index'), column('a'), column('b'), column('c')];
const names = (columns: readonly Column[]) => columns.map(c => c.name);

describe('column layout', () => {
  it('pins the identifier by default and shows the pinned columns first', () => {
    const layout = defaultColumnLayout(COLUMNS);
    expect(layout.pinned).toEqual(['_id']);
    const moved = withMoved(layout, COLUMNS, 'c', '_index');
    const arranged = arrangeColumns(COLUMNS, { ...moved, pinned: ['b'] });
    expect(names(arranged.shown)).toEqual(['b', '_id', 'c', '_index', 'a']);
    expect(arranged.pinnedCount).toBe(1);
  });

  it('places a column the order does not name yet after those it names', () => {
    const layout = withMoved(
      defaultColumnLayout(COLUMNS),
      COLUMNS,
      'a',
      '_index'
    );
    const later = [...COLUMNS, column('d')];
    expect(names(arrangeColumns(later, layout).shown)).toEqual([
      '_id',
      'a',
      '_index',
      'b',
      'c',
      'd'
    ]);
  });

  it('keeps one column shown whatever is asked', () => {
    let layout = defaultColumnLayout(COLUMNS);
    for (const c of COLUMNS) {
      layout = withHidden(layout, COLUMNS, c.name, true);
    }
    expect(layout.hidden).toHaveLength(COLUMNS.length - 1);
    expect(arrangeColumns(COLUMNS, layout).shown).toHaveLength(1);
    // A stored layout hiding every column still shows one.
    expect(
      arrangeColumns(COLUMNS, { ...layout, hidden: names(COLUMNS) }).shown
    ).toHaveLength(1);
  });

  it('dragging a column across the pinned ones pins it, and out of them unpins it', () => {
    const layout = defaultColumnLayout(COLUMNS);
    const pinned = withMoved(layout, COLUMNS, 'b', '_id');
    expect(pinned.pinned).toEqual(['_id', 'b']);
    expect(withMoved(pinned, COLUMNS, '_id', 'c').pinned).toEqual(['b']);
  });

  it('reads back what it stored, and nothing from a damaged entry', () => {
    const store = new ColumnLayoutStore('es', 'shop');
    expect(store.load()).toBeUndefined();
    const layout = {
      ...defaultColumnLayout(COLUMNS),
      hidden: ['a'],
      widths: { b: 140 }
    };
    store.save(layout);
    expect(new ColumnLayoutStore('es', 'shop').load()).toEqual(layout);
    expect(new ColumnLayoutStore('es', 'other').load()).toBeUndefined();
    window.localStorage.setItem(
      `searchbook:columns:v1:${JSON.stringify(['es', 'shop'])}`,
      '{"hidden": 3'
    );
    expect(store.load()).toBeUndefined();
  });
});

describe('a paged grid with a column layout', () => {
  const first: Block = {
    block: 0,
    offset: 0,
    rows: [{ _id: 'd0', _index: 'shop', a: 'A', b: 'B', c: 'C' }],
    cut: [],
    columns: COLUMNS,
    requests: []
  };

  it('addresses cells by the columns shown, and a column arriving later is shown last', async () => {
    let answer: (b: { block: Block; total: number }) => void = () => {};
    const model = pagedModel(
      COLUMNS,
      2,
      1,
      first,
      () => new Promise(resolve => (answer = resolve))
    );
    model.setLayout({
      ...withMoved(defaultColumnLayout(COLUMNS), COLUMNS, 'c', 'a'),
      hidden: ['_index']
    });
    expect(names(model.columns)).toEqual(['_id', 'c', 'a', 'b']);
    expect(names(model.allColumns)).toEqual(['_id', '_index', 'a', 'b', 'c']);
    expect([0, 1, 2, 3].map(c => model.data('body', 0, c))).toEqual([
      'd0',
      'C',
      'A',
      'B'
    ]);
    model.data('body', 1, 0);
    await Promise.resolve();
    answer({
      block: {
        block: 1,
        offset: 1,
        rows: [{ _id: 'd1', _index: 'shop', a: 'A1', d: 'D1' }],
        cut: [],
        columns: [...COLUMNS, column('d')],
        requests: []
      },
      total: 2
    });
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(names(model.columns)).toEqual(['_id', 'c', 'a', 'b', 'd']);
    expect(model.data('body', 1, 4)).toBe('D1');
    expect(model.data('body', 1, 2)).toBe('A1');
  });
});
