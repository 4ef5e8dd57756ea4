/**
 * Sliced searches (`"slice": {"id": i, "max": n}`), as a point-in-time export reads them in
 * parallel: without a field, each shard's documents are split into n contiguous ranges by
 * document order, as Elasticsearch splits doc ids; every document is in exactly one slice.
 */
import { illegalArgument, parsingError } from '../errors';
import { isObject, type Json } from '../json-value';
import type { Shard } from '../index-data';
import type { StoredDoc } from '../stored-doc';

export interface Slice {
  id: number;
  max: number;
}

export function parseSlice(value: Json): Slice {
  if (!isObject(value)) {
    throw parsingError('[slice] failed to parse field, expected an object');
  }
  const { id, max, field } = value;
  if (
    typeof id !== 'number' ||
    !Number.isInteger(id) ||
    typeof max !== 'number' ||
    !Number.isInteger(max)
  ) {
    throw parsingError(
      '[slice] failed to parse: [id] and [max] must be integers'
    );
  }
  if (field !== undefined) {
    throw illegalArgument(
      'the searchbook sandbox slices by document order only; leave [field] out of [slice]'
    );
  }
  if (max <= 1) {
    throw illegalArgument('max must be greater than 1');
  }
  if (id < 0) {
    throw illegalArgument('id must be greater than or equal to 0');
  }
  if (id >= max) {
    throw illegalArgument('max must be greater than id');
  }
  return { id, max };
}

/** A point in time's snapshot keeps its array, so each slice of it is cut once, not per page. */
const cut = new WeakMap<StoredDoc[], Map<string, StoredDoc[]>>();

export function sliceShards(shards: Shard[], slice: Slice): Shard[] {
  return shards.map(shard => {
    let slices = cut.get(shard.docs);
    if (!slices) {
      cut.set(shard.docs, (slices = new Map()));
    }
    const key = `${slice.id}/${slice.max}`;
    let docs = slices.get(key);
    if (!docs) {
      const n = shard.docs.length;
      docs = shard.docs.slice(
        Math.floor((n * slice.id) / slice.max),
        Math.floor((n * (slice.id + 1)) / slice.max)
      );
      slices.set(key, docs);
    }
    return { index: shard.index, docs };
  });
}
