/** @jest-environment jsdom */
/**
 * The panel's grid over fields named like JavaScript object properties (`constructor`,
 * `toString`, `valueOf`, `hasOwnProperty`, `__proto__`): every lookup by a field name (a
 * row's values, the columns' layout and widths, the pending edits and two pages' merge of them)
 * answers what the field holds, never what Object.prototype holds.
 */
import './support/dom';
import { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import fc from 'fast-check';
import { type Block, type Column } from '../../contracts/panel-protocol';
import {
  arrangeColumns,
  ColumnLayoutStore,
  defaultColumnLayout,
  withHidden,
  withMoved,
  withPinned
} from '../../extension/src/datagrid/column-layout';
import { EditableRowsModel } from '../../extension/src/documents/editable-rows-model';
import { GridColumns } from '../../extension/src/documents/grid-columns';
import { pagedModel } from './support/paged-model';
import { PendingChanges } from '../../extension/src/documents/pending-changes';
import {
  mergePending,
  PendingSync
} from '../../extension/src/documents/pending-store';

const INHERITED = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__'
] as const;

const column = (name: string): Column => ({
  name,
  type: 'keyword',
  readOnly: name === '_id',
  json: false,
  origin: name === '_id' ? 'meta' : 'mapping',
  ...(name === '_id' ? { primaryKey: true } : {})
});

/** `_id`, some of the inherited names and a plain field, in any order after `_id`. */
const fieldNames = fc
  .shuffledSubarray([...INHERITED, 'title'], { minLength: 1 })
  .map(names => ['_id', ...names]);

/** Own entries only, sorted: a name that became a prototype, or was read from one, shows here. */
const own = (record: object | undefined) =>
  record ? Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)) : [];

/** A block as the comm sends it: parsed JSON, where `__proto__` is a field like the others. */
function block(names: readonly string[], rows: string[][]): Block {
  return JSON.parse(
    JSON.stringify({
      block: 0,
      offset: 0,
      rows: [],
      cut: [],
      columns: names.map(column),
      requests: [],
      keys: rows.map((_, i) => ({ index: 'items', id: `d${i}` }))
    })
      // Rows written as JSON text: an own `__proto__` key survives only that way.
      .replace(
        '"rows":[]',
        `"rows":[${rows
          .map(
            (values, i) =>
              `{${names
                .map((name, c) =>
                  name === '_id'
                    ? `"_id":"d${i}"`
                    : `${JSON.stringify(name)}:${JSON.stringify(values[c] ?? '')}`
                )
                .join(',')}}`
          )
          .join(',')}]`
      )
  ) as Block;
}

const values = (names: readonly string[]) =>
  fc.array(
    fc.array(fc.string({ unit: fc.constantFrom(...'abc19 '), maxLength: 6 }), {
      minLength: names.length,
      maxLength: names.length
    }),
    { minLength: 1, maxLength: 3 }
  );

it('each row shows its own value of every column, before and after the columns are moved, hidden and pinned', () => {
  fc.assert(
    fc.property(
      fieldNames.chain(names =>
        fc.record({
          names: fc.constant(names),
          rows: values(names),
          moves: fc.array(
            fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)),
            { maxLength: 4 }
          ),
          hidden: fc.subarray(names),
          pinned: fc.subarray(names)
        })
      ),
      ({ names, rows, moves, hidden, pinned }) => {
        const columns = names.map(column);
        const model = new EditableRowsModel(
          columns,
          rows.length,
          100,
          block(names, rows),
          () => new Promise(() => undefined),
          new PendingChanges(),
          () => 'items'
        );
        let layout = defaultColumnLayout(columns);
        for (const [from, to] of moves) {
          layout = withMoved(layout, columns, from, to);
        }
        for (const name of hidden) {
          layout = withHidden(layout, columns, name, true);
        }
        for (const name of pinned) {
          layout = withPinned(layout, name, true);
        }
        const arranged = arrangeColumns(columns, layout);
        expect(arranged.shown.length).toBeGreaterThan(0);
        expect(new Set(arranged.shown.map(c => c.name)).size).toBe(
          arranged.shown.length
        );
        model.setLayout(layout);
        expect(model.columns.map(c => c.name)).toEqual(
          arranged.shown.map(c => c.name)
        );
        rows.forEach((cells, row) =>
          model.columns.forEach((col, c) => {
            const expected =
              col.name === '_id' ? `d${row}` : cells[names.indexOf(col.name)];
            expect(model.data('body', row, c)).toBe(expected);
            expect(model.storedValue(row, c)).toBe(expected);
          })
        );
      }
    ),
    { numRuns: 80 }
  );
});

