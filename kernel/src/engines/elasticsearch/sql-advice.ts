import { REQUEST_FORM_HINT } from '../../console/refusal';

/** What a SQL line is written as on Elasticsearch (https://www.elastic.co/guide/en/elasticsearch/reference/current/query-dsl.html). */
export const ELASTICSEARCH_SQL_ADVICE = [
  'Rewrite it as a request: a search is `GET /<index>/_search` with a JSON body, where `"query"` does what WHERE does',
  '(`{"query": {"term": {"id": 1}}}`), `"sort"` ORDER BY and `"size"` LIMIT;',
  '`POST /<index>/_delete_by_query` with a `"query"` deletes what DELETE ... WHERE would.',
  '',
  REQUEST_FORM_HINT
].join('\n');
