import type { JsonValue } from '../../console/cell';
import { asObject } from '../document-columns';

type FacetTable = { name: string; kind: 'facet'; rows: Record<string, JsonValue>[] };

/**
 * A search's `facet_counts` as one table per faceted field, shaped like Elasticsearch terms
 * buckets (`key`, `doc_count`) so both engines' facets read, chart and copy the same way.
 * Numeric facets also give their stats (min, max, avg, sum) as one more table.
 */
export function facetTables(facetCounts: JsonValue | undefined): FacetTable[] {
  if (!Array.isArray(facetCounts)) return [];
  const tables: FacetTable[] = [];
  for (const facet of facetCounts) {
    const entry = asObject(facet);
    const field = entry?.field_name;
    if (!entry || typeof field !== 'string' || !Array.isArray(entry.counts)) continue;
    const rows = entry.counts.flatMap((count): Record<string, JsonValue>[] => {
      const c = asObject(count);
      return c && typeof c.count === 'number' ? [{ key: c.value ?? null, doc_count: c.count }] : [];
    });
    tables.push({ name: field, kind: 'facet', rows });
    const stats = asObject(entry.stats);
    const numeric = stats && ['min', 'max', 'avg', 'sum'].filter((k) => typeof stats[k] === 'number');
    if (stats && numeric && numeric.length > 0) {
      tables.push({ name: `${field} stats`, kind: 'facet', rows: [Object.fromEntries(numeric.map((k) => [k, stats[k] as JsonValue]))] });
    }
  }
  return tables;
}
