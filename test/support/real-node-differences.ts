import type { RealFlavourId } from './real-elasticsearch/flavours';

/**
 * Where a real Elasticsearch 9.x or OpenSearch node answers unlike real Elasticsearch 8.19
 * (which the sandbox stands in for): listed in this one place, each entry naming the lines it
 * applies to and why. The suites that run against every real node pick their expectation
 * through `answerFor`, so a difference is never silently accepted; one no line shows any more
 * is deleted here, with the expectations that name it.
 */
/**
 * `opensearch` is OpenSearch 2.19.1 and 3.3.2 alike for what searchbook reads: the name, the
 * missing product header, `_id` sorts and the point in time API hold on both (the suites that
 * take `opensearchTargets()`). The differential corpus replays against 2.19.1; pointed at a
 * 3.3.2 node (SEARCHBOOK_DIFF_OPENSEARCH_URL), 3.x answers beyond these entries with other
 * `_score` values (its default similarity is Lucene's BM25 without the (k1 + 1) factor, so
 * scores are those of 2.19 divided by 2.2, and a `min_score` matches fewer documents) and
 * `"terminated_early": true` on searches that only aggregate.
 */
export type ReleaseLine = 'es-7' | 'es-8' | 'es-9' | 'opensearch';

export const REAL_NODE_DIFFERENCES = {
  'opensearch-names-itself': {
    on: ['opensearch'],
    reason:
      'OpenSearch says "distribution": "opensearch" in GET / and the kernel names it OpenSearch wherever it names the engine ("Connected to OpenSearch 2.19.1", "OpenSearch answered 404: ...").'
  },
  'no-product-header': {
    on: ['opensearch'],
    reason:
      'OpenSearch sends no X-Elastic-Product header (Elasticsearch 7.14+ sends "Elasticsearch" on every authenticated answer).'
  },
  'opensearch-sorts-on-id': {
    on: ['opensearch'],
    reason:
      'OpenSearch sorts on _id; Elasticsearch 8+ refuses it unless indices.id_field_data.enabled is set, so the grid drops that sort there with a note.'
  },
  'opensearch-point-in-time-api': {
    on: ['opensearch'],
    reason:
      'OpenSearch opens and closes a point in time at /_search/point_in_time (POST /<index>/_search/point_in_time, DELETE /_search/point_in_time with {"pit_id": [...]}), not at /_pit; it has no _shard_doc, and _doc ties across shards, so pages are sorted on _index and _id.'
  },
  'nine-asks-for-vectors': {
    on: ['es-9'],
    reason:
      'Elasticsearch 9.2+ leaves dense_vector fields out of _source unless a search asks, so the grid and export searches send "_source": {"exclude_vectors": false}, with the fields named as "includes".'
  },
  'index-settings-of-its-own': {
    on: ['es-9', 'opensearch'],
    reason:
      "GET /<index> reports the index version the node created it with (index.version.created 9111000 on 9.5.3, OpenSearch's own numbering on 2.19.1); OpenSearch also reports index.replication.type DOCUMENT and sets no _tier_preference (it has no data tiers)."
  },
  'nine-error-texts': {
    on: ['es-9'],
    reason:
      'Elasticsearch 9.x words some refusals otherwise than 8.19: a nested query on a path that is not nested fails with the bare "[nested] failed to find nested object under path [...]" (no "failed to create query:" and no caused_by), and a GET of an endpoint that takes only POST answers 400 "no handler found for uri [...] and method [GET]" where 8.19 answers 405 "Incorrect HTTP method".'
  },
  'opensearch-error-texts': {
    on: ['opensearch'],
    reason:
      'OpenSearch words refusals as the Elasticsearch 7.10 it forked from does: a document the mapping refuses is a mapper_parsing_exception without the "[line:column]" prefix (an empty field name only "failed to parse"), malformed JSON a json_e_o_f_exception, an unknown field type "No handler for type [...]", fielddata and a negative from in their 7.x words, a missing index\'s resource.type "index_expression", a GET of an endpoint that takes only POST 400 "no handler found"; too many buckets is a 503 with the limit 65535.'
  },
  'opensearch-skips-segments-before-search-after': {
    on: ['opensearch'],
    reason:
      'A search_after search on OpenSearch whose first sort clause leaves "missing" to its default, without track_total_hits, skips each shard and segment whose values of that field all sort before the search_after value, the documents there lacking the field (which sort last) included: they are missing from the answer, and a search_after from a missing stand-in ("Infinity", Long.MAX_VALUE) answers nothing. Said outright, "missing": "_last" (the same order) searches them all.'
  },
  'opensearch-fields-flattened': {
    on: ['opensearch'],
    reason:
      'The search option "fields" on OpenSearch lists the leaves of a nested field flat under their full path ("variants.color": [...]), where Elasticsearch 8 groups them per nested object ("variants": [{"color": [...]}, ...]).'
  }
} as const satisfies Record<
  string,
  { on: readonly ReleaseLine[]; reason: string }
>;

export type RealNodeDifference = keyof typeof REAL_NODE_DIFFERENCES;

/** The release line of a target: the sandbox answers as 8.19 does. */
export function releaseLine(flavour: RealFlavourId | undefined): ReleaseLine {
  if (flavour === undefined) {
    return 'es-8';
  }
  if (flavour.startsWith('opensearch')) {
    return 'opensearch';
  }
  const major = /^es-(\d+)\./.exec(flavour)?.[1];
  if (major !== '7' && major !== '8' && major !== '9') {
    throw new Error(`no release line for the flavour ${flavour}`);
  }
  return `es-${major}`;
}

/** A suite's target (a real node's flavour, undefined for the sandbox), or a release line. */
export type LineOf =
  { flavour: RealFlavourId | undefined } | { line: ReleaseLine };

/** Whether the target answers with this known difference from 8.19. */
export function differs(
  target: LineOf,
  difference: RealNodeDifference
): boolean {
  const entry: { on: readonly ReleaseLine[] } | undefined =
    REAL_NODE_DIFFERENCES[difference];
  if (!entry) {
    throw new Error(`unknown real-node difference ${difference}`);
  }
  return entry.on.includes(
    'line' in target ? target.line : releaseLine(target.flavour)
  );
}

/** The expectation for this target: as 8.19 answers, or as the lines with the named difference do. */
export function answerFor<T>(
  target: LineOf,
  difference: RealNodeDifference,
  answers: { asEight: T; otherwise: T }
): T {
  return differs(target, difference) ? answers.otherwise : answers.asEight;
}
