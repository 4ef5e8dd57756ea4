/**
 * The side panel's editing requests (edit-protocol.ts), answered from the driver's writes,
 * documents and target actions: a save's plan or its results per change, a cut cell's whole value, a row's whole
 * document with its metadata, and the destructive
 * actions on an index or collection, run only when the name the user typed matches.
 */
import type { Driver } from '../driver-core/driver';
import type { Connection } from '../connections/open-connection';
import type { Column } from '../../../contracts/columns';
import type { EditReply, EditRequest } from '../../../contracts/edit-protocol';

type EditReplyBody = EditReply extends infer R
  ? R extends EditReply
    ? Omit<R, 'v' | 'requestId'>
    : never
  : never;

/** What the service knows of an open grid: its connection, its target, the columns it has shown. */
export interface EditableGrid {
  id: string;
  connection: string;
  target: string;
  columns: ReadonlyMap<string, Column>;
}

export interface EditContext {
  grid(id: string): EditableGrid;
  connection(name: string): Connection;
}

export async function answerEdit(
  request: EditRequest,
  context: EditContext,
  signal: AbortSignal
): Promise<EditReplyBody> {
  switch (request.type) {
    case 'plan': {
      const { grid, driver } = gridEdits(context, request.gridId);
      const { requests, refusals } = await driver.writes.plan(
        grid,
        request.changes,
        signal
      );
      return { type: 'plan', gridId: grid.id, requests, refusals };
    }
    case 'save': {
      const { grid, driver } = gridEdits(context, request.gridId);
      const { results, refusals } = await driver.writes.save(
        grid,
        request.changes,
        signal
      );
      return { type: 'saved', gridId: grid.id, results, refusals };
    }
    case 'wholeValue': {
      const { grid, driver } = gridEdits(context, request.gridId);
      return {
        type: 'wholeValue',
        gridId: grid.id,
        row: request.row,
        column: request.column,
        value: await driver.documents.wholeValue(
          request.row,
          request.column,
          signal
        )
      };
    }
    case 'wholeDocument': {
      const { grid, driver } = gridEdits(context, request.gridId);
      const whole = await driver.documents.wholeDocument(request.row, signal);
      return {
        type: 'wholeDocument',
        gridId: grid.id,
        row: request.row,
        document: whole.document,
        meta: whole.meta,
        values: whole.values,
        ...(whole.version ? { version: whole.version } : {})
      };
    }
    case 'targetActions': {
      const driver = context.connection(request.connection).driver;
      const documents = await documentsHeld(driver, request.target, signal);
      return {
        type: 'targetActions',
        connection: request.connection,
        target: request.target,
        actions: driver.targetActions.offered(request.target),
        ...(documents !== undefined ? { documents } : {})
      };
    }
    case 'targetAction': {
      const { connection, target, action } = request;
      const actions = context.connection(connection).driver.targetActions;
      // Checked here too: a panel that skipped its dialog must not delete anything.
      if (request.confirmName !== target) {
        throw new Error(
          `Nothing was deleted: type the name ${target} exactly to confirm (you typed ${JSON.stringify(request.confirmName)}).`
        );
      }
      const offered = actions.offered(target).find(a => a.action === action);
      if (!offered) {
        throw new Error(
          `${target} offers no "${action}" here; nothing was sent.`
        );
      }
      if (offered.unavailable) {
        throw new Error(`${offered.unavailable} Nothing was sent.`);
      }
      if (request.basis) {
        await refuseChangedSince(
          context.connection(connection).driver,
          target,
          request.basis.documents,
          signal
        );
      }
      const done = await actions.run(target, action, signal);
      return {
        type: 'targetActionDone',
        connection,
        target,
        action,
        request: done.request,
        message: done.message
      };
    }
  }
}

/** The documents `target` holds now, as the server lists it; undefined when it lists no such name. */
async function documentsHeld(
  driver: Driver,
  target: string,
  signal: AbortSignal
): Promise<number | null | undefined> {
  const { targets } = await driver.catalog.listTargets(signal);
  return targets.find(t => t.name === target)?.count;
}

/**
 * Read just before a confirmed delete or empty: when the target is gone or holds another count
 * of documents than the confirmation showed, nothing is sent and the user confirms again.
 */
async function refuseChangedSince(
  driver: Driver,
  target: string,
  confirmed: number | null,
  signal: AbortSignal
): Promise<void> {
  const now = await documentsHeld(driver, target, signal);
  if (now === undefined) {
    throw new Error(`${target} is no longer on the server; nothing was sent.`);
  }
  if (now !== confirmed) {
    throw new Error(
      `${target} changed since you confirmed: it holds ${documentsText(now)} now, ${documentsText(confirmed)} when its menu was opened. Nothing was sent: open its menu again to confirm what it holds now.`
    );
  }
}

const documentsText = (count: number | null): string =>
  count === null
    ? 'an unknown number of documents'
    : `${count.toLocaleString('en-US')} document${count === 1 ? '' : 's'}`;

function gridEdits(context: EditContext, gridId: string) {
  const grid = context.grid(gridId);
  return { grid, driver: context.connection(grid.connection).driver };
}
