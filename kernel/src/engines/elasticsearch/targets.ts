/**
 * What an Elasticsearch request means for the mapping cache: which target's mapping a search
 * answer needs, which cached mappings a write makes stale, and whether a search filtered `_source`.
 */
import type { ConsoleRequest } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import type { EngineResponse } from '../../driver-core/driver';

function segments(path: string): string[] {
  return path.split('/').filter(s => s.length > 0);
}

/**
 * The index, alias, pattern or list a search answer's mapping comes from: the path's first
 * segment, or, when the path names none (`/_search`, a point-in-time search), the indices the
 * hits came from.
 */
export function searchTarget(
  request: ConsoleRequest,
  response: EngineResponse
): string | undefined {
  // Only search answers render as grids; any other answer needs no mapping.
  const hits = asObject(
    asObject(response.body.kind === 'json' ? response.body.value : undefined)
      ?.hits
  )?.hits;
  if (response.status >= 300 || !Array.isArray(hits)) {
    return undefined;
  }
  const first = segments(request.path)[0];
  if (first && !first.startsWith('_')) {
    return first;
  }
  const indices = new Set<string>();
  for (const hit of hits) {
    const index = asObject(hit)?._index;
    if (typeof index === 'string') {
      indices.add(encodeURIComponent(index));
    }
  }
  return indices.size ? [...indices].sort().join(',') : undefined;
}

/** Cluster-level endpoints that change no mapping and create or drop no index or alias. */
const GLOBAL_READS = new Set([
  '_search',
  '_msearch',
  '_count',
  '_pit',
  '_mget',
  '_field_caps',
  '_validate',
  '_explain',
  '_security',
  '_cluster',
  '_nodes',
  '_cat',
  '_tasks',
  '_refresh',
  '_flush',
  '_forcemerge',
  '_cache',
  '_sql',
  '_query',
  '_async_search',
  '_render',
  '_rank_eval',
  '_search_shards',
  '_scripts',
  '_license',
  '_xpack',
  '_ingest',
  '_eql',
  '_terms_enum',
  '_stats'
]);
/** Index endpoints that change only that index's mapping (writes map new fields dynamically). */
const INDEX_WRITES = new Set([
  '_mapping',
  '_mappings',
  '_settings',
  '_doc',
  '_create',
  '_update',
  '_bulk',
  '_close',
  '_open',
  '_update_by_query'
]);
/** Index endpoints that change no mapping. */
const INDEX_READS = new Set([
  '_search',
  '_msearch',
  '_count',
  '_pit',
  '_mget',
  '_field_caps',
  '_validate',
  '_explain',
  '_refresh',
  '_flush',
  '_forcemerge',
  '_cache',
  '_delete_by_query',
  '_termvectors',
  '_mtermvectors',
  '_search_shards',
  '_rank_eval',
  '_async_search',
  '_knn_search',
  '_terms_enum',
  '_eql',
  '_stats',
  '_segments',
  '_recovery',
  '_source'
]);

/** Which cached mappings a request may make stale: none, those of some names, or all. */
export type MappingChange =
  { kind: 'none' } | { kind: 'names'; names: string[] } | { kind: 'all' };

export function mappingChange(request: ConsoleRequest): MappingChange {
  if (request.method === 'GET' || request.method === 'HEAD') {
    return { kind: 'none' };
  }
  const [first, second] = segments(request.path);
  if (!first) {
    return { kind: 'none' };
  }
  if (first.startsWith('_')) {
    return GLOBAL_READS.has(first) ? { kind: 'none' } : { kind: 'all' };
  }
  // `PUT /i` creates an index, `DELETE /i` drops it; `_mapping`, `_settings` and writes change it.
  if (second === undefined || INDEX_WRITES.has(second)) {
    return { kind: 'names', names: first.split(',') };
  }
  if (INDEX_READS.has(second)) {
    return { kind: 'none' };
  }
  // Aliases, rollover, clone, shrink, split and anything unknown: other names may now mean other indices.
  return { kind: 'all' };
}

/** A list or pattern may come to match an index created later, so any change drops it. */
export function isStale(
  change: Extract<MappingChange, { kind: 'names' }>,
  target: string,
  members: string[]
): boolean {
  if (/[*,]|^_all$/.test(target)) {
    return true;
  }
  return (
    change.names.includes(target) ||
    change.names.some(name => members.includes(decoded(name)))
  );
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const SOURCE_PARAMS =
  /(?:^|&)(?:_source(?:_includes|_excludes)?|filter_path|stored_fields)=([^&]*)/g;

/** The search names the fields it wants: mapped columns no hit holds are then left out. */
export function filtersFields(request: ConsoleRequest): boolean {
  for (const match of request.query.matchAll(SOURCE_PARAMS)) {
    if (match[1] !== 'true') {
      return true;
    }
  }
  const body =
    request.body?.kind === 'json' ? asObject(request.body.value) : undefined;
  if (!body) {
    return false;
  }
  return (
    ('_source' in body && body._source !== true) || 'stored_fields' in body
  );
}
