/**
 * What a Typesense request means for the schema cache: which collection's documents an answer
 * holds, which cached schemas a request makes stale, and whether it asked for some fields only.
 */
import type { ConsoleRequest } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';

function segments(path: string): string[] {
  return path.split('/').filter(s => s.length > 0);
}

function queryParam(query: string, name: string): string | undefined {
  return new URLSearchParams(query).get(name) ?? undefined;
}

/** The single search of a multi_search body (the only kind that renders as a grid). */
function singleSearch(
  request: ConsoleRequest
): Record<string, unknown> | undefined {
  const searches = asObject(
    request.body?.kind === 'json' ? request.body.value : undefined
  )?.searches;
  return Array.isArray(searches) && searches.length === 1
    ? asObject(searches[0])
    : undefined;
}

/** A multi_search of several searches as one single-search request per search (empty for anything else). */
export function eachSearch(request: ConsoleRequest): ConsoleRequest[] {
  const searches = asObject(
    request.body?.kind === 'json' ? request.body.value : undefined
  )?.searches;
  if (
    segments(request.path)[0] !== 'multi_search' ||
    !Array.isArray(searches) ||
    searches.length < 2
  ) {
    return [];
  }
  return searches.map(search => ({
    ...request,
    body: { kind: 'json', value: { searches: [search] } }
  }));
}

export type DocumentsEndpoint = {
  kind: 'search' | 'export';
  collection: string;
};

/** Search, export and one-search multi_search answers hold a collection's documents. */
export function documentsEndpoint(
  request: ConsoleRequest
): DocumentsEndpoint | undefined {
  const [first, name, third, fourth] = segments(request.path);
  if (
    first === 'collections' &&
    name &&
    third === 'documents' &&
    (fourth === 'search' || fourth === 'export')
  ) {
    return { kind: fourth, collection: name };
  }
  if (first === 'multi_search') {
    const collection =
      singleSearch(request)?.collection ??
      queryParam(request.query, 'collection');
    if (typeof collection === 'string' && collection) {
      return { kind: 'search', collection: encodeURIComponent(collection) };
    }
  }
  return undefined;
}

/** Which cached schemas a request may make stale, and whether the collection names changed. */
export type SchemaChange =
  | { kind: 'none' }
  | { kind: 'names'; names: string[]; listChanged: boolean }
  | { kind: 'all' };

export function schemaChange(request: ConsoleRequest): SchemaChange {
  if (request.method === 'GET' || request.method === 'HEAD') {
    return { kind: 'none' };
  }
  const [first, name, third] = segments(request.path);
  if (first === 'aliases') {
    return { kind: 'all' };
  }
  if (first !== 'collections') {
    return { kind: 'none' };
  }
  if (!name) {
    const created = asObject(
      request.body?.kind === 'json' ? request.body.value : undefined
    )?.name;
    return typeof created === 'string'
      ? {
          kind: 'names',
          names: [encodeURIComponent(created)],
          listChanged: true
        }
      : { kind: 'all' };
  }
  // PATCH changes the schema, DELETE drops the collection.
  if (third === undefined) {
    return {
      kind: 'names',
      names: [name],
      listChanged: request.method === 'DELETE'
    };
  }
  // Writes teach an auto-schema (".*") collection new fields; deleting documents changes no schema.
  if (third === 'documents' && request.method !== 'DELETE') {
    return { kind: 'names', names: [name], listChanged: false };
  }
  return { kind: 'none' };
}

/**
 * The request names the fields it wants (include_fields, exclude_fields), or a preset that may
 * name them: the grid then shows the fields the hits hold, not every schema field, so a field
 * left out reads as left out rather than as a column of empty cells.
 */
export function filtersFields(request: ConsoleRequest): boolean {
  const search = singleSearch(request);
  return ['include_fields', 'exclude_fields', 'preset'].some(
    p =>
      queryParam(request.query, p) !== undefined ||
      (search !== undefined && p in search)
  );
}
