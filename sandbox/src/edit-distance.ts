/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions), which both
 * engines' typo tolerance counts in: Elasticsearch's fuzzy queries over code points, Typesense's
 * typo correction over the token's characters.
 */

/** The distance between `a` and `b`, or `limit + 1` as soon as it is sure to exceed `limit`. */
export function editDistance(
  a: ArrayLike<string>,
  b: ArrayLike<string>,
  limit: number
): number {
  if (Math.abs(a.length - b.length) > limit) {
    return limit + 1;
  }
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) {
      return limit + 1;
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}
