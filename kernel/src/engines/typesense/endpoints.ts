/**
 * Typesense endpoints for completion and inspection. Typesense publishes no machine-readable
 * spec in a package we ship, so this list is kept by hand from the API reference (v26 to v30).
 */
import type { HttpMethod } from '../../console/cell';
import type { EndpointInfo } from '../../driver-core/driver';

const DOCS = 'https://typesense.org/docs/latest/api';

type Row = [
  methods: HttpMethod[],
  path: string,
  description: string,
  page: string
];

const ROWS: Row[] = [
  [
    ['GET'],
    '/health',
    'Health of the node: {"ok": true} when it can serve requests.',
    'cluster-operations.html#health'
  ],
  [
    ['GET'],
    '/debug',
    'Version and state of the node.',
    'cluster-operations.html#debug'
  ],
  [
    ['GET'],
    '/metrics.json',
    'CPU, memory, disk and network use of the node.',
    'cluster-operations.html#cluster-metrics'
  ],
  [
    ['GET'],
    '/stats.json',
    'Request rates and latencies of the node.',
    'cluster-operations.html#api-stats'
  ],
  [
    ['POST'],
    '/operations/snapshot',
    'Write a snapshot of the data to snapshot_path (query parameter).',
    'cluster-operations.html#create-snapshot-for-backups'
  ],
  [
    ['POST'],
    '/operations/db/compact',
    'Compact the on-disk database (whole-database action).',
    'cluster-operations.html#compacting-the-on-disk-database'
  ],
  [
    ['POST'],
    '/operations/vote',
    'Make the node give up leadership and start an election.',
    'cluster-operations.html#re-elect-leader'
  ],
  [
    ['POST'],
    '/operations/cache/clear',
    'Clear the search cache.',
    'cluster-operations.html#clear-cache'
  ],
  [
    ['POST'],
    '/operations/reset_peers',
    'Reset the peer list from the nodes file (recovery from a lost quorum).',
    'cluster-operations.html'
  ],
  [
    ['GET'],
    '/config',
    'Dynamic configuration of the node.',
    'cluster-operations.html'
  ],
  [
    ['POST'],
    '/config',
    'Change dynamic configuration, for example log-slow-requests-time-ms.',
    'cluster-operations.html#toggle-slow-request-log'
  ],
  [
    ['GET'],
    '/collections',
    'List the collections with their schemas.',
    'collections.html#list-all-collections'
  ],
  [
    ['POST'],
    '/collections',
    'Create a collection from a schema (name, fields, default_sorting_field).',
    'collections.html#create-a-collection'
  ],
  [
    ['GET'],
    '/collections/{collection}',
    'Retrieve one collection with its schema and document count.',
    'collections.html#retrieve-a-collection'
  ],
  [
    ['PATCH'],
    '/collections/{collection}',
    'Update the schema: add or drop fields.',
    'collections.html#update-or-alter-a-collection'
  ],
  [
    ['DELETE'],
    '/collections/{collection}',
    'Drop a collection and all its documents.',
    'collections.html#drop-a-collection'
  ],
  [
    ['POST'],
    '/collections/{collection}/documents',
    'Index one document (action=create|upsert|update|emplace).',
    'documents.html#index-a-single-document'
  ],
  [
    ['PATCH'],
    '/collections/{collection}/documents',
    'Update the documents matching filter_by.',
    'documents.html#update-by-query'
  ],
  [
    ['DELETE'],
    '/collections/{collection}/documents',
    'Delete the documents matching filter_by, or all with truncate=true.',
    'documents.html#delete-by-query'
  ],
  [
    ['GET', 'POST'],
    '/collections/{collection}/documents/search',
    'Search a collection with q, query_by, filter_by, sort_by and more.',
    'search.html'
  ],
  [
    ['POST'],
    '/collections/{collection}/documents/import',
    'Import documents as JSONL, one document a line (action=create|upsert|update|emplace).',
    'documents.html#index-multiple-documents'
  ],
  [
    ['GET'],
    '/collections/{collection}/documents/export',
    'Export documents as JSONL (filter_by, include_fields, exclude_fields).',
    'documents.html#export-documents'
  ],
  [
    ['GET'],
    '/collections/{collection}/documents/{id}',
    'Retrieve one document by id.',
    'documents.html#retrieve-a-document'
  ],
  [
    ['PATCH'],
    '/collections/{collection}/documents/{id}',
    'Update fields of one document.',
    'documents.html#update-a-single-document'
  ],
  [
    ['DELETE'],
    '/collections/{collection}/documents/{id}',
    'Delete one document by id.',
    'documents.html#delete-documents'
  ],
  [
    ['GET'],
    '/collections/{collection}/synonyms',
    'List the synonyms of a collection (before v30).',
    'synonyms.html#list-all-synonyms-associated-with-a-collection'
  ],
  [
    ['GET'],
    '/collections/{collection}/synonyms/{id}',
    'Retrieve one synonym (before v30).',
    'synonyms.html#retrieve-a-synonym'
  ],
  [
    ['PUT'],
    '/collections/{collection}/synonyms/{id}',
    'Create or update a synonym (before v30).',
    'synonyms.html#create-or-update-a-synonym'
  ],
  [
    ['DELETE'],
    '/collections/{collection}/synonyms/{id}',
    'Delete a synonym (before v30).',
    'synonyms.html#delete-a-synonym'
  ],
  [
    ['GET'],
    '/synonym_sets',
    'List synonym sets (v30 and later).',
    'synonyms.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/synonym_sets/{name}',
    'Retrieve, create or replace, or delete a synonym set (v30 and later).',
    'synonyms.html'
  ],
  [
    ['GET'],
    '/synonym_sets/{name}/items',
    'List the synonyms of a set (v30 and later).',
    'synonyms.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/synonym_sets/{name}/items/{id}',
    'Retrieve, create or update, or delete one synonym of a set (v30 and later).',
    'synonyms.html'
  ],
  [
    ['GET'],
    '/collections/{collection}/overrides',
    'List the curation overrides of a collection (before v30).',
    'curation.html#list-all-overrides'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/collections/{collection}/overrides/{id}',
    'Retrieve, create or update, or delete a curation override (before v30).',
    'curation.html'
  ],
  [
    ['GET'],
    '/curation_sets',
    'List curation sets (v30 and later).',
    'curation.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/curation_sets/{name}',
    'Retrieve, create or replace, or delete a curation set (v30 and later).',
    'curation.html'
  ],
  [
    ['GET'],
    '/curation_sets/{name}/items',
    'List the curation rules of a set (v30 and later).',
    'curation.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/curation_sets/{name}/items/{id}',
    'Retrieve, create or update, or delete one curation rule of a set (v30 and later).',
    'curation.html'
  ],
  [
    ['POST'],
    '/multi_search',
    'Run several searches in one request: {"searches": [{"collection": ..., "q": ...}]}.',
    'federated-multi-search.html'
  ],
  [
    ['GET'],
    '/keys',
    'List API keys (values are not shown, only prefixes).',
    'api-keys.html#list-all-keys'
  ],
  [
    ['POST'],
    '/keys',
    'Create an API key with actions, collections and an optional expires_at.',
    'api-keys.html#create-an-api-key'
  ],
  [
    ['GET'],
    '/keys/{id}',
    'Retrieve the metadata of one API key.',
    'api-keys.html#retrieve-an-api-key'
  ],
  [
    ['DELETE'],
    '/keys/{id}',
    'Delete an API key.',
    'api-keys.html#delete-api-key'
  ],
  [
    ['GET'],
    '/aliases',
    'List collection aliases.',
    'collection-alias.html#list-all-aliases'
  ],
  [
    ['GET'],
    '/aliases/{name}',
    'Retrieve the collection an alias points to.',
    'collection-alias.html#retrieve-an-alias'
  ],
  [
    ['PUT'],
    '/aliases/{name}',
    'Create or repoint an alias: {"collection_name": ...}.',
    'collection-alias.html#create-or-update-an-alias'
  ],
  [
    ['DELETE'],
    '/aliases/{name}',
    'Delete an alias (the collection stays).',
    'collection-alias.html#delete-an-alias'
  ],
  [['GET'], '/presets', 'List search presets.', 'search.html#presets'],
  [
    ['GET', 'PUT', 'DELETE'],
    '/presets/{name}',
    'Retrieve, create or update, or delete a search preset.',
    'search.html#presets'
  ],
  [['GET'], '/stopwords', 'List stopword sets.', 'stopwords.html'],
  [
    ['GET', 'PUT', 'DELETE'],
    '/stopwords/{name}',
    'Retrieve, create or update, or delete a stopword set.',
    'stopwords.html'
  ],
  [
    ['GET'],
    '/analytics/rules',
    'List analytics rules (query suggestions, popularity counters).',
    'analytics-query-suggestions.html'
  ],
  [
    ['POST'],
    '/analytics/rules',
    'Create an analytics rule.',
    'analytics-query-suggestions.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/analytics/rules/{name}',
    'Retrieve, create or update, or delete an analytics rule.',
    'analytics-query-suggestions.html'
  ],
  [
    ['POST'],
    '/analytics/events',
    'Send a click, conversion or visit event for analytics.',
    'analytics-query-suggestions.html'
  ],
  [
    ['GET'],
    '/conversations/models',
    'List conversation (RAG) models.',
    'conversational-search-rag.html'
  ],
  [
    ['POST'],
    '/conversations/models',
    'Create a conversation model.',
    'conversational-search-rag.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/conversations/models/{id}',
    'Retrieve, update or delete a conversation model.',
    'conversational-search-rag.html'
  ],
  [
    ['GET'],
    '/nl_search_models',
    'List natural-language search models (v29 and later).',
    'natural-language-search.html'
  ],
  [
    ['POST'],
    '/nl_search_models',
    'Create a natural-language search model (v29 and later).',
    'natural-language-search.html'
  ],
  [
    ['GET', 'PUT', 'DELETE'],
    '/nl_search_models/{id}',
    'Retrieve, update or delete a natural-language search model.',
    'natural-language-search.html'
  ],
  [
    ['GET'],
    '/stemming/dictionaries',
    'List stemming dictionaries.',
    'stemming.html'
  ],
  [
    ['GET'],
    '/stemming/dictionaries/{id}',
    'Retrieve a stemming dictionary.',
    'stemming.html'
  ],
  [
    ['POST'],
    '/stemming/dictionaries/import',
    'Import a stemming dictionary as JSONL (id query parameter).',
    'stemming.html'
  ]
];

const ENDPOINTS: readonly EndpointInfo[] = ROWS.map(
  ([methods, path, description, page]) => ({
    methods,
    path,
    description,
    docUrl: `${DOCS}/${page}`
  })
);

export function loadEndpoints(): Promise<EndpointInfo[]> {
  // Copies, so a caller that sorts or edits the list cannot change the next caller's.
  return Promise.resolve(
    ENDPOINTS.map(e => ({ ...e, methods: [...e.methods] }))
  );
}
