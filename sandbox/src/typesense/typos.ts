/**
 * Typo tolerance: when a query finds fewer documents than `typo_tokens_threshold` (default 1),
 * the engine searches again with each query token replaced by the indexed tokens it is a typo
 * of: one edit for tokens of `min_len_1typo` (4) characters and more, two for `min_len_2typo`
 * (7) and more, never more than `num_typos` (2). An edit is an insertion, a deletion, a
 * substitution or two neighbouring letters swapped.
 */
import { editDistance } from '../edit-distance';
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
