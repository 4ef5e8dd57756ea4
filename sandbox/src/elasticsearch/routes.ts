/** The route table: every endpoint the stand-in answers, in ES's path shapes. */
import {
  createIndex,
  deleteIndex,
  getIndex,
  getMapping,
  getSettings,
  indexExists,
  putMapping,
  putSettings,
  refresh
} from './indices';
import { deleteAlias, getAliases, putAlias, updateAliases } from './aliases';
import { bulk } from './bulk';
import { catAliases, catCount, catIndices } from './cat';
import { deleteByQuery } from './delete-by-query';
import {
  getDoc,
  getSource,
  mget,
  putDoc,
  removeDoc,
  update
} from './documents';
import { closePit, openPit } from './pit';
import { indexStats } from './index-stats';
import { nodesStats } from './nodes-stats';
import { clusterHealth, rootInfo } from './root';
import { Router, typedIndexRoute } from './router';
import { clearScroll, count, msearch, scroll, search } from './search/handlers';
import { authenticateInfo, createApiKey, invalidateApiKey } from './security';
import { getTask, listTasks } from './tasks';

const GET_POST = ['GET', 'POST'];

export function buildRouter(): Router {
  const r = new Router();
  r.add(['GET', 'HEAD'], '/', rootInfo);
  r.add(['GET'], '/_cluster/health', clusterHealth);
  r.add(['GET'], '/_cluster/health/{index}', clusterHealth);
  r.add(['GET'], '/_nodes/stats', nodesStats);
  r.add(['GET'], '/_nodes/stats/{metric}', nodesStats);

  r.add(['POST', 'PUT'], '/_security/api_key', createApiKey);
  r.add(['DELETE'], '/_security/api_key', invalidateApiKey);
  r.add(['GET'], '/_security/_authenticate', authenticateInfo);

  r.add(GET_POST, '/_search', search);
  r.add(GET_POST, '/{index}/_search', search);
  r.add(GET_POST, '/_msearch', msearch);
  r.add(GET_POST, '/{index}/_msearch', msearch);
  r.add(GET_POST, '/_count', count);
  r.add(GET_POST, '/{index}/_count', count);
  r.add(GET_POST, '/_search/scroll', scroll);
  r.add(GET_POST, '/_search/scroll/{scroll_id}', scroll);
  r.add(['DELETE'], '/_search/scroll', clearScroll);
  r.add(['DELETE'], '/_search/scroll/{scroll_id}', clearScroll);
  r.add(['POST'], '/{index}/_pit', openPit);
  r.add(['DELETE'], '/_pit', closePit);
  r.add(['POST'], '/{index}/_delete_by_query', deleteByQuery);
  r.add(['GET'], '/_tasks', listTasks);
  r.add(['GET'], '/_tasks/{task_id}', getTask);

  r.add(['POST', 'PUT'], '/_bulk', bulk);
  r.add(['POST', 'PUT'], '/{index}/_bulk', bulk);
  r.add(GET_POST, '/_mget', mget);
  r.add(GET_POST, '/{index}/_mget', mget);

  r.add(['PUT', 'POST'], '/{index}/_doc/{id}', putDoc);
  r.add(['GET', 'HEAD'], '/{index}/_doc/{id}', getDoc);
  r.add(['DELETE'], '/{index}/_doc/{id}', removeDoc);
  r.add(['POST'], '/{index}/_doc', putDoc);
  // The typed-index route of 7.x (kept for REST compatibility in 8.x): it makes other methods on /{index}/{x} a 405.
  r.add(['POST'], '/{index}/{type}', typedIndexRoute);
  r.add(['PUT', 'POST'], '/{index}/_create/{id}', putDoc);
  r.add(['POST'], '/{index}/_update/{id}', update);
  r.add(['GET', 'HEAD'], '/{index}/_source/{id}', getSource);

  r.add(['PUT'], '/{index}', createIndex);
  r.add(['GET'], '/{index}', getIndex);
  r.add(['HEAD'], '/{index}', indexExists);
  r.add(['DELETE'], '/{index}', deleteIndex);
  r.add(['GET'], '/_mapping', getMapping);
  r.add(['GET'], '/{index}/_mapping', getMapping);
  r.add(['PUT', 'POST'], '/{index}/_mapping', putMapping);
  r.add(['GET'], '/_settings', getSettings);
  r.add(['GET'], '/{index}/_settings', getSettings);
  r.add(['GET'], '/{index}/_settings/{name}', getSettings);
  r.add(['PUT'], '/_settings', putSettings);
  r.add(['PUT'], '/{index}/_settings', putSettings);
  r.add(['GET'], '/{index}/_stats', indexStats);
  r.add(['GET'], '/{index}/_stats/{metric}', indexStats);
  r.add(GET_POST, '/_refresh', refresh);
  r.add(GET_POST, '/{index}/_refresh', refresh);

  r.add(['POST'], '/_aliases', updateAliases);
  r.add(['GET'], '/_alias', getAliases);
  r.add(['GET'], '/_alias/{name}', getAliases);
  r.add(['GET'], '/_aliases', getAliases);
  r.add(['GET'], '/{index}/_alias', getAliases);
  r.add(['GET'], '/{index}/_alias/{name}', getAliases);
  r.add(['PUT', 'POST'], '/{index}/_alias/{name}', putAlias);
  r.add(['PUT', 'POST'], '/{index}/_aliases/{name}', putAlias);
  r.add(['DELETE'], '/{index}/_alias/{name}', deleteAlias);
  r.add(['DELETE'], '/{index}/_aliases/{name}', deleteAlias);

  r.add(['GET'], '/_cat/indices', catIndices);
  r.add(['GET'], '/_cat/indices/{index}', catIndices);
  r.add(['GET'], '/_cat/aliases', catAliases);
  r.add(['GET'], '/_cat/aliases/{name}', catAliases);
  r.add(['GET'], '/_cat/count', catCount);
  r.add(['GET'], '/_cat/count/{index}', catCount);
  return r;
}
