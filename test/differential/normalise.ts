/**
 * The normalisation applied to both engines' answers before they are compared. Only what an
 * engine invents per run or per machine is taken out; everything a user reads stays.
 *
 * - `took` (milliseconds spent) is removed wherever it appears.
 * - Identities and sizes the engine makes up are replaced by "<varies>": index and cluster
 *   uuids (`uuid`, `index_uuid`, `cluster_uuid`), `creation_date`, `_scroll_id`, `pit_id`,
 *   the node that served a failed shard (`node`), and the byte sizes in `_cat/indices`
 *   (`store.size`, `pri.store.size`, `dataset.size`), which depend on Lucene's segment files.
 * - Keys an entry lists under `# mask:` get the same treatment (ids the engine generates, such
 *   as a point in time's `id`).
 * - Inside texts: the search context number in "No search context found for id [N]" (a node-wide
 *   counter of every search run so far; on 9.x "[node id][N] searcherId [...]") and the uuid in "index [name/uuid] already exists".
 * - Integer literals of 16 digits or more are read as text ("<long>N", in replay.ts), so that
 *   64-bit values (ids, sort values such as Long.MAX_VALUE) must match digit for digit.
 * - Numbers are not rounded here: `compare.ts` accepts a relative difference below 1e-5,
 *   because scores and averages are float32 sums whose last bits depend on addition order.
 * - Object keys are compared regardless of their order; array order counts.
 */
export type Json =
  null | boolean | number | string | Json[] | { [key: string]: Json };

const VARIES = new Set([
  'uuid',
  'index_uuid',
  'cluster_uuid',
  'creation_date',
  '_scroll_id',
  'pit_id',
  'node',
  'store.size',
  'pri.store.size',
  'dataset.size'
]);

const IN_TEXT: [RegExp, string][] = [
  // 9.x names the context as [node id][N] searcherId [...].
  [
    /No search context found for id \[(?:\d+|\[[\w-]+\]\[\d+\] searcherId \[[^\]]*\])\]/g,
    'No search context found for id [<n>]'
  ],
  [/(index \[[^/\]]+\/)[A-Za-z0-9_-]{22}(\] already exists)/g, '$1<uuid>$2']
];

export function normalise(value: Json, mask: readonly string[] = []): Json {
  if (typeof value === 'string') {
    return IN_TEXT.reduce((text, [re, by]) => text.replace(re, by), value);
  }
  if (Array.isArray(value)) {
    return value.map(v => normalise(v, mask));
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const out: { [key: string]: Json } = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'took') {
      continue;
    }
    out[key] =
      VARIES.has(key) || mask.includes(key) ? '<varies>' : normalise(v, mask);
  }
  return out;
}

/** `_cat` text tables: the columns are aligned to the widest cell, so sizes change spacing; compare cells. */
export function normaliseTable(text: string): Json {
  return text
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => l.trim().split(/\s+/));
}
