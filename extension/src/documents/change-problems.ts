import type { Column } from '@searchbook/contracts/panel-protocol';
import { cellText } from '../datagrid/cell-text';
import type { EditRefusal } from '@searchbook/contracts/edit-protocol';
import type {
  EditedRow,
  NewRow,
  PendingChanges,
  Problem
} from './pending-changes';
import { toolbarButton } from './toolbar-button';
import { ownValue } from '@searchbook/contracts/own-fields';
import { redrawKeepingFocus } from '../focus/redraw-keeping-focus';

export interface ProblemActions {
  overwrite(key: string): Promise<void>;
  drop(key: string): void;
  locate(key: string): void;
}

/**
 * The list under the grid of changes a save could not make, each with why: refused values
 * (with line and column for JSON), conflicts (your value beside the one stored now, with
 * Overwrite and Drop my change), failed writes with the engine's reason. Values are text.
 */
export function renderProblems(
  node: HTMLElement,
  pending: PendingChanges,
  columns: readonly Column[],
  actions: ProblemActions
): void {
  const items: HTMLElement[] = [];
  for (const row of pending.newRows) {
    if (row.problem) {
      items.push(problemItem(row, row.problem, columns, actions));
    }
  }
  for (const row of pending.editedRows) {
    if (row.problem) {
      items.push(problemItem(row, row.problem, columns, actions));
    }
  }
  redrawKeepingFocus(node, items);
  node.hidden = items.length === 0;
}

/** A pending change's row as the user knows it: `_id p3`, `New row p100`. */
export function rowLabel(
  row: EditedRow | NewRow,
  columns: readonly Column[]
): string {
  if ('row' in row) {
    const id = columns.find(c => c.primaryKey)?.name ?? 'id';
    return `${row.deleted ? 'Delete of ' : ''}${id} ${row.row.id}${row.row.index ? ` in ${row.row.index}` : ''}`;
  }
  return row.id ? `New row ${row.id}` : 'New row';
}

/** Refused values as "Show requests" lists them: each with its row as the user knows it, and why. */
export function refusedValues(
  refusals: readonly EditRefusal[],
  pending: PendingChanges,
  columns: readonly Column[]
): Array<{ row: string; text: string }> {
  return refusals.map(r => {
    const row =
      pending.editedRows.find(e => e.key === r.key) ??
      pending.newRows.find(e => e.key === r.key);
    return {
      row: row ? rowLabel(row, columns) : r.key,
      text: refusalText(r)
    };
  });
}

function problemItem(
  row: EditedRow | NewRow,
  problem: Problem,
  columns: readonly Column[],
  actions: ProblemActions
): HTMLElement {
  const item = document.createElement('section');
  item.className = `searchbook-Problem searchbook-mod-${problem.kind}`;
  item.dataset.key = row.key;
  const title = document.createElement('button');
  title.type = 'button';
  title.className = 'searchbook-Problem-row';
  const kind = {
    refused: 'refused, nothing sent',
    conflict: 'changed by someone else',
    failed: 'not saved'
  }[problem.kind];
  title.textContent = `${rowLabel(row, columns)}: ${kind}`;
  title.title = 'Show this row in the grid';
  title.addEventListener('click', () => actions.locate(row.key));
  item.setAttribute('aria-label', title.textContent);
  const lines = document.createElement('ul');
  const line = (text: string) => {
    const li = document.createElement('li');
    li.textContent = text;
    lines.append(li);
  };
  if (problem.kind === 'refused') {
    for (const refusal of problem.refusals) {
      line(refusalText(refusal));
    }
  } else {
    line(problem.message);
  }
  // The row's name and its actions share a line: three conflicts fit under the grid unscrolled.
  const head = document.createElement('div');
  head.className = 'searchbook-Problem-head';
  head.append(title);
  item.append(head, lines);
  if (problem.kind === 'conflict') {
    for (const [column, typed] of Object.entries(row.fields)) {
      const now =
        problem.current === null
          ? 'the document was deleted'
          : cellText(ownValue(problem.current, column) ?? null);
      line(
        `${column}: yours ${typed === null ? '(empty)' : cellText(typed)} · stored now ${now === '' ? '(empty)' : now}`
      );
    }
    const buttons = document.createElement('div');
    buttons.className = 'searchbook-Problem-actions';
    buttons.append(
      toolbarButton(
        'Overwrite',
        'Save your change over the one stored now',
        () => actions.overwrite(row.key)
      ),
      toolbarButton(
        'Drop my change',
        'Keep what is stored now and forget your change',
        () => actions.drop(row.key)
      )
    );
    head.append(buttons);
  }
  return item;
}

/**
 * A refused value as the user reads it. The kernel's message already names the field and,
 * for JSON, the line and column; they are added only to a message that lacks them.
 */
export function refusalText(
  refusal: Pick<EditRefusal, 'column' | 'message' | 'line' | 'col'>
): string {
  const named = !refusal.column || refusal.message.startsWith(refusal.column);
  const placed =
    refusal.line === undefined || /\bline \d+/.test(refusal.message);
  const where = placed
    ? ''
    : ` (line ${refusal.line}${refusal.col !== undefined ? `, column ${refusal.col}` : ''})`;
  return `${named ? '' : `${refusal.column}: `}${refusal.message}${where}`;
}
