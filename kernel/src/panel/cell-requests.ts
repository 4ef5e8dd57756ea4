/**
 * The requests of a console cell, each with the connection it would be sent on (the active
 * one, the one a `%use` line in the cell picks, or the one asked for), for the commands that
 * copy a cell as code ("Copy as curl", "Copy as Python"). `${env:NAME}` references become
 * `$NAME` text, so no secret reaches the clipboard.
 */
import type { AnswerStore } from '../console/answers';
import { parseCellEvaluating } from '../console/parse-evaluating';
import { VariableScope } from '../console/variables';
import { CONSOLE_WORDING } from '../connections/console-wording';
import type { Connection } from '../connections/open-connection';
import type { ConnectionRegistry } from '../connections/connection-registry';
import type { ConsoleRequest } from '../console/cell';

export interface CellRequest {
  request: ConsoleRequest;
  connection: Connection;
}

export async function cellRequests(
  cell: string,
  connections: ConnectionRegistry,
  scope: VariableScope,
  options: {
    /** `curl`, `Python`: in the refusal when no connection is open. */
    copyAs: string;
    answers?: AnswerStore | undefined;
    /** The connection's name, instead of the active one (a grid's). */
    connection?: string | undefined;
  }
): Promise<CellRequest[]> {
  const referencesOnly = new VariableScope(name => `$${name}`, scope.entries());
  const parsed = await parseCellEvaluating(
    cell,
    referencesOnly,
    CONSOLE_WORDING,
    options.answers
  );
  if (!parsed.ok) {
    throw new Error(`${parsed.refusal.message} ${parsed.refusal.hint}`.trim());
  }
  let connection: Connection | undefined = options.connection
    ? connections.list().find(c => c.name === options.connection)
    : connections.active;
  if (options.connection && !connection) {
    throw new Error(
      `The connection ${options.connection} is no longer open: open it again with %connect, then copy again.`
    );
  }
  const requests: CellRequest[] = [];
  for (const item of parsed.items) {
    if (item.kind === 'magic') {
      if (item.name === 'use') {
        connection =
          connections.list().find(c => c.name === item.args) ?? connection;
      }
      continue;
    }
    if (!connection) {
      throw new Error(
        `No connection is open in this kernel: run %connect first, then copy the cell as ${options.copyAs}.`
      );
    }
    requests.push({ request: item, connection });
  }
  return requests;
}
