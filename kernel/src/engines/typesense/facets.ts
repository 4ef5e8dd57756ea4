import type { JsonValue } from '../../console/cell';
import type { AggregationResult } from '../../driver-core/driver';
import { asObject } from '../../driver-core/document-columns';
import { isExactNumber } from '../../../../contracts/exact-json';

type FacetTable = AggregationResult & { kind: 'facet' };

/** The parts of a facet entry the tables show; any other is named as left to Raw JSON. */
const SHOWN = new Set(['field_name', 'counts', 'stats', 'sampled']);
const NUMERIC_STATS = ['min', 'max', 'avg', 'sum'];

/**
 * A search's `facet_counts` as one table per faceted field, shaped like Elasticsearch terms
 * buckets (`key`, `doc_count`) so both engines' facets read, chart and copy the same way.
 * Numeric facets also give their stats (min, max, avg, sum) as one more table; the number of
 * distinct values (`total_values`) and whether the counts come from a sample (`sampled`) are
 * said under the table. https://typesense.org/docs/latest/api/search.html#facet-results
 */
export function facetTables(facetCounts: JsonValue | undefined): FacetTable[] {
  if (!Array.isArray(facetCounts)) {
    return [];
  }
  const tables: FacetTable[] = [];
  for (const facet of facetCounts) {
    const entry = asObject(facet);
    const field = entry?.field_name;
    if (!entry || typeof field !== 'string' || !Array.isArray(entry.counts)) {
      continue;
    }
    const notShown = new Set(Object.keys(entry).filter(k => !SHOWN.has(k)));
    const rows = entry.counts.flatMap((count): Record<string, JsonValue>[] => {
      const c = asObject(count);
      if (!c || typeof c.count !== 'number') {
        notShown.add('counts[]');
        return [];
      }
      const row: Record<string, JsonValue> = Object.create(null) as Record<
        string,
        JsonValue
      >;
      row.key = c.value ?? null;
      row.doc_count = c.count;
      for (const [k, v] of Object.entries(c)) {
        // `highlighted` repeats the value unless the query marked part of it.
        if (
          k === 'value' ||
          k === 'count' ||
          (k === 'highlighted' && v === c.value)
        ) {
          continue;
        }
        row[k] = v;
      }
      return [row];
    });
    const stats = asObject(entry.stats);
    const notes: string[] = [];
    if (typeof stats?.total_values === 'number') {
      notes.push(
        `${stats.total_values.toLocaleString('en-US')} distinct values in the results (total_values)`
      );
    }
    if (typeof entry.sampled === 'boolean') {
      notes.push(
        entry.sampled
          ? 'sampled: true (the counts are estimated from a sample of the hits)'
          : 'sampled: false (the counts are exact)'
      );
    }
    for (const k of Object.keys(stats ?? {})) {
      if (k !== 'total_values' && !NUMERIC_STATS.includes(k)) {
        notShown.add(`stats.${k}`);
      }
    }
    tables.push({
      name: field,
      kind: 'facet',
      rows,
      keyColumns: ['key'],
      ...(notes.length > 0 ? { notes } : {}),
      ...(notShown.size > 0 ? { notShown: [...notShown] } : {})
    });
    // A stat past a double's precision was read as an ExactNumber: shown with its digits, not dropped.
    const numeric =
      stats &&
      NUMERIC_STATS.filter(
        k => typeof stats[k] === 'number' || isExactNumber(stats[k])
      );
    if (stats && numeric && numeric.length > 0) {
      tables.push({
        name: `${field} stats`,
        kind: 'facet',
        rows: [Object.fromEntries(numeric.map(k => [k, stats[k] as JsonValue]))]
      });
    }
  }
  return tables;
}
