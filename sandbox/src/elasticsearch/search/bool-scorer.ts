/**
 * The bool query: must (scored, required), filter (required), must_not, should (scored,
 * at least `msm` of them). On an indexed snapshot it lists its matches without calling
 * every clause on every document: candidates come from the clauses that list their own
 * matches, and each candidate is then decided as the per-document scorer decides it, with
 * listed clauses read from their lists instead of being evaluated again.
 */
import {
  intersectPositions,
  MatchesBuilder,
  NO_MATCH,
  unionPositions,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import type { IndexedView } from './field-indexes';
import type { DocView } from './values';

export function boolScorer(
  must: Scorer[],
  filter: Scorer[],
  should: Scorer[],
  mustNot: Scorer[],
  msm: number,
  boost = 1
): Scorer {
  const run = (view: DocView): number => {
    let score = 0;
    for (const q of must) {
      const s = q(view);
      if (s === NO_MATCH) {
        return NO_MATCH;
      }
      score += s;
    }
    for (const q of filter) {
      if (q(view) === NO_MATCH) {
        return NO_MATCH;
      }
    }
    for (const q of mustNot) {
      if (q(view) !== NO_MATCH) {
        return NO_MATCH;
      }
    }
    let matched = 0;
    for (const q of should) {
      const s = q(view);
      if (s !== NO_MATCH) {
        matched++;
        score += s;
      }
    }
    if (matched < msm) {
      return NO_MATCH;
    }
    return Math.fround(score * boost);
  };
  return withMatches(
    run,
    boolMatches(must, filter, should, mustNot, msm, boost)
  );
}

/** A clause's score at ascending positions, read from its list by a cursor that only moves forward. */
function listedScore(m: DocMatches): (pos: number) => number {
  let i = 0;
  return pos => {
    while (i < m.positions.length && (m.positions[i] as number) < pos) {
      i++;
    }
    return m.positions[i] === pos ? (m.scores[i] as number) : NO_MATCH;
  };
}

/**
 * Candidates: in every listing must/filter clause's matches and, when at least one should
 * clause must match and all of them list theirs, in their union. Undefined when no clause
 * narrows the documents (the search then calls the scorer on each).
 */
function boolMatches(
  must: Scorer[],
  filter: Scorer[],
  should: Scorer[],
  mustNot: Scorer[],
  msm: number,
  boost: number
): Scorer['matches'] {
  const required = [...must, ...filter].filter(s => s.matches);
  const shouldNarrows =
    msm >= 1 && should.length > 0 && should.every(s => s.matches);
  if (required.length === 0 && !shouldNarrows) {
    return undefined;
  }
  return (snapshot: IndexedView): DocMatches => {
    const lists = new Map<Scorer, DocMatches>();
    const listOf = (s: Scorer): DocMatches => {
      let m = lists.get(s);
      if (!m) {
        lists.set(
          s,
          (m = (s.matches as NonNullable<Scorer['matches']>)(snapshot))
        );
      }
      return m;
    };
    const narrowing = required.map(s => listOf(s).positions);
    if (shouldNarrows) {
      narrowing.push(
        unionPositions(
          should.map(s => listOf(s).positions),
          snapshot.docs.length
        )
      );
    }
    const candidates = intersectPositions(narrowing);
    // Listing a broad clause costs a pass over its postings: worth it only for many candidates.
    const listAll = candidates.length * 16 >= snapshot.docs.length;
    let view: DocView | null = null;
    let viewPos = -1;
    const reader = (s: Scorer): ((pos: number) => number) => {
      if (lists.has(s) || (listAll && s.matches)) {
        return listedScore(listOf(s));
      }
      return pos => {
        if (viewPos !== pos) {
          view = snapshot.viewAt(pos);
          viewPos = pos;
        }
        return s(view as DocView);
      };
    };
    const mustAt = must.map(reader);
    const filterAt = filter.map(reader);
    const mustNotAt = mustNot.map(reader);
    const shouldAt = should.map(reader);
    const out = new MatchesBuilder(candidates.length);
    next: for (let c = 0; c < candidates.length; c++) {
      const pos = candidates[c] as number;
      // The same steps and order of additions as `run`, so the same score.
      let score = 0;
      for (const at of mustAt) {
        const s = at(pos);
        if (s === NO_MATCH) {
          continue next;
        }
        score += s;
      }
      for (const at of filterAt) {
        if (at(pos) === NO_MATCH) {
          continue next;
        }
      }
      for (const at of mustNotAt) {
        if (at(pos) !== NO_MATCH) {
          continue next;
        }
      }
      let matched = 0;
      for (const at of shouldAt) {
        const s = at(pos);
        if (s !== NO_MATCH) {
          matched++;
          score += s;
        }
      }
      if (matched < msm) {
        continue;
      }
      out.push(pos, Math.fround(score * boost));
    }
    return out.build();
  };
}
