/**
 * match, term and phrase scorers on a text field that has a token index in the snapshot
 * being searched. Each wraps the _source-reading scorer (`fromSource`) and gives the same
 * answers: it reads term frequencies and field lengths from the index where those determine
 * the score, and falls back to `fromSource` where they do not (views inside nested objects,
 * documents with several values for the one-value-at-a-time semantics of term and phrase).
 */
import type { Bm25 } from './bm25';
import {
  MatchesBuilder,
  NO_MATCH,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import type { TextFieldIndex } from './text-field-index';
import type { IndexedView } from './field-indexes';
import type { DocView } from './values';

/** True when the view is a whole document of the indexed snapshot (not a nested object). */
function indexedSeq(view: DocView): number | undefined {
  return view.nestedPath === undefined ? view.seq : undefined;
}

/**
 * match (and term): distinct query terms found, each adding its BM25 score from the
 * document's tf and field length. The sum of a few float32 values is exact in a double, so
 * adding in query order (here) rather than in order of first appearance in the document
 * (the _source scorer) gives the same score.
 */
export function indexedMatch(
  fx: TextFieldIndex,
  terms: string[],
  weights: Bm25[],
  required: number,
  fromSource: Scorer
): Scorer {
  const needed = Math.max(required, 1);
  const run = (view: DocView): number => {
    const seq = indexedSeq(view);
    if (seq === undefined) {
      return fromSource(view);
    }
    const length = fx.length(seq);
    let found = 0;
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const tf = fx.tf(terms[t] as string, seq);
      if (tf === 0) {
        continue;
      }
      found++;
      score += (weights[t] as Bm25).score(tf, length);
    }
    return found < needed ? NO_MATCH : Math.fround(score);
  };
  const matches = (snapshot: IndexedView): DocMatches => {
    const size = snapshot.docs.length;
    if (terms.length === 1) {
      const weight = weights[0] as Bm25;
      const out = new MatchesBuilder(
        Math.min(size, fx.documentFrequency(terms[0] as string))
      );
      fx.forEach(terms[0] as string, (seq, tf) => {
        const pos = snapshot.positionOf(seq);
        if (pos >= 0) {
          out.push(pos, weight.score(tf, fx.length(seq)));
        }
      });
      return out.build();
    }
    const sums = new Float64Array(size);
    const found = new Int32Array(size);
    let most = 0;
    terms.forEach((term, t) => {
      const weight = weights[t] as Bm25;
      most += fx.documentFrequency(term);
      fx.forEach(term, (seq, tf) => {
        const pos = snapshot.positionOf(seq);
        if (pos < 0) {
          return;
        }
        found[pos] = (found[pos] as number) + 1;
        sums[pos] = (sums[pos] as number) + weight.score(tf, fx.length(seq));
      });
    });
    const out = new MatchesBuilder(Math.min(size, most));
    for (let pos = 0; pos < size; pos++) {
      if ((found[pos] as number) >= needed) {
        out.push(pos, Math.fround(sums[pos] as number));
      }
    }
    return out.build();
  };
  return withMatches(run, matches);
}

/**
 * Phrases: an exact phrase is counted from the index's token positions (values sit one
 * position apart, so no occurrence spans two). A phrase-prefix's last word may be any term
 * with that prefix, which positions by term cannot answer: the index only rules documents
 * out and `fromSource` scores the rest.
 */
export function indexedPhrase(
  fx: TextFieldIndex,
  terms: string[],
  prefix: boolean,
  weight: () => Bm25,
  fromSource: Scorer
): Scorer {
  const whole = prefix ? terms.slice(0, -1) : terms;
  const exactScore = (seq: number): number => {
    const tf = phraseFrequency(fx, terms, seq);
    return tf > 0 ? weight().score(tf, fx.length(seq)) : NO_MATCH;
  };
  const run = (view: DocView): number => {
    const seq = indexedSeq(view);
    if (seq === undefined) {
      return fromSource(view);
    }
    if (whole.some(t => fx.tf(t, seq) === 0)) {
      return NO_MATCH;
    }
    return prefix ? fromSource(view) : exactScore(seq);
  };
  const matches = (snapshot: IndexedView): DocMatches => {
    if (!prefix) {
      return exactPhraseMatches(snapshot, fx, terms, weight());
    }
    const seqs =
      whole.length > 0
        ? seqsWithAll(fx, whole)
        : seqsWithPrefix(fx, terms[terms.length - 1] as string);
    const out = new MatchesBuilder(seqs.length);
    for (const seq of seqs) {
      const pos = snapshot.positionOf(seq);
      if (pos >= 0) {
        out.push(pos, fromSource(snapshot.viewAt(pos)));
      }
    }
    return out.build();
  };
  return withMatches(run, matches);
}

/** Every document holding the exact phrase: one forward walk over each term's postings. */
function exactPhraseMatches(
  snapshot: IndexedView,
  fx: TextFieldIndex,
  terms: string[],
  weight: Bm25
): DocMatches {
  const rarest = [...terms].sort(
    (a, b) => fx.documentFrequency(a) - fx.documentFrequency(b)
  )[0] as string;
  const cursors = terms.map(t => fx.cursor(t));
  const out = new MatchesBuilder(
    Math.min(snapshot.docs.length, fx.documentFrequency(rarest))
  );
  fx.forEach(rarest, seq => {
    const pos = snapshot.positionOf(seq);
    if (pos < 0) {
      return;
    }
    for (const c of cursors) {
      if (!c.seek(seq)) {
        return;
      }
    }
    const tf = countPhrase(cursors.map(c => c.positions()));
    if (tf > 0) {
      out.push(pos, weight.score(tf, fx.length(seq)));
    }
  });
  return out.build();
}

/** Occurrences of the phrase in document `seq`: starts p with term j at p + j for every j. */
function phraseFrequency(
  fx: TextFieldIndex,
  terms: string[],
  seq: number
): number {
  return countPhrase(terms.map(t => fx.positions(t, seq)));
}

/** Given each phrase word's positions in one document, the starts p with word j at p + j for every j. */
function countPhrase(lists: ArrayLike<number>[]): number {
  const first = lists[0] as ArrayLike<number>;
  let tf = 0;
  for (let i = 0; i < first.length; i++) {
    const start = first[i] as number;
    let found = true;
    for (let j = 1; j < lists.length && found; j++) {
      found = holds(lists[j] as ArrayLike<number>, start + j);
    }
    if (found) {
      tf++;
    }
  }
  return tf;
}

function holds(sorted: ArrayLike<number>, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === value) {
      return true;
    }
    if (v < value) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return false;
}

/** Ascending sequence numbers of the documents holding every term. */
function seqsWithAll(fx: TextFieldIndex, terms: string[]): number[] {
  const byRarity = [...new Set(terms)].sort(
    (a, b) => fx.documentFrequency(a) - fx.documentFrequency(b)
  );
  const [rarest, ...others] = byRarity as [string, ...string[]];
  const out: number[] = [];
  fx.forEach(rarest, seq => {
    if (others.every(t => fx.tf(t, seq) > 0)) {
      out.push(seq);
    }
  });
  return out;
}

/** Ascending, distinct sequence numbers of the documents holding a term that starts with `prefix`. */
function seqsWithPrefix(fx: TextFieldIndex, prefix: string): Int32Array {
  const all: number[] = [];
  for (const term of fx.termsWithPrefix(prefix)) {
    fx.forEach(term, seq => all.push(seq));
  }
  const sorted = Int32Array.from(all).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) {
      sorted[n++] = sorted[i] as number;
    }
  }
  return sorted.subarray(0, n);
}
