/**
 * Fuzzy term expansion as Lucene's FuzzyQuery does it: the indexed terms within the allowed
 * edits (a transposition counts as one), each weighted by 1 - edits / min(length of the two),
 * the best 50 kept.
 */
import { editDistance } from '../../edit-distance';
import type { Json } from '../json-value';

const MAX_EXPANSIONS = 50;

/** `fuzziness`: 0, 1, 2, or AUTO (0 edits below 3 characters, 1 below 6, else 2), AUTO:low,high. */
export function editsFor(fuzziness: Json | undefined, term: string): number {
  const length = [...term].length;
  const text = String(fuzziness ?? 'AUTO').toUpperCase();
  const auto = /^AUTO(?::(\d+),(\d+))?$/.exec(text);
  if (auto) {
    const low = Number(auto[1] ?? 3);
    const high = Number(auto[2] ?? 6);
    return length < low ? 0 : length < high ? 1 : 2;
  }
  const n = Number(text);
  return Number.isFinite(n) ? Math.min(2, Math.max(0, Math.floor(n))) : 0;
}

export interface Expansion {
  term: string;
  boost: number;
}

export function fuzzyExpansions(
  term: string,
  maxEdits: number,
  terms: Iterable<string>
): Expansion[] {
  const want = [...term];
  const out: Expansion[] = [];
  for (const candidate of terms) {
    const chars = [...candidate];
    const edits = candidate === term ? 0 : editDistance(want, chars, maxEdits);
    if (edits > maxEdits) {
      continue;
    }
    out.push({
      term: candidate,
      boost:
        edits === 0
          ? 1
          : Math.fround(
              1 - Math.fround(edits / Math.min(chars.length, want.length))
            )
    });
  }
  out.sort(
    (x, y) =>
      y.boost - x.boost || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0)
  );
  return out.slice(0, MAX_EXPANSIONS);
}
