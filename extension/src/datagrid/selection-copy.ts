import type { DataModel, SelectionModel } from '@lumino/datagrid';
import { tsvField } from './cell-text';
import { exactJson } from '@searchbook/contracts/exact-json';

/** A grid model copy reads from: the notebook's rows, or the panel's paged rows once loaded. */
export interface CopyableModel {
  readonly columns: readonly { name: string }[];
  rowCount(region: DataModel.RowRegion): number;
  value(row: number, column: number): unknown;
}

/** The rectangle a copy covers: the user's selection, or the whole grid when nothing is selected. */
export interface CellRange {
  firstRow: number;
  lastRow: number;
  firstColumn: number;
  lastColumn: number;
}

export function selectedRange(
  model: CopyableModel,
  selection: SelectionModel | null
): CellRange {
  const current = selection?.currentSelection();
  if (!current) {
    return {
      firstRow: 0,
      lastRow: model.rowCount('body') - 1,
      firstColumn: 0,
      lastColumn: model.columns.length - 1
    };
  }
  return {
    firstRow: Math.max(0, Math.min(current.r1, current.r2)),
    lastRow: Math.min(
      model.rowCount('body') - 1,
      Math.max(current.r1, current.r2)
    ),
    firstColumn: Math.max(0, Math.min(current.c1, current.c2)),
    lastColumn: Math.min(
      model.columns.length - 1,
      Math.max(current.c1, current.c2)
    )
  };
}

function columnIndexes(range: CellRange): number[] {
  const indexes: number[] = [];
  for (let c = range.firstColumn; c <= range.lastColumn; c++) {
    indexes.push(c);
  }
  return indexes;
}

function rowIndexes(range: CellRange): number[] {
  const indexes: number[] = [];
  for (let r = range.firstRow; r <= range.lastRow; r++) {
    indexes.push(r);
  }
  return indexes;
}

/** Tab-separated with a header line, in the order the grid shows. */
export function rangeAsTsv(model: CopyableModel, range: CellRange): string {
  const columns = columnIndexes(range);
  const header = columns.map(c => model.columns[c]?.name ?? '').join('\t');
  const lines = rowIndexes(range).map(r =>
    columns.map(c => tsvField(model.value(r, c))).join('\t')
  );
  return [header, ...lines].join('\n');
}

/** An array of objects keyed by column name, values as the engine sent them. */
export function rangeAsJson(model: CopyableModel, range: CellRange): string {
  const columns = columnIndexes(range);
  const objects = rowIndexes(range).map(r =>
    Object.fromEntries(
      columns.map(c => [
        model.columns[c]?.name ?? '',
        model.value(r, c) ?? null
      ])
    )
  );
  return exactJson(objects, 2);
}
