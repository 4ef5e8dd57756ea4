/**
 * Bounds on the shape of a message's JSON, checked before any schema reads it. Schemas walk a
 * value recursively, so a message nested a few thousand levels deep overflows the stack inside
 * them; this walk is iterative (an explicit stack) and stops at the first bound crossed.
 */

export interface JsonBounds {
  /** Arrays and objects inside one another. */
  depth: number;
  /** Values of any kind (each array, object, string, number, boolean, null counts one). */
  values: number;
}

/**
 * What a Jupyter message may hold. Documents the grid edits are nested far less deeply
 * (Elasticsearch refuses mappings deeper than 20 objects by default, `index.mapping.depth.limit`),
 * and a save of a thousand changes holds well under a million values.
 */
export const MESSAGE_BOUNDS: JsonBounds = { depth: 200, values: 2_000_000 };

/** Which bound `value` crosses, as a sentence naming it; undefined when it stays within both. */
export function boundCrossed(
  value: unknown,
  bounds: JsonBounds = MESSAGE_BOUNDS
): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let count = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    count += 1;
    if (count > bounds.values) {
      return `it holds more than ${bounds.values.toLocaleString('en-US')} JSON values`;
    }
    if (current === null || typeof current !== 'object') {
      continue;
    }
    if (depth > bounds.depth) {
      return `it is nested more than ${bounds.depth} levels deep`;
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
