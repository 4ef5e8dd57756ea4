import type { RowKey, RowVersion } from '@searchbook/contracts/edit-protocol';
import { hasField } from '@searchbook/contracts/own-fields';
import type { GridRow, PendingChanges, Problem } from './pending-changes';

/** What a grid row is: a new row not yet saved, a document (with where it lives, once loaded). */
export type RowAt =
  | { kind: 'new'; key: string; values: GridRow }
  | {
      kind: 'document';
      key: RowKey | undefined;
      version: RowVersion | undefined;
      values: GridRow | undefined;
      deleted: boolean;
      inserted: boolean;
    };

/** How a cell is marked, painted as its background and told in its row header. */
export type Mark =
  'changed' | 'new' | 'deleted' | 'refused' | 'conflict' | 'failed';

/** The sign a row header shows before the row's number. */
export const ROW_MARKS: Record<Mark, string> = {
  changed: '✎',
  new: '+',
  deleted: '✕',
  refused: '!',
  conflict: '⚠',
  failed: '!'
};

/** A cell's mark (its background) by its change and any problem with it. */
export function cellMark(
  at: RowAt,
  name: string,
  pending: PendingChanges
): Mark | undefined {
  if (at.kind === 'new') {
    const problem = pending.problemOf(at.key);
    return problem ? (problemMark(problem, name) ?? 'new') : 'new';
  }
  if (!at.key) {
    return undefined;
  }
  const entry = pending.rowOf(at.key);
  if (at.deleted) {
    return 'deleted';
  }
  if (!entry) {
    return undefined;
  }
  const problem = entry.problem ? problemMark(entry.problem, name) : undefined;
  if (entry.deleted) {
    return problem ?? 'deleted';
  }
  if (!hasField(entry.fields, name)) {
    return undefined;
  }
  return problem ?? 'changed';
}

/** A row's mark, as its header tells it ('saved': inserted by a save since the read). */
export function rowMark(
  at: RowAt,
  pending: PendingChanges
): Mark | 'saved' | undefined {
  if (at.kind === 'new') {
    const problem = pending.problemOf(at.key);
    return problem ? problem.kind : 'new';
  }
  if (at.deleted) {
    return 'deleted';
  }
  const entry = at.key ? pending.rowOf(at.key) : undefined;
  if (!entry) {
    return at.inserted ? 'saved' : undefined;
  }
  return entry.problem?.kind ?? (entry.deleted ? 'deleted' : 'changed');
}

function problemMark(problem: Problem, column: string): Mark | undefined {
  if (problem.kind !== 'refused') {
    return problem.kind;
  }
  return problem.refusals.some(
    r => r.column === undefined || r.column === column
  )
    ? 'refused'
    : undefined;
}
