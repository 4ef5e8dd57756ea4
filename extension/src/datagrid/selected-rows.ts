import type { SelectionModel } from '@lumino/datagrid';

/** The rows the selection covers, or the active cell's row when nothing is selected. */
export function selectedRows(selection: SelectionModel | null): number[] {
  const rows = new Set<number>();
  for (const s of selection?.selections() ?? []) {
    for (let r = Math.min(s.r1, s.r2); r <= Math.max(s.r1, s.r2); r++) {
      rows.add(r);
    }
  }
  if (rows.size === 0 && selection && selection.cursorRow >= 0) {
    rows.add(selection.cursorRow);
  }
  return [...rows];
}
