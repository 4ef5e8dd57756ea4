/**
 * Where a row sits in the `_shard_doc` order, worked out from the engine's own answers instead
 * of walking to it. A `_shard_doc` value is the shard's place in the point in time (high 32
 * bits) and the document's Lucene id in that shard (low bits); within one shard the values of
 * the rows rise strictly. When the first and the last row of the view are in the same shard
 * and their values are exactly `total - 1` apart, the `total` rows hold every value between
 * them (no deleted document, nested object or unmatched document leaves a gap), so row `k` is
 * the one whose value is the first row's plus `k`, and `search_after` the value before it reads
 * from there. Anything else (several shards, gaps, values that are no plain integers) gives
 * nothing, and the grid walks as before.
 */
const SHARD_SPAN = 2 ** 32;

/** The `search_after` that reads from row `row` (1 ≤ row < total), or undefined when the rows are not known to be contiguous. */
export function contiguousShardDocAfter(
  first: unknown,
  last: unknown,
  total: number,
  row: number
): [number] | undefined {
  if (
    typeof first !== 'number' ||
    typeof last !== 'number' ||
    !Number.isSafeInteger(first) ||
    !Number.isSafeInteger(last) ||
    Math.floor(first / SHARD_SPAN) !== Math.floor(last / SHARD_SPAN) ||
    last - first !== total - 1 ||
    row < 1 ||
    row >= total
  ) {
    return undefined;
  }
  return [first + row - 1];
}
