import type { ConnectionNode } from '../sidebar/connection-listing';

const SEPARATOR = ' · ';

/** `target · connection` for every index or collection the panel lists, in its order. */
export function targetChoices(nodes: readonly ConnectionNode[]): string[] {
  return nodes.flatMap(node =>
    node.targets
      // As in the tree: dot names (system indices) are left out; typed, they open.
      .filter(t => !t.name.startsWith('.'))
      .map(t => `${t.name}${SEPARATOR}${node.connection.name}`)
  );
}

/**
 * What was chosen or typed: `name · connection`, or a bare name when only one connection is
 * open (an alias or pattern the list does not show opens too).
 */
export function chosenTarget(
  text: string,
  connections: readonly string[]
): { connection: string; target: string } | { error: string } {
  const at = text.lastIndexOf(SEPARATOR);
  const target = (at >= 0 ? text.slice(0, at) : text).trim();
  const connection = at >= 0 ? text.slice(at + SEPARATOR.length).trim() : '';
  if (target === '') {
    return { error: 'Type the name of an index or collection.' };
  }
  if (connection !== '') {
    return connections.includes(connection)
      ? { connection, target }
      : {
          error: `No connection named ${connection}: write one of ${connections.join(', ') || '(none open)'} after " · ".`
        };
  }
  if (connections.length === 1 && connections[0] !== undefined) {
    return { connection: connections[0], target };
  }
  return {
    error:
      connections.length === 0
        ? 'No connection is open in the kernel the panel follows: run a %connect cell first.'
        : `Several connections are open: write "${target} · connection", with one of ${connections.join(', ')}.`
  };
}
