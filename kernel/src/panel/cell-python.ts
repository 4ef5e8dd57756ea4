/**
 * A console cell as Python code for the engines' official clients, for "Copy as Python" on
 * cells and grids: each request on the connection the cell would send it to (the active one,
 * the one a `%use` line in the cell picks, or the grid's), one client per connection, the
 * credentials read from `os.environ` by the names of the variables they came from.
 * `${env:NAME}` references in paths and bodies become `$NAME` text, as in a copied curl command.
 */
import type { AnswerStore } from '../console/answers';
import type { VariableScope } from '../console/variables';
import type { ConnectionRegistry } from '../connections/connection-registry';
import { pythonProgram } from '../driver-core/python-code';
import { cellRequests } from './cell-requests';

export async function pythonOfCell(
  cell: string,
  connections: ConnectionRegistry,
  scope: VariableScope,
  options: { answers?: AnswerStore; connection?: string } = {}
): Promise<{ code: string; requests: number }> {
  const requests = await cellRequests(cell, connections, scope, {
    copyAs: 'Python',
    answers: options.answers,
    connection: options.connection
  });
  if (requests.length === 0) {
    throw new Error(
      'This cell holds no request to copy as Python: write one such as `GET /my-index/_search`, then copy again.'
    );
  }
  const parts = requests.map(({ request, connection }) => ({
    client: connection.driver.console.python(),
    connection: connection.name,
    request
  }));
  return { code: pythonProgram(parts), requests: parts.length };
}
