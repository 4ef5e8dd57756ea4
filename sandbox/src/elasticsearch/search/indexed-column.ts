/**
 * Filters (range, term) on a numeric, date or boolean field read from its doc-values
 * column in the snapshot being searched. Each wraps the _source-reading scorer
 * (`fromSource`), which still decides for nested views and documents with several values.
 */
import type { IndexedView } from './field-indexes';
import { NO_VALUE, SEVERAL_VALUES, type NumericColumn } from './numeric-column';
import {
  MatchesBuilder,
  NO_MATCH,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import type { DocView } from './values';

export function columnFilter(
  column: NumericColumn,
  accepts: (value: number) => boolean,
  score: number,
  fromSource: Scorer,
  /** How many of a snapshot's documents match, when sorted doc values tell. */
  countAll?: (snapshot: IndexedView) => number | undefined
): Scorer {
  const run = (view: DocView): number => {
    if (view.seq === undefined || view.nestedPath !== undefined) {
      return fromSource(view);
    }
    const value = column.valueOf(view.seq);
    if (value === NO_VALUE) {
      return NO_MATCH;
    }
    if (value === SEVERAL_VALUES) {
      return fromSource(view);
    }
    return accepts(value) ? score : NO_MATCH;
  };
  const matches = (snapshot: IndexedView): DocMatches => {
    const seqs = snapshot.seqs();
    // Two passes, so that the output is allocated once at its size: a filter can match millions.
    let most = 0;
    for (let pos = 0; pos < seqs.length; pos++) {
      const value = column.valueOf(seqs[pos] as number);
      if (value === SEVERAL_VALUES || (value !== NO_VALUE && accepts(value))) {
        most++;
      }
    }
    const out = new MatchesBuilder(most);
    for (let pos = 0; pos < seqs.length; pos++) {
      const value = column.valueOf(seqs[pos] as number);
      if (value === NO_VALUE) {
        continue;
      }
      if (value === SEVERAL_VALUES) {
        out.push(pos, fromSource(snapshot.viewAt(pos)));
      } else if (accepts(value)) {
        out.push(pos, score);
      }
    }
    return out.build();
  };
  const scorer = withMatches(run, matches);
  scorer.count = (snapshot, among) => {
    if (among === undefined) {
      return countAll?.(snapshot);
    }
    const seqs = snapshot.seqs();
    let n = 0;
    for (let i = 0; i < among.length; i++) {
      const pos = among[i] as number;
      const value = column.valueOf(seqs[pos] as number);
      if (
        value === SEVERAL_VALUES
          ? fromSource(snapshot.viewAt(pos)) !== NO_MATCH
          : value !== NO_VALUE && accepts(value)
      ) {
        n++;
      }
    }
    return n;
  };
  return scorer;
}
