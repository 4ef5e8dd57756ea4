/**
 * OpenSearch's endpoints for completion and inspection. OpenSearch publishes its API
 * specification (https://github.com/opensearch-project/opensearch-api-specification) as a
 * release file, not as an npm package, so its own endpoints are listed here by hand from its
 * documentation, each with the page that describes it. The REST API it shares with
 * Elasticsearch 7.10 comes from Elastic's catalog as a 7.10 node serves it, less what Elastic
 * added under its own licence or after the fork (OpenSearch answers those "no handler found").
 */
import type { EndpointInfo } from '../../driver-core/driver';
import type { CatalogEntry } from './endpoint-catalog';
import { servedEndpoints } from './served-endpoints';

/** The Elasticsearch release OpenSearch forked from. */
const FORKED_FROM = '7.10.2';

const DOCS = 'https://docs.opensearch.org/latest';

/** Path segments of Elasticsearch endpoints OpenSearch does not serve (X-Pack, and APIs added after 7.10). */
const NOT_IN_OPENSEARCH = new Set([
  '_application',
  '_async_search',
  '_autoscaling',
  '_ccr',
  '_connector',
  '_enrich',
  '_eql',
  '_esql',
  '_features',
  '_fleet',
  '_graph',
  '_health_report',
  '_ilm',
  '_inference',
  '_internal',
  '_knn_search',
  '_license',
  '_logstash',
  '_migration',
  '_ml',
  '_monitoring',
  '_pit',
  '_query',
  '_query_rules',
  '_rollup',
  '_searchable_snapshots',
  '_security',
  '_slm',
  '_sql',
  '_streams',
  '_synonyms',
  '_terms_enum',
  '_text_structure',
  '_transform',
  '_watcher',
  '_xpack'
]);

type Listed = [
  methods: EndpointInfo['methods'],
  path: string,
  description: string,
  page: string
];

