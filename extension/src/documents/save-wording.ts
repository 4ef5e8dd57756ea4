import { Dialog, showDialog } from '@jupyterlab/apputils';
import type { ChangeResult } from '@searchbook/contracts/edit-protocol';
import type { SaveOutcome } from './pending-changes';
import { plural } from './plural';

/** What the editing bar says after a save: what was saved, and what stays pending (and why); `done`: all of it was saved. */
export function saveSummary(
  outcomes: readonly SaveOutcome[],
  results: readonly ChangeResult[]
): { text: string; done: boolean } {
  const saved = outcomes.filter(o => o.status === 'saved').length;
  const conflicts = results.filter(r => r.status === 'conflict').length;
  const failed = results.filter(r => r.status === 'failed').length;
  const left = [
    conflicts ? plural(conflicts, 'conflict') : '',
    failed ? `${failed} failed` : ''
  ]
    .filter(Boolean)
    .join(', ');
  return left
    ? {
        text: `Saved ${saved} of ${plural(outcomes.length, 'change')}; ${left}: they stay pending, see below.`,
        done: false
      }
    : { text: `Saved ${plural(saved, 'change')}.`, done: true };
}

/**
 * Asks before Discard drops more than one edit (two cells of one row count two), Cancel being
 * the default button: Enter, or a key pressed by mistake, keeps what was typed.
 */
export async function discardAgreed(
  edits: number,
  rows: number
): Promise<boolean> {
  const inRows = rows === edits ? '' : ` (in ${plural(rows, 'row')})`;
  const answer = await showDialog({
    title: 'Discard pending changes',
    body: `Discard ${plural(edits, 'pending change')}${inRows}? Undo brings them back until your next change.`,
    buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Discard' })],
    defaultButton: 0
  });
  return answer.button.accept;
}
