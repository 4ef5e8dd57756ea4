/**
 * What Elasticsearch 9.x removed that a cell shows before it is sent: the kNN search endpoint
 * (a `knn` section of `_search` replaces it) and `local` on the alias reads. A 9.x node answers
 * them 400 ("no handler found", "unrecognized parameter: [local]"); the refusal says what to
 * write instead.
 */
import type { ConsoleRequest } from '../../console/cell';
import { Refusal } from '../../console/refusal';

const ALIAS_READ =
  /^\/(?:[^/]+\/)?(?:_alias|_aliases)(?:\/[^/]+)?$|^\/_cat\/aliases(?:\/[^/]+)?$/;

export function removedInNine(request: ConsoleRequest): Refusal | undefined {
  const where = { where: { kind: 'cell' as const, line: request.line } };
  const segments = request.path.split('/').filter(Boolean);
  if (segments[segments.length - 1] === '_knn_search') {
    const index = segments.length > 1 ? segments[0] : '<index>';
    return new Refusal(
      'RemovedEndpointRefused',
      'Elasticsearch 9.x removed the _knn_search endpoint.',
      {
        hint: `Write the kNN search as a knn section of a search: POST /${index}/_search with {"knn": {"field": ..., "query_vector": [...], "k": 10, "num_candidates": 100}} (https://www.elastic.co/docs/solutions/search/vector/knn).`,
        ...where
      }
    );
  }
  const local = request.query
    .split('&')
    .some(part => part === 'local' || part.startsWith('local='));
  if (
    local &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    ALIAS_READ.test(request.path)
  ) {
    return new Refusal(
      'QueryStringRefused',
      'Elasticsearch 9.x removed the local parameter of the alias APIs.',
      {
        hint: 'Leave local out of the query string: the aliases are read from the cluster state as they are.',
        ...where
      }
    );
  }
  return undefined;
}