const OWN: Listed[] = [
  [
    ['POST'],
    '/{index}/_search/point_in_time',
    'Create a point in time (keep_alive=1m) on one or more indices; search it with a "pit" object.',
    '/search-plugins/searching-data/point-in-time-api/'
  ],
  [
    ['GET'],
    '/_search/point_in_time/_all',
    'List every point in time open on the cluster.',
    '/search-plugins/searching-data/point-in-time-api/'
  ],
  [
    ['DELETE'],
    '/_search/point_in_time',
    'Delete points in time by id ({"pit_id": [...]}).',
    '/search-plugins/searching-data/point-in-time-api/'
  ],
  [
    ['DELETE'],
    '/_search/point_in_time/_all',
    'Delete every point in time open on the cluster.',
    '/search-plugins/searching-data/point-in-time-api/'
  ],
  [
    ['GET'],
    '/_cat/pit_segments',
    'Segments of points in time, as a table.',
    '/search-plugins/searching-data/point-in-time-api/'
  ],
  [
    ['GET'],
    '/_plugins/_security/authinfo',
    'The user the request authenticated as, with its roles and tenants.',
    '/security/access-control/api/'
  ],
  [
    ['GET', 'POST'],
    '/_plugins/_security/whoami',
    'Whether the request came with the admin certificate or a node certificate, and its DN.',
    '/api-reference/security-apis/'
  ],
  [
    ['GET'],
    '/_plugins/_security/health',
    'Whether the security plugin is up.',
    '/security/access-control/api/'
  ],
  [
    ['GET', 'PUT'],
    '/_plugins/_security/api/account',
    'Read the current user, or change its password.',
    '/security/access-control/api/#account'
  ],
  [
    ['GET'],
    '/_plugins/_security/api/internalusers',
    'List the users of the internal user database.',
    '/security/access-control/api/#users'
  ],
  [
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    '/_plugins/_security/api/internalusers/{username}',
    'Read, create, update or delete an internal user.',
    '/security/access-control/api/#users'
  ],
  [
    ['GET'],
    '/_plugins/_security/api/roles',
    'List the security roles.',
    '/security/access-control/api/#roles'
  ],
  [
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    '/_plugins/_security/api/roles/{role}',
    'Read, create, update or delete a security role.',
    '/security/access-control/api/#roles'
  ],
  [
    ['GET'],
    '/_plugins/_security/api/rolesmapping',
    'List which users and backend roles each role maps to.',
    '/security/access-control/api/#role-mappings'
  ],
  [
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    '/_plugins/_security/api/rolesmapping/{role}',
    'Read, create, update or delete which users and backend roles a role maps to.',
    '/security/access-control/api/#role-mappings'
  ],
  [
    ['GET'],
    '/_plugins/_ism/policies',
    'List Index State Management policies.',
    '/im-plugin/ism/api/#get-policy'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/_plugins/_ism/policies/{policy_id}',
    'Read, create or delete an Index State Management policy.',
    '/im-plugin/ism/api/#create-policy'
  ],
  [
    ['POST'],
    '/_plugins/_ism/add/{index}',
    'Attach an Index State Management policy to indices.',
    '/im-plugin/ism/api/#add-policy'
  ],
  [
    ['POST'],
    '/_plugins/_ism/remove/{index}',
    'Detach the Index State Management policy of indices.',
    '/im-plugin/ism/api/#remove-policy'
  ],
  [
    ['GET'],
    '/_plugins/_ism/explain/{index}',
    'Where each index is in its Index State Management policy.',
    '/im-plugin/ism/api/#explain-index'
  ],
  [
    ['POST'],
    '/_plugins/_alerting/monitors',
    'Create an alerting monitor.',
    '/observing-your-data/alerting/api/'
  ],
  [
    ['GET', 'POST'],
    '/_plugins/_alerting/monitors/_search',
    'Search alerting monitors.',
    '/observing-your-data/alerting/api/'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/_plugins/_alerting/monitors/{monitor_id}',
    'Read, update or delete an alerting monitor.',
    '/observing-your-data/alerting/api/'
  ],
  [
    ['GET'],
    '/_plugins/_alerting/monitors/alerts',
    'List alerts.',
    '/observing-your-data/alerting/api/'
  ],
  [
    ['POST'],
    '/_plugins/_anomaly_detection/detectors',
    'Create an anomaly detector.',
    '/observing-your-data/ad/api/'
  ],
  [
    ['GET', 'POST'],
    '/_plugins/_anomaly_detection/detectors/_search',
    'Search anomaly detectors.',
    '/observing-your-data/ad/api/'
  ],
  [
    ['GET'],
    '/_plugins/_knn/stats',
    'Statistics of the k-NN plugin.',
    '/vector-search/api/knn/'
  ],
  [
    ['GET'],
    '/_plugins/_knn/warmup/{index}',
    'Load the k-NN indices of indices into memory.',
    '/vector-search/api/knn/'
  ],
  [
    ['GET', 'POST'],
    '/_plugins/_ml/models/_search',
    'Search machine learning models.',
    '/ml-commons-plugin/api/model-apis/search-model/'
  ],
  [
    ['POST'],
    '/_plugins/_ml/models/_register',
    'Register a machine learning model.',
    '/ml-commons-plugin/api/model-apis/register-model/'
  ],
  [
    ['POST'],
    '/_plugins/_ml/models/{model_id}/_deploy',
    'Deploy a registered model.',
    '/ml-commons-plugin/api/model-apis/deploy-model/'
  ],
  [
    ['POST'],
    '/_plugins/_ml/models/{model_id}/_predict',
    'Run a deployed model.',
    '/ml-commons-plugin/api/train-predict/predict/'
  ],
  [
    ['POST'],
    '/_plugins/_ppl',
    'Run a Piped Processing Language query.',
    '/search-plugins/sql/sql-ppl-api/'
  ],
  [
    ['POST'],
    '/_plugins/_asynchronous_search',
    'Start a search that runs in the background.',
    '/search-plugins/async/index/'
  ],
  [
    ['GET', 'DELETE'],
    '/_plugins/_asynchronous_search/{id}',
    'Read or delete an asynchronous search.',
    '/search-plugins/async/index/'
  ],
  [
    ['GET', 'PUT'],
    '/_plugins/_query/settings',
    'Query settings of the SQL and PPL plugins.',
    '/search-plugins/sql/settings/'
  ],
  [
    ['POST'],
    '/_plugins/_rollup/jobs/{rollup_id}/_start',
    'Start an index rollup job.',
    '/im-plugin/index-rollups/rollup-api/'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/_plugins/_rollup/jobs/{rollup_id}',
    'Read, create or delete an index rollup job.',
    '/im-plugin/index-rollups/rollup-api/'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/_plugins/_transform/{transform_id}',
    'Read, create or delete an index transform job.',
    '/im-plugin/index-transforms/transforms-apis/'
  ],
  [
    ['GET'],
    '/_plugins/_notifications/configs',
    'List notification channels.',
    '/observing-your-data/notifications/api/'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/_search/pipeline/{id}',
    'Read, create or delete a search pipeline.',
    '/search-plugins/search-pipelines/creating-search-pipeline/'
  ],
  [
    ['GET'],
    '/_search/pipeline',
    'List search pipelines.',
    '/search-plugins/search-pipelines/retrieving-search-pipeline/'
  ]
];

/** OpenSearch's catalog: its own endpoints, then the shared ones of Elastic's catalog it serves. */
export function openSearchEndpoints(
  catalog: readonly CatalogEntry[]
): EndpointInfo[] {
  const own = OWN.map(([methods, path, description, page]) => ({
    methods,
    path,
    description,
    docUrl: `${DOCS}${page}`
  }));
  const shared = servedEndpoints(catalog, { version: FORKED_FROM });
  const served = shared.filter(
    endpoint =>
      !endpoint.path.split('/').some(segment => NOT_IN_OPENSEARCH.has(segment))
  );
  return [...own, ...served];
}
