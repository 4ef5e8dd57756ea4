/** What a SQL line is written as on Typesense (https://typesense.org/docs/latest/api/search.html). */
export const TYPESENSE_SQL_ADVICE = [
  'Rewrite it as a request: on Typesense a search is `GET /collections/<name>/documents/search?q=<words>&query_by=<field>`,',
  'where `filter_by=` does what WHERE does (`filter_by=year:>2000`), `sort_by=` ORDER BY and `per_page=` LIMIT;',
  '`DELETE /collections/<name>/documents?filter_by=<filter>` deletes what DELETE ... WHERE would.',
  '',
  'GET /collections/books/documents/search?q=*&query_by=title&filter_by=year:>2000'
].join('\n');
