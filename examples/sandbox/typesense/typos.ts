/**
 * Typo tolerance: when a query finds fewer documents than `typo_tokens_threshold` (default 1),
 * the engine searches again with each query token replaced by the indexed tokens it is a typo
 * of: one edit for tokens of `min_len_1typo` (4) characters and more, two for `min_len_2typo`
 * (7) and more, never more than `num_typos` (2). An edit is an insertion, a deletion, a
 * substitution or two neighbouring letters swapped.
 */
import type { Collection } from './collection';
import type { QueryField } from './text';

export interface TypoSettings {
  numTypos: number;
  minLen1: number;
  minLen2: number;
  threshold: number;
}

/** How many combinations of corrected tokens are searched at most. */
const MAX_COMBINATIONS = 16;

/** The edits allowed for a query token of this length. */
export function allowedTypos(token: string, s: TypoSettings): number {
  const length = [...token].length;
  const allowed = length >= s.minLen2 ? 2 : length >= s.minLen1 ? 1 : 0;
  return Math.min(allowed, s.numTypos);
}

/** Optimal string alignment distance, or `limit + 1` once it is sure to exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) {
    return limit + 1;
  }
  let before = new Array<number>(b.length + 1).fill(0);
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

/**
 * The query's tokens with typos corrected: each list of alternatives holds the token itself
 * when indexed, else the indexed tokens at the smallest distance allowed. Empty when some
 * token has neither (the caller then drops tokens as before).
 */
export function correctedQueries(
  coll: Collection,
  tokens: string[],
  fields: QueryField[],
  prefix: boolean,
  settings: TypoSettings
): string[][] {
  const indexes = [...new Set(fields.map(f => f.name))].map(name =>
    coll.tokenIndex(name)
  );
  const alternatives: string[][] = [];
  const last = tokens.length - 1;
  for (const [i, token] of tokens.entries()) {
    const held = (index: (typeof indexes)[number]): boolean =>
      index.exact(token).length > 0 ||
      (prefix && i === last && index.withPrefix(token).length > 0);
    if (indexes.some(held)) {
      alternatives.push([token]);
      continue;
    }
    const allowed = allowedTypos(token, settings);
    let best = allowed + 1;
    let closest: string[] = [];
    for (const index of indexes) {
      for (const candidate of index.tokens()) {
        const d = editDistance(token, candidate, allowed);
        if (d < best) {
          best = d;
          closest = [candidate];
        } else if (d === best && d <= allowed && !closest.includes(candidate)) {
          closest.push(candidate);
        }
      }
    }
    if (closest.length === 0) {
      alternatives.push([token]);
      continue;
    }
    alternatives.push(closest.sort());
  }
  if (alternatives.every((a, i) => a.length === 1 && a[0] === tokens[i])) {
    return [];
  }
  let combinations: string[][] = [[]];
  for (const options of alternatives) {
    combinations = combinations
      .flatMap(prefix => options.map(o => [...prefix, o]))
      .slice(0, MAX_COMBINATIONS);
  }
  return combinations;
}
