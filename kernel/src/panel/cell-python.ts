/**
 * A console cell as Python code for the engines' official clients, for "Copy as Python" on
 * cells and grids: each request on the connection the cell would send it to (the active one,
 * the one a `%use` line in the cell picks, or the grid's), one client per connection, the
 * credentials read from `os.environ` by the names of the variables they came from.
 * `${env:NAME}` references in paths and bodies become `$NAME` text, as in a copied curl command.
 */
import type { AnswerStore } from '../console/answers';
import { parseCellEvaluating } from '../console/parse-evaluating';
import { VariableScope } from '../console/variables';
import { CONSOLE_WORDING } from '../connections/console-wording';
import type { Connection } from '../connections/open-connection';
import type { ConnectionRegistry } from '../connections/registry';
import { type PythonPart, pythonProgram } from '../engine/python-code';

export async function pythonOfCell(
  cell: string,
  connections: ConnectionRegistry,
  scope: VariableScope,
  options: { answers?: AnswerStore; connection?: string } = {}
): Promise<{ code: string; requests: number }> {
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
  const parts: PythonPart[] = [];
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
        'No connection is open in this kernel: run %connect first, then copy the cell as Python.'
      );
    }
    parts.push({
      client: connection.driver.console.python(),
      connection: connection.name,
      request: item
    });
  }
  if (parts.length === 0) {
    throw new Error(
      'This cell holds no request to copy as Python: write one such as `GET /my-index/_search`, then copy again.'
    );
  }
  return { code: pythonProgram(parts), requests: parts.length };
}
