/**
 * Where a query finds a field's BM25 statistics: the token index of a top-level text field
 * (kept by refresh) read for the searched snapshot, or else one pass over the searched
 * documents; both remembered per snapshot. Both count the snapshot's live documents: a
 * one-shard index as Lucene sees it once its segments are merged.
 * Fields inside `nested` objects count their nested objects, which are documents of their
 * own in Lucene; keyword and boolean fields count distinct values (they keep no frequencies).
 */
import type { StoredDoc } from '../stored-doc';
import { isObject } from '../json-value';
import type { ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import type { FieldTerms } from './bm25';
import type { IndexedView } from './field-indexes';
import { docValues, pathValues, rawValues, type DocView } from './values';

/** Statistics plus the term dictionary, for the queries that expand terms (prefix phrases, fuzziness). */
export function isTextType(t: string): boolean {
  return t === 'text' || t === 'match_only_text' || t === 'search_as_you_type';
}

class ScannedStats implements FieldTerms {
  docCount = 0;
  sumTotalTermFreq = 0;
  readonly freq = new Map<string, number>();

  docFreq(term: string): number {
    return this.freq.get(term) ?? 0;
  }

  allTerms(): Iterable<string> {
    return this.freq.keys();
  }

  add(terms: string[], distinct: Set<string>): void {
    if (distinct.size === 0) {
      return;
    }
    this.docCount++;
    this.sumTotalTermFreq += terms.length;
    for (const t of distinct) {
      this.freq.set(t, (this.freq.get(t) ?? 0) + 1);
    }
  }
}

const scanned = new WeakMap<StoredDoc[], Map<string, ScannedStats>>();

/** The terms a field holds in one Lucene document (a whole document, or one nested object). */
function termsIn(view: DocView, field: ResolvedField): string[] {
  if (isTextType(field.type)) {
    return rawValues(view, field).flatMap(v => tokenize(asText(v)));
  }
  return [...new Set(docValues(view, field).map(String))];
}

function scan(docs: StoredDoc[], field: ResolvedField): ScannedStats {
  const stats = new ScannedStats();
  const nested = field.nestedPath;
  for (const doc of docs) {
    const views: DocView[] =
      nested === undefined
        ? [{ source: doc.source }]
        : pathValues(doc.source, nested.split('.'))
            .filter(isObject)
            .map(obj => ({
              source: doc.source,
              nestedPath: nested,
              nested: obj
            }));
    for (const view of views) {
      const terms = termsIn(view, field);
      stats.add(terms, new Set(terms));
    }
  }
  return stats;
}

export function fieldStats(
  field: ResolvedField,
  docs: StoredDoc[],
  indexed: IndexedView | undefined
): FieldTerms {
  const fromIndex = indexed?.textStats(field);
  if (fromIndex) {
    return fromIndex;
  }
  let byField = scanned.get(docs);
  if (!byField) {
    scanned.set(docs, (byField = new Map()));
  }
  let stats = byField.get(field.name);
  if (!stats) {
    byField.set(field.name, (stats = scan(docs, field)));
  }
  return stats;
}

/** A value computed on first use: statistics are only gathered when a score is really needed. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
