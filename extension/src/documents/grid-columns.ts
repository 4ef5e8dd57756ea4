import type { DataGrid } from '@lumino/datagrid';
import { Signal } from '@lumino/signaling';
import type { Column } from '@searchbook/contracts/columns';
import {
  fieldRecord,
  ownValue,
  setField
} from '@searchbook/contracts/own-fields';
import { fitColumnWidths } from '../datagrid/column-widths';
import {
  arrangeColumns,
  type ColumnLayout,
  ColumnLayoutStore,
  defaultColumnLayout,
  withHidden,
  withMoved,
  withPinned
} from '../datagrid/column-layout';
import {
  type PinnedCallbacks,
  PinnedColumns
} from '../datagrid/pinned-columns';
import { ColumnChooser } from './column-chooser';
import type { EditableRowsModel } from './editable-rows-model';

/** Lumino's width for a column nothing was measured for. */
const DEFAULT_WIDTH = 120;

/**
 * A document grid's columns as the user lays them out: shown or hidden, in the order dragged,
 * pinned, and as wide as fitted on open or as dragged. The layout is kept per connection and
 * target, so the grid opens again as it was left. Cells, edits, copies, sorting and filters
 * address columns by name through the model, so moving or hiding one never moves a value.
 */
export class GridColumns {
  /** The layout changed (for whatever keeps the grid's view). */
  readonly changed = new Signal<this, ColumnLayout>(this);
  readonly chooser: ColumnChooser;
  private layout: ColumnLayout;
  private readonly store: ColumnLayoutStore;
  /** Widths fitted to each column's header and first rows. */
  private readonly fitted = new Map<string, number>();
  /** What the grid was last given, by column: a border drag shows as a difference. */
  private readonly applied = new Map<string, number>();
  private appliedNames = '';
  private fonts: { font: string; headerFont: string } | undefined;
  private readonly pinned: PinnedColumns;

  constructor(
    private readonly model: EditableRowsModel,
    private readonly grid: DataGrid,
    connection: string,
    target: string,
    pinnedClicks: PinnedCallbacks
  ) {
    this.pinned = new PinnedColumns(grid, model, pinnedClicks);
    this.store = new ColumnLayoutStore(connection, target);
    this.layout = this.store.load() ?? defaultColumnLayout(model.allColumns);
    model.setLayout(this.layout);
    this.chooser = new ColumnChooser({
      columns: () => this.listed(),
      layout: () => this.layout,
      setShown: (name, shown) =>
        this.update(withHidden(this.layout, model.allColumns, name, !shown)),
      setPinned: (name, pinned) =>
        this.update(withPinned(this.layout, name, pinned)),
      reset: () => {
        this.update(defaultColumnLayout(model.allColumns));
        this.fit();
      }
    });
    // Columns come and go with blocks and views: lay out the new ones by name.
    model.changed.connect((_, args) => {
      if (args.type !== 'model-reset' && args.type !== 'columns-inserted') {
        return;
      }
      if (this.shownNames() !== this.appliedNames) {
        this.applyWidths();
        this.chooser.refresh();
      }
    });
  }

  /** The layout as it stands (a copy to keep or restore). */
  get current(): ColumnLayout {
    return this.layout;
  }

  /** Lays the columns out as given (a restored view) and keeps it for the target. */
  update(layout: ColumnLayout): void {
    this.layout = layout;
    this.model.setLayout(layout);
    this.store.save(layout);
    this.applyWidths();
    this.chooser.refresh();
    this.changed.emit(layout);
  }

  /** Measures the columns' headers and first rows with the grid's fonts, then sizes them (the user's widths first). */
  fit(fonts = this.fonts): void {
    if (!fonts) {
      return;
    }
    this.fonts = fonts;
    const widths = fitColumnWidths(this.model, fonts.font, fonts.headerFont);
    this.model.columns.forEach((column, i) => {
      const width = widths[i];
      if (width !== undefined) {
        this.fitted.set(column.name, width);
      }
    });
    this.applyWidths();
  }

  /** A header dropped onto another column's place: the shown columns' order is kept by name. */
  move(from: number, to: number): void {
    const a = this.model.columns[from]?.name;
    const b = this.model.columns[to]?.name;
    if (a !== undefined && b !== undefined) {
      this.update(withMoved(this.layout, this.model.allColumns, a, b));
    }
  }

  /** The user dragged a border: the widths that differ from what was given are theirs, kept. */
  resized(): void {
    // Widths by field name: a field named `constructor` or `__proto__` is a key like any other.
    const widths = fieldRecord(this.layout.widths);
    let changed = false;
    this.model.columns.forEach((column, i) => {
      const width = this.grid.columnSize('body', i);
      if (width > 0 && width !== this.applied.get(column.name)) {
        setField(widths, column.name, width);
        this.applied.set(column.name, width);
        changed = true;
      }
    });
    if (changed) {
      this.pinned.sync();
      this.layout = { ...this.layout, widths };
      this.store.save(this.layout);
      this.changed.emit(this.layout);
    }
  }

  dispose(): void {
    this.chooser.dispose();
    this.pinned.dispose();
  }

  /** Every column for the chooser, in the order shown, hidden ones at their place in the order. */
  private listed(): Column[] {
    return arrangeColumns(this.model.allColumns, { ...this.layout, hidden: [] })
      .shown;
  }

  private shownNames(): string {
    return JSON.stringify(this.model.columns.map(c => c.name));
  }

  private applyWidths(): void {
    this.model.columns.forEach((column, i) => {
      const width =
        ownValue(this.layout.widths, column.name) ??
        this.fitted.get(column.name) ??
        DEFAULT_WIDTH;
      if (this.grid.columnSize('body', i) !== width) {
        this.grid.resizeColumn('body', i, width);
      }
      this.applied.set(column.name, width);
    });
    this.appliedNames = this.shownNames();
    this.pinned.sync();
  }
}
