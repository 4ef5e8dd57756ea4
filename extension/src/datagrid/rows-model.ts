import { DataModel } from '@lumino/datagrid';
import { cellText, numberText } from './cell-text';
import { type SortState, sortedRowOrder } from './sort-order';
import { ownValue } from '@searchbook/contracts/own-fields';
import type { Column } from '@searchbook/contracts/columns';

type Row = Record<string, unknown>;

/** Rows built one at a time when asked for (an answer's documents parsed one by one). */
export interface RowReader {
  readonly count: number;
  row(index: number): Row;
}

/** A grid's rows: all of them, or a reader building each when it is drawn. */
export type Rows = readonly Row[] | RowReader;

export interface CutCell {
  row: number;
  column: string;
}

const SORT_MARKS = { ascending: ' ▲', descending: ' ▼' } as const;

/**
 * The rows of one response as a read-only datagrid model. Rows keep their response positions
 * (shown in the row header) while the display order follows the header the user clicked.
 */
export class RowsModel extends DataModel {
  /**
   * The rows while held, each read when first asked for where they come from a reader;
   * undefined once let go (they are read again when asked for).
   */
  private held: (Row | undefined)[] | undefined;
  private reader: RowReader | undefined;
  private readonly count: number;
  private order: number[];
  private sortState: SortState | null = null;
  private readonly cutCells: Set<string>;
  private readonly typed: boolean;
  /** "not mapped" only means something when the other columns came from a mapping. */
  private readonly mapped: boolean;

  /**
   * `reread`: reads the same rows again, in the same order, from where they came from (an
   * output's kept answer); with it, the rows may be let go while the grid is far from view.
   */
  constructor(
    readonly columns: readonly Column[],
    rows: Rows,
    cut: readonly CutCell[] = [],
    private readonly reread?: () => Rows
  ) {
    super();
    this.hold(rows);
    this.count = isReader(rows) ? rows.count : rows.length;
    this.order = Array.from({ length: this.count }, (_, index) => index);
    this.cutCells = new Set(cut.map(c => cutKey(c.row, c.column)));
    this.typed = headerRowCount(columns) === 2;
    this.mapped = columns.some(c => c.origin === 'mapping');
  }

  /** The rows, in the response's order, every one built; read again if they were let go. */
  get rows(): readonly Row[] {
    const held = this.heldRows();
    for (let index = 0; index < this.count; index++) {
      this.rowAt(index);
    }
    return held as readonly Row[];
  }

  /** One row, by its place in the response: built now if a reader holds it unbuilt. */
  rowAt(index: number): Row | undefined {
    const held = this.heldRows();
    let row = held[index];
    if (row === undefined && this.reader && index < this.count) {
      row = this.reader.row(index);
      held[index] = row;
    }
    return row;
  }

  /** Lets go of the rows when they can be read again: a grid far from view holds none. */
  releaseRows(): void {
    if (this.reread) {
      this.held = undefined;
      this.reader = undefined;
    }
  }

  private heldRows(): (Row | undefined)[] {
    if (!this.held) {
      this.hold(this.reread?.() ?? []);
    }
    return this.held ?? [];
  }

  private hold(rows: Rows): void {
    if (isReader(rows)) {
      this.reader = rows;
      this.held = new Array<Row | undefined>(rows.count);
    } else {
      this.reader = undefined;
      this.held = [...rows];
    }
  }

  get sort(): SortState | null {
    return this.sortState;
  }

  set sort(value: SortState | null) {
    this.sortState = value;
    this.order = sortedRowOrder(this.rows, value);
    this.emitChanged({ type: 'model-reset' });
  }

  rowCount(region: DataModel.RowRegion): number {
    return region === 'body' ? this.count : this.typed ? 2 : 1;
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body' ? this.columns.length : 1;
  }

  data(region: DataModel.CellRegion, row: number, column: number): string {
    switch (region) {
      case 'body': {
        const value = this.value(row, column);
        return typeof value === 'number' && this.columns[column]?.statistic
          ? numberText(value)
          : cellText(value);
      }
      case 'column-header':
        return this.headerText(row, column);
      case 'row-header':
        return String(this.responseIndex(row) + 1);
      case 'corner-header':
        return row === 0 ? '#' : '';
    }
  }

  /** The raw value under a display position (what copy and the detail view use). */
  value(row: number, column: number): unknown {
    const name = this.columns[column]?.name;
    const values = this.rowAt(this.responseIndex(row));
    return name === undefined || values === undefined
      ? undefined
      : ownValue(values, name);
  }

  /** Where a displayed row sits in the response. */
  responseIndex(row: number): number {
    return this.order[row] ?? row;
  }

  isCut(row: number, column: number): boolean {
    const name = this.columns[column]?.name;
    return (
      name !== undefined &&
      this.cutCells.has(cutKey(this.responseIndex(row), name))
    );
  }

  private headerText(row: number, column: number): string {
    const col = this.columns[column];
    if (!col) {
      return '';
    }
    const mark =
      this.sortState?.column === col.name
        ? SORT_MARKS[this.sortState.direction]
        : '';
    return columnHeaderText(col, row, this.mapped, mark);
  }
}

/** A name row, and a type row when any column has a type or is read-only. */
export function headerRowCount(columns: readonly Column[]): number {
  return columns.some(c => c.type !== '' || c.readOnly) ? 2 : 1;
}

/**
 * The two header rows of a column: its name (and sort mark), then type · read-only · not
 * mapped (`mapped`: the other columns came from a mapping, so "not mapped" means something).
 */
export function columnHeaderText(
  col: Column,
  row: number,
  mapped: boolean,
  mark = ''
): string {
  if (row === 0) {
    return col.name + mark;
  }
  return [
    col.type,
    col.readOnly ? 'read-only' : '',
    mapped && col.origin === 'documents' ? 'not mapped' : ''
  ]
    .filter(Boolean)
    .join(' · ');
}

function isReader(rows: Rows): rows is RowReader {
  return !Array.isArray(rows);
}

const cutKey = (row: number, column: string): string => `${row}\u0000${column}`;
