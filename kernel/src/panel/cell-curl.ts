/**
 * A console cell as curl command lines, for the cells' "Copy as curl": each request on the
 * connection the cell would send it to (the active one, or the one a `%use` line in the cell
 * picks). `${env:NAME}` references become `$NAME` text and credentials environment variables,
 * so no secret reaches the clipboard.
 */
import type { AnswerStore } from '../console/answers';
import { parseCellEvaluating } from '../console/parse-evaluating';
import { VariableScope } from '../console/variables';
import { CONSOLE_WORDING } from '../connections/console-wording';
import type { Connection } from '../connections/open-connection';
import type { ConnectionRegistry } from '../connections/registry';

export async function curlOfCell(
  cell: string,
  connections: ConnectionRegistry,
  scope: VariableScope,
  answers?: AnswerStore
): Promise<string[]> {
  const referencesOnly = new VariableScope(name => `$${name}`, scope.entries());
  const parsed = await parseCellEvaluating(
    cell,
    referencesOnly,
    CONSOLE_WORDING,
    answers
  );
  if (!parsed.ok) {
    throw new Error(`${parsed.refusal.message} ${parsed.refusal.hint}`.trim());
  }
  let connection: Connection | undefined = connections.active;
  const commands: string[] = [];
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
        'No connection is open in this kernel: run %connect first, then copy the cell as curl.'
      );
    }
    // A note on a placeholder variable is said once, above the first command that uses it.
    const [first, ...rest] = connection.driver.console.curl(item).split('\n');
    const said = first?.startsWith('# ') && commands.includes(first);
    commands.push(...(said ? rest : [first ?? '', ...rest]));
  }
  if (commands.length === 0) {
    throw new Error('This cell holds no request to copy as curl.');
  }
  return commands;
}
