import type { EditableRowsModel } from './editable-rows-model';

/** Why a cell cannot be edited (said on the editing bar), or undefined when it can. */
export function editRefusal(
  model: EditableRowsModel,
  row: number,
  column: number
): string | undefined {
  const col = model.columns[column];
  const at = model.rowAt(row);
  if (!col || !at) {
    return undefined;
  }
  if (!model.isLoaded(row)) {
    return 'This row is still loading; try again in a moment.';
  }
  if (col.arrayParent) {
    return `${col.name} lists one value per element of ${col.arrayParent}: edit the array in the ${col.arrayParent} column (JSON); this column follows it.`;
  }
  if (at.kind === 'new') {
    return col.readOnly && !col.primaryKey
      ? `${col.name} is set by the engine.`
      : undefined;
  }
  if (at.deleted) {
    return 'This row was deleted.';
  }
  if (col.primaryKey) {
    return `${col.name} identifies the document and cannot be changed: insert a new row with the id you want, then delete this one.`;
  }
  if (col.readOnly) {
    return `${col.name} is read-only.`;
  }
  if (!at.key) {
    return 'This grid’s rows carry no key to save edits to: restart the kernel so it matches this extension.';
  }
  return undefined;
}
