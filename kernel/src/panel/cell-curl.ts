/**
 * A console cell as curl command lines, for the cells' "Copy as curl": each request on the
 * connection the cell would send it to (the active one, or the one a `%use` line in the cell
 * picks). `${env:NAME}` references become `$NAME` text and credentials environment variables,
 * so no secret reaches the clipboard.
 */
import type { AnswerStore } from '../console/answers';
import type { VariableScope } from '../console/variables';
import type { ConnectionRegistry } from '../connections/connection-registry';
import { cellRequests } from './cell-requests';

export async function curlOfCell(
  cell: string,
  connections: ConnectionRegistry,
  scope: VariableScope,
  answers?: AnswerStore
): Promise<string[]> {
  const requests = await cellRequests(cell, connections, scope, {
    copyAs: 'curl',
    answers
  });
  const commands: string[] = [];
  for (const { request, connection } of requests) {
    // A note on a placeholder variable is said once, above the first command that uses it.
    const [first, ...rest] = connection.driver.console
      .curl(request)
      .split('\n');
    const said = first?.startsWith('# ') && commands.includes(first);
    commands.push(...(said ? rest : [first ?? '', ...rest]));
  }
  if (commands.length === 0) {
    throw new Error('This cell holds no request to copy as curl.');
  }
  return commands;
}
