/**
 * How much JSON a value would write out and how deep it nests, before anything writes it. A
 * value built from another can hold one part in many places (JMESPath's `[@, @]` holds `@`
 * twice without copying it), so thirty such steps make a value of a few objects that writes
 * out as billions: sizes are counted per part once and multiplied by where it appears, and
 * the count stops at the first limit passed.
 */

export type JsonExtent =
  | { kind: 'within'; bytes: number; depth: number }
  | { kind: 'over'; limit: 'bytes' | 'depth' };

/**
 * The UTF-8 bytes of `value` as JSON text and its nesting depth, or which limit it passes.
 * Self-contained (no imports, no closures): the expression worker runs this function's source.
 */
export function jsonExtent(
  value: unknown,
  maxBytes: number,
  maxDepth: number
): JsonExtent {
  const known = new Map<object, { bytes: number; depth: number }>();
  let passed: 'bytes' | 'depth' | undefined;
  const textBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));
  const measure = (
    part: unknown,
    level: number
  ): { bytes: number; depth: number } => {
    if (part === null || typeof part !== 'object') {
      const bytes =
        typeof part === 'string'
          ? textBytes(part)
          : typeof part === 'number'
            ? Number.isFinite(part)
              ? String(part).length
              : 4
            : part === true
              ? 4
              : part === false
                ? 5
                : 4;
      return { bytes, depth: 0 };
    }
    const seen = known.get(part);
    if (seen) {
      if (level + seen.depth > maxDepth) {
        passed = 'depth';
      }
      return seen;
    }
    if (level + 1 > maxDepth) {
      passed = 'depth';
      return { bytes: 0, depth: 1 };
    }
    let bytes = 2;
    let depth = 0;
    const entries: [string | undefined, unknown][] = Array.isArray(part)
      ? part.map(item => [undefined, item])
      : Object.entries(part);
    for (const [i, [key, item]] of entries.entries()) {
      const inner = measure(item, level + 1);
      bytes +=
        inner.bytes +
        (i > 0 ? 1 : 0) +
        (key === undefined ? 0 : textBytes(key) + 1);
      depth = Math.max(depth, inner.depth);
      if (bytes > maxBytes) {
        passed = 'bytes';
      }
      if (passed) {
        return { bytes, depth: depth + 1 };
      }
    }
    const extent = { bytes, depth: depth + 1 };
    known.set(part, extent);
    return extent;
  };
  const extent = measure(value, 0);
  return passed
    ? { kind: 'over', limit: passed }
    : { kind: 'within', ...extent };
}