it('every column gets a finite width, the widths dragged are kept under their names and laid out again on reopening', () => {
  fc.assert(
    fc.property(
      fieldNames.chain(names =>
        fc.record({
          names: fc.constant(names),
          // A border dragged back to the 120 px it was laid out at changes nothing to keep.
          widths: fc.array(
            fc.integer({ min: 30, max: 400 }).filter(w => w !== 120),
            {
              minLength: names.length,
              maxLength: names.length
            }
          )
        })
      ),
      ({ names, widths }) => {
        window.localStorage.clear();
        const columns = names.map(column);
        const open = () => {
          const model = pagedModel(
            columns,
            1,
            100,
            block(names, [names.map(() => 'x')]),
            () => new Promise(() => undefined)
          );
          const grid = new DataGrid();
          grid.dataModel = model;
          const layout = new GridColumns(model, grid, 'es', 'items', {
            headerClicked: () => undefined,
            cellOpened: () => undefined
          });
          return { model, grid, layout };
        };
        const first = open();
        // Laid out with nothing stored: the panel's own width, not NaN, for every column.
        first.layout.update(first.layout.current);
        // The grid takes sizes as posted messages.
        MessageLoop.flush();
        first.model.columns.forEach((_, c) =>
          expect(first.grid.columnSize('body', c)).toBe(120)
        );
        // The user drags each border.
        first.model.columns.forEach((_, c) =>
          first.grid.resizeColumn('body', c, widths[c] as number)
        );
        MessageLoop.flush();
        first.layout.resized();
        const dragged = first.model.columns.map((col, c) => [
          col.name,
          widths[c]
        ]);
        expect(own(first.layout.current.widths)).toEqual(
          own(Object.fromEntries(dragged))
        );
        expect(
          own(new ColumnLayoutStore('es', 'items').load()?.widths)
        ).toEqual(own(Object.fromEntries(dragged)));
        const again = open();
        again.layout.update(again.layout.current);
        MessageLoop.flush();
        again.model.columns.forEach((_, c) =>
          expect(again.grid.columnSize('body', c)).toBe(widths[c])
        );
        first.layout.dispose();
        again.layout.dispose();
      }
    ),
    { numRuns: 40 }
  );
});

it("edits of such fields made on two pages are each kept, as typed, after the pages' sets are merged", () => {
  const p1 = { index: 'items', id: 'p1' };
  fc.assert(
    fc.property(
      fc.shuffledSubarray([...INHERITED], { minLength: 1 }),
      fc.shuffledSubarray([...INHERITED], { minLength: 0 }),
      fc.shuffledSubarray([...INHERITED], { minLength: 0 }),
      (before, ours, theirs) => {
        window.localStorage.clear();
        // Both pages start from the same stored set: edits of `before` fields (and of a plain one, so the row stays changed).
        const start = new PendingSync('ts', 'items');
        const base = start.load();
        base.edit(p1, undefined, 'title', 'was title', 'read', 'read');
        for (const name of before) {
          base.edit(p1, undefined, name, `was ${name}`, 'read', 'read');
        }
        start.store(base);
        const mine = new PendingSync('ts', 'items').load();
        const other = new PendingSync('ts', 'items').load();
        // Our page types its fields again; the other page takes its fields back to the text read.
        for (const name of ours) {
          mine.edit(p1, undefined, name, `mine ${name}`, 'read', 'read');
        }
        for (const name of theirs) {
          other.edit(p1, undefined, name, 'read', 'read', 'read');
        }
        const merged = new PendingChanges(
          mergePending(base.state(), mine.state(), other.state())
        );
        const expected = [
          ['title', 'was title'],
          ...before
            .filter(name => ours.includes(name) || !theirs.includes(name))
            .map(name => [
              name,
              ours.includes(name) ? `mine ${name}` : `was ${name}`
            ])
        ];
        for (const name of ours.filter(n => !before.includes(n))) {
          expected.push([name, `mine ${name}`]);
        }
        expect(own(merged.rowOf(p1)?.fields)).toEqual(
          own(Object.fromEntries(expected))
        );
        for (const name of INHERITED) {
          const typed = merged.fieldOf(p1, name);
          expect(typed === undefined || typeof typed === 'string').toBe(true);
        }
      }
    ),
    { numRuns: 80 }
  );
});
