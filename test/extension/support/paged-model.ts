import type { Block, Column } from '../../../contracts/panel-protocol';
import { EditableRowsModel } from '../../../extension/src/documents/editable-rows-model';
import type { FetchBlock } from '../../../extension/src/documents/paged-rows';
import { PendingChanges } from '../../../extension/src/documents/pending-changes';

/** A document grid's model with no pending changes: the rows as paged in from the kernel. */
export function pagedModel(
  columns: readonly Column[],
  total: number,
  blockSize: number,
  first: Block,
  fetchBlock: FetchBlock
): EditableRowsModel {
  return new EditableRowsModel(
    columns,
    total,
    blockSize,
    first,
    fetchBlock,
    new PendingChanges(),
    () => 'target'
  );
}
