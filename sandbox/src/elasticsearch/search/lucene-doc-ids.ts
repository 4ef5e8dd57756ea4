/**
 * Lucene document ids of a snapshot's documents, which `_doc` / `_shard_doc` sort values
 * show: every nested object is a Lucene document of its own, stored just before its parent,
 * so a parent's id is its position plus the nested objects of it and of every document
 * before it. Without nested fields the id is the position.
 */
import type { IndexData } from '../index-data';
import type { StoredDoc } from '../stored-doc';
import { isObject } from '../json-value';
import { pathValues } from './values';

export interface DocIds {
  idOf(pos: number): number;
  /** The last position whose id is at most `id` (-1 before the first): where a search_after on ids resumes. */
  posAtOrBefore(id: number): number;
}

const IDENTITY: DocIds = {
  idOf: pos => pos,
  posAtOrBefore: id => Math.floor(id)
};
const cache = new WeakMap<StoredDoc[], DocIds>();

export function luceneDocIds(index: IndexData, docs: StoredDoc[]): DocIds {
  const paths = index.mapping.nestedPaths();
  if (paths.length === 0) {
    return IDENTITY;
  }
  let ids = cache.get(docs);
  if (ids) {
    return ids;
  }
  const table = new Float64Array(docs.length);
  let nested = 0;
  docs.forEach((d, pos) => {
    for (const p of paths) {
      nested += pathValues(d.source, p.split('.')).filter(isObject).length;
    }
    table[pos] = pos + nested;
  });
  ids = {
    idOf: pos => table[pos] ?? pos,
    posAtOrBefore: id => {
      let lo = 0;
      let hi = table.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if ((table[mid] as number) <= id) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return found;
    }
  };
  cache.set(docs, ids);
  return ids;
}
