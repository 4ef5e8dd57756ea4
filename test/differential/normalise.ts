/**
 * The normalisation applied to both engines' answers before they are compared. Only what an
 * engine invents per run or per machine is taken out; everything a user reads stays.
 *
 * - `took` (milliseconds spent) is removed wherever it appears.
 * - Identities and sizes the engine makes up are replaced by "<varies>": index and cluster
 *   uuids (`uuid`, `index_uuid`, `cluster_uuid`), `creation_date`, `_scroll_id`, `pit_id`,
 *   the node that served a failed shard (`node`), and the byte sizes in `_cat/indices`
 *   (`store.size`, `pri.store.size`, `dataset.size`), which depend on Lucene's segment files.
 * - Keys an entry lists under `# mask:` get the same treatment (ids the engine generates).
 * - Numbers are not rounded here: `compare.ts` accepts a relative difference below 1e-5,
 *   because scores and averages are float32 sums whose last bits depend on addition order.
 * - Object keys are compared regardless of their order; array order counts.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const VARIES = new Set(['uuid', 'index_uuid', 'cluster_uuid', 'creation_date', '_scroll_id', 'pit_id', 'node', 'store.size', 'pri.store.size', 'dataset.size']);

export function normalise(value: Json, mask: readonly string[] = []): Json {
  if (Array.isArray(value)) return value.map((v) => normalise(v, mask));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'took') continue;
    out[key] = VARIES.has(key) || mask.includes(key) ? '<varies>' : normalise(v, mask);
  }
  return out;
}

/** `_cat` text tables: the columns are aligned to the widest cell, so sizes change spacing; compare cells. */
export function normaliseTable(text: string): Json {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));
}
