/** @jest-environment jsdom */
import './support/dom';
import type { Block, Column } from '../../contracts/panel-protocol';
import { EditableRowsModel } from '../../extension/src/documents/editable-rows-model';
import { PendingChanges } from '../../extension/src/documents/pending-changes';

const columns: Column[] = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  },
  { name: 'n', type: 'long', readOnly: false, json: false, origin: 'mapping' },
  {
    name: 'tags',
    type: 'keyword',
    readOnly: false,
    json: true,
    origin: 'mapping'
  }
];
const rows = [
  { _id: 'a', n: 1, tags: ['x'] },
  { _id: 'b', n: 2, tags: [] }
];
const first: Block = {
  block: 0,
  offset: 0,
  rows,
  cut: [{ row: 1, column: 'tags' }],
  columns,
  requests: [],
  keys: rows.map(r => ({ index: 'items', id: r._id })),
  versions: rows.map((_, i) => ({ seqNo: i, primaryTerm: 1 }))
};

function model(pending = new PendingChanges()): EditableRowsModel {
  return new EditableRowsModel(
    columns,
    2,
    10,
    first,
    () => new Promise(() => undefined),
    pending,
    () => 'items'
  );
}

describe('the editable grid model', () => {
  it('a typed cell shows the text typed, is marked, and becomes an update with the version read', () => {
    const m = model();
    expect(m.setData('body', 0, 1, '5')).toBe(true);
    expect(m.data('body', 0, 1)).toBe('5');
    expect(m.mark(0, 1)).toBe('changed');
    expect(m.mark(0, 2)).toBeUndefined();
    expect(m.data('row-header', 0, 0)).toBe('✎ 1');
    expect(m.pending.changes('items')).toEqual([
      {
        kind: 'update',
        key: 'row:items/a',
        row: { index: 'items', id: 'a' },
        version: { seqNo: 0, primaryTerm: 1 },
        fields: { n: '5' }
      }
    ]);
  });

  it('JSON cells open as indented JSON, and typing it back unchanged leaves nothing pending', () => {
    const m = model();
    expect(m.editText(0, 2)).toBe('[\n  "x"\n]');
    m.setData('body', 0, 2, '[\n  "x"\n]');
    expect(m.pending.count).toBe(0);
  });

  it('an inserted row comes first, numbered "new", and the documents keep their numbers', () => {
    const m = model();
    m.insertRow();
    expect(m.rowCount('body')).toBe(3);
    expect(m.data('row-header', 0, 0)).toBe('new');
    expect(m.data('row-header', 1, 0)).toBe('1');
    expect(m.data('body', 1, 0)).toBe('a');
    m.setData('body', 0, 0, 'c');
    m.setData('body', 0, 1, '7');
    expect(m.data('body', 0, 0)).toBe('c');
    expect(m.mark(0, 1)).toBe('new');
    expect(m.pending.changes('items')).toEqual([
      {
        kind: 'insert',
        key: expect.stringMatching(/^new:1-/),
        index: 'items',
        id: 'c',
        fields: { n: '7' }
      }
    ]);
  });

  it('a cut cell is not cut once its whole value is loaded, and edits start from the whole value', () => {
    const m = model();
    expect(m.isCut(1, 2)).toBe(true);
    m.setWholeValue({ index: 'items', id: 'b' }, 'tags', ['whole', 'value']);
    expect(m.isCut(1, 2)).toBe(false);
    expect(m.editText(1, 2)).toBe('[\n  "whole",\n  "value"\n]');
  });

  it('after a save, a saved row shows the stored document with its new version, a saved insert stays on top with the id the engine gave', () => {
    const m = model();
    m.setData('body', 0, 1, '5');
    m.insertRow();
    m.setData('body', 0, 1, '9');
    const typed = new Map(
      m.pending
        .changes('items')
        .map(c => [c.key, c.kind === 'delete' ? {} : c.fields])
    );
    const outcomes = m.pending.settle([
      {
        key: 'row:items/a',
        status: 'saved',
        row: { index: 'items', id: 'a' },
        version: { seqNo: 5, primaryTerm: 1 },
        document: { _id: 'a', n: 5, tags: ['x'] },
        request: {
          method: 'POST',
          path: '/items/_update/a',
          status: 200,
          elapsedMs: 1
        }
      },
      {
        key: m.pending.newRows[0]?.key ?? '',
        status: 'saved',
        row: { index: 'items', id: 'Zx9' },
        request: {
          method: 'POST',
          path: '/items/_doc',
          status: 201,
          elapsedMs: 1
        }
      }
    ]);
    m.showOutcomes(outcomes, typed);
    expect(m.pending.count).toBe(0);
    expect(m.data('row-header', 0, 0)).toBe('saved');
    expect(m.data('body', 0, 0)).toBe('Zx9');
    expect(m.data('body', 1, 1)).toBe('5');
    expect(m.mark(1, 1)).toBeUndefined();
    // The next edit of that row is sent with the version the save returned.
    m.setData('body', 1, 1, '6');
    expect(m.pending.changes('items')[0]).toMatchObject({
      kind: 'update',
      version: { seqNo: 5, primaryTerm: 1 }
    });
  });

  it('Delete rows marks documents (painted muted, numbered ✕) and removes new rows', () => {
    const m = model();
    m.insertRow();
    m.deleteRows([0, 2]);
    expect(m.rowCount('body')).toBe(2);
    expect(m.data('row-header', 1, 0)).toBe('✕ 2');
    expect(m.mark(1, 1)).toBe('deleted');
    expect(m.pending.changes('items')).toEqual([
      {
        kind: 'delete',
        key: 'row:items/b',
        row: { index: 'items', id: 'b' },
        version: { seqNo: 1, primaryTerm: 1 }
      }
    ]);
  });

  it('a saved deletion takes the row out of the grid at once, and the total follows deletions and insertions', () => {
    const m = model();
    const totals: number[] = [];
    m.statusChanged.connect((_, status) => totals.push(status.total));
    let changed = 0;
    m.documentsChanged.connect(() => changed++);
    m.deleteRows([0]);
    const outcomes = m.pending.settle([
      {
        key: 'row:items/a',
        status: 'saved',
        row: { index: 'items', id: 'a' },
        request: {
          method: 'DELETE',
          path: '/items/_doc/a',
          status: 200,
          elapsedMs: 1
        }
      }
    ]);
    m.showOutcomes(outcomes, new Map());
    expect(m.rowCount('body')).toBe(1);
    expect(m.data('body', 0, 0)).toBe('b');
    expect(m.data('row-header', 0, 0)).toBe('1');
    expect(m.rowAt(0)).toMatchObject({
      kind: 'document',
      key: { id: 'b' },
      deleted: false
    });
    expect(m.currentStatus.total).toBe(1);
    // The deleted row's block is still in memory: the status counts what is shown, never "2 of 1".
    expect(m.currentStatus.loadedRows).toBe(1);
    expect(changed).toBe(1);
    m.insertRow();
    m.setData('body', 0, 1, '3');
    const key = m.pending.newRows[0]?.key ?? '';
    m.showOutcomes(
      m.pending.settle([
        {
          key,
          status: 'saved',
          row: { index: 'items', id: 'n1' },
          request: {
            method: 'PUT',
            path: '/items/_doc/n1',
            status: 201,
            elapsedMs: 1
          }
        }
      ]),
      new Map([[key, { n: '3' }]])
    );
    expect(m.rowCount('body')).toBe(2);
    expect(m.currentStatus.total).toBe(2);
    expect(m.currentStatus.loadedRows).toBe(2);
    expect(totals.slice(-2)).toEqual([1, 2]);
    expect(changed).toBe(2);
  });

  it('while a block far down is fetched, the status names the rows being loaded; they go once it came', async () => {
    let answer: (value: { block: Block; total: number }) => void = () =>
      undefined;
    // Block 0 whole (a shorter first block is read whole at once, which is not this test's case).
    const whole = Array.from({ length: 1000 }, (_, i) => ({
      _id: `w${i}`,
      n: i,
      tags: []
    }));
    const m = new EditableRowsModel(
      columns,
      25_000,
      1000,
      {
        ...first,
        rows: whole,
        cut: [],
        keys: whole.map(r => ({ index: 'items', id: r._id })),
        versions: whole.map((_, i) => ({ seqNo: i, primaryTerm: 1 }))
      },
      () => new Promise(resolve => (answer = resolve)),
      new PendingChanges(),
      () => 'items'
    );
    expect(m.data('body', 24_990, 1)).toBe('');
    await Promise.resolve();
    expect(m.currentStatus.loading).toEqual({ first: 24_001, last: 25_000 });
    answer({
      block: {
        ...first,
        block: 24,
        offset: 24_000,
        rows: [{ _id: 'z', n: 9, tags: [] }],
        cut: [],
        keys: [{ index: 'items', id: 'z' }]
      },
      total: 25_000
    });
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(m.currentStatus.loading).toBeUndefined();
    expect(m.data('body', 24_000, 0)).toBe('z');
  });

  it('clearing the rows for a new view leaves none of the previous view', () => {
    const m = model();
    m.clearRows();
    expect(m.rowCount('body')).toBe(0);
    expect(m.currentStatus.total).toBe(0);
  });

  it('where the engine reads without a snapshot, a block that already counts a saved deletion makes the grid read its rows anew', async () => {
    const three = [...rows, { _id: 'c', n: 3, tags: [] }];
    const keyed = (list: typeof three, offset: number): Block => ({
      ...first,
      block: offset / 2,
      offset,
      rows: list,
      cut: [],
      keys: list.map(r => ({ index: 'items', id: r._id })),
      versions: undefined
    });
    // As the collection is now: a deleted, so b and c are its first two documents.
    const live = three.slice(1);
    const m = new EditableRowsModel(
      columns,
      3,
      2,
      keyed(three.slice(0, 2), 0),
      async block => ({
        block: keyed(live.slice(block * 2, block * 2 + 2), block * 2),
        total: 2
      }),
      new PendingChanges(),
      () => 'items'
    );
    m.deleteRows([0]);
    m.showOutcomes(
      m.pending.settle([
        {
          key: 'row:items/a',
          status: 'saved',
          row: { index: 'items', id: 'a' },
          request: {
            method: 'DELETE',
            path: '/collections/items/documents/a',
            status: 200,
            elapsedMs: 1
          }
        }
      ]),
      new Map()
    );
    expect(m.rowCount('body')).toBe(2);
    // The second row's block is not loaded yet: reading it, the grid finds the collection changed.
    m.data('body', 1, 0);
    for (let i = 0; i < 10 && m.data('body', 1, 0) !== 'c'; i++) {
      await new Promise(resolve => setTimeout(resolve, 0));
    }
    expect([
      m.rowCount('body'),
      m.data('body', 0, 0),
      m.data('body', 1, 0)
    ]).toEqual([2, 'b', 'c']);
  });

  it('where the engine reads without a snapshot, a block that already counts a saved insertion makes the grid read its rows anew: no row twice, the total counted once', async () => {
    const three = [...rows, { _id: 'c', n: 3, tags: [] }];
    const keyed = (list: typeof three, offset: number): Block => ({
      ...first,
      block: offset / 2,
      offset,
      rows: list,
      cut: [],
      keys: list.map(r => ({ index: 'items', id: r._id })),
      versions: undefined
    });
    // As the collection is now: the saved insertion n0 sorts first.
    const live = [{ _id: 'n0', n: 0, tags: [] }, ...three];
    const m = new EditableRowsModel(
      columns,
      3,
      2,
      keyed(three.slice(0, 2), 0),
      async block => ({
        block: keyed(live.slice(block * 2, block * 2 + 2), block * 2),
        total: 4
      }),
      new PendingChanges(),
      () => 'items'
    );
    m.insertRow();
    const key = m.pending.newRows[0]?.key ?? '';
    m.setData('body', 0, 0, 'n0');
    m.showOutcomes(
      m.pending.settle([
        {
          key,
          status: 'saved',
          row: { index: 'items', id: 'n0' },
          document: { _id: 'n0', n: 0, tags: [] },
          request: {
            method: 'POST',
            path: '/collections/items/documents',
            status: 201,
            elapsedMs: 1
          }
        }
      ]),
      new Map()
    );
    expect([m.rowCount('body'), m.currentStatus.total]).toEqual([4, 4]);
    const shown = () =>
      Array.from({ length: m.rowCount('body') }, (_, row) =>
        m.data('body', row, 0)
      );
    // The last row's block is not loaded yet: reading it, the grid finds the collection changed.
    for (let i = 0; i < 20 && shown().join() !== 'n0,a,b,c'; i++) {
      await new Promise(resolve => setTimeout(resolve, 0));
    }
    expect([shown(), m.currentStatus.total]).toEqual([
      ['n0', 'a', 'b', 'c'],
      4
    ]);
  });
});
