/**
 * An `_msearch` answer read as the searches it ran. Each answer is paired with the request its
 * two NDJSON lines stand for (`POST /<index>/_search` with the search line as body), so each
 * search gets what the same search run alone gets: its index's mapping for columns, its
 * `_source` filter, its notices.
 */
import type { ConsoleRequest, JsonValue } from '../../console/cell';
import type { EngineResponse } from '../../driver-core/capabilities/console';
import { asObject } from '../../driver-core/document-columns';

export interface MsearchSearch {
  /** The index, list or pattern the search ran on, as the cell wrote it ('' when none is named). */
  target: string;
  /** The search as if it had been sent alone. */
  request: ConsoleRequest;
  /** Its own answer, with its own status. */
  response: EngineResponse;
}

/** The searches of an `_msearch` answer of two or more; undefined for any other answer. */
export function msearchSearches(
  request: ConsoleRequest,
  response: EngineResponse
): MsearchSearch[] | undefined {
  const responses =
    response.body.kind === 'json'
      ? asObject(response.body.value)?.responses
      : undefined;
  if (
    response.status >= 300 ||
    !Array.isArray(responses) ||
    responses.length < 2 ||
    !request.path.endsWith('/_msearch')
  ) {
    return undefined;
  }
  const first = request.path.split('/').filter(Boolean)[0] ?? '';
  const pathSegment = first.startsWith('_') ? '' : first;
  // The NDJSON body alternates header and search lines; a header may name its own index.
  const lines = request.body?.kind === 'ndjson' ? request.body.values : [];
  // The whole answer's notice (how its body was read) is shown once, under all of them.
  const { notice: _whole, ...shared } = response;
  return responses.map((answer, i) => {
    const names = headerIndices(lines[i * 2]);
    const segment = names
      ? names.map(name => encodeURIComponent(name)).join(',')
      : pathSegment;
    const search = lines[i * 2 + 1];
    const status = asObject(answer)?.status;
    return {
      target: names ? names.join(',') : decoded(pathSegment),
      request: {
        kind: 'request',
        method: 'POST',
        path: segment ? `/${segment}/_search` : '/_search',
        query: '',
        ...(search === undefined
          ? {}
          : { body: { kind: 'json', value: search } }),
        line: request.line
      },
      response: {
        ...shared,
        status: typeof status === 'number' ? status : response.status,
        body: { kind: 'json', value: answer }
      }
    };
  });
}

/** The indices a header line names (`"index": "a,b"` or `["a", "b"]`); undefined when it names none. */
function headerIndices(header: JsonValue | undefined): string[] | undefined {
  const index = asObject(header)?.index;
  if (typeof index === 'string' && index !== '') {
    return index.split(',');
  }
  if (Array.isArray(index)) {
    const names = index.filter(name => typeof name === 'string');
    return names.length > 0 ? names : undefined;
  }
  return undefined;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
