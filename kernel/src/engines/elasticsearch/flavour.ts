/**
 * Which product answers at an index engine's address and what its version can do: Elasticsearch,
 * or OpenSearch (the fork of Elasticsearch 7.10, https://opensearch.org/docs/latest/), which
 * speaks the same REST API with its own point in time and its own endpoints. Read once from
 * `GET /` on connect; everything that differs between them asks this.
 */
import type { JsonValue } from '../../console/cell';

/** A point in time API: how it opens, what its id is called, how it closes, and the sort that makes a row's place unique. */
export interface PointInTimeApi {
  /** Path of the open request, after the target segment (`/_pit`). */
  readonly openPath: string;
  /** The id's key in the open answer (`id`, `pit_id`). */
  readonly idKey: string;
  readonly closePath: string;
  closeBody(id: string): JsonValue;
  /**
   * The sort clauses after the view's own sort that make each row's place unique: search_after
   * pages skip every row that ties with a page's last one, so anything less loses documents.
   */
  readonly tieBreakers: JsonValue[];
}

/**
 * A unique order without `_shard_doc`: `_id` is unique within an index, and `_index` tells two
 * indices' equal ids apart (an alias or a pattern). `_doc` is not enough: it is a document's
 * place in its shard, and equal on every shard.
 */
export const INDEX_AND_ID_ORDER: JsonValue[] = [
  { _index: 'asc' },
  { _id: 'asc' }
];

/** `_shard_doc` alone: a point in time's documents in shard order, then Lucene document order. */
export const SHARD_DOC_ORDER: JsonValue[] = [{ _shard_doc: 'asc' }];

export interface Flavour {
  /** The product's own name, for every text that names the engine. */
  readonly product: 'Elasticsearch' | 'OpenSearch';
  readonly version: string;
  /** Undefined where the version has none (Elasticsearch before 7.10, OpenSearch before 2.4): grids and exports read without a snapshot. */
  readonly pointInTime: PointInTimeApi | undefined;
  /** The version that brought the point in time to this product, for texts that say why there is none. */
  readonly pointInTimeSince: string;
}

/**
 * Elasticsearch 7.12+ (https://www.elastic.co/docs/api/doc/elasticsearch/operation/operation-open-point-in-time):
 * `_shard_doc` orders a point in time's documents uniquely and cheaply.
 */
const ELASTICSEARCH_POINT_IN_TIME: PointInTimeApi = {
  openPath: '/_pit',
  idKey: 'id',
  closePath: '/_pit',
  closeBody: id => ({ id }),
  tieBreakers: SHARD_DOC_ORDER
};

/** Elasticsearch 7.10 and 7.11 have a point in time but no `_shard_doc` yet. */
const ELASTICSEARCH_7_10_POINT_IN_TIME: PointInTimeApi = {
  ...ELASTICSEARCH_POINT_IN_TIME,
  tieBreakers: INDEX_AND_ID_ORDER
};

/**
 * OpenSearch 2.4+ (https://opensearch.org/docs/latest/search-plugins/searching-data/point-in-time-api/).
 * It has no `_shard_doc` (Elasticsearch added it in 7.12, after the fork).
 */
const OPENSEARCH_POINT_IN_TIME: PointInTimeApi = {
  openPath: '/_search/point_in_time',
  idKey: 'pit_id',
  closePath: '/_search/point_in_time',
  closeBody: id => ({ pit_id: [id] }),
  tieBreakers: INDEX_AND_ID_ORDER
};

/** Before connecting, and for any answer that is not OpenSearch's. */
export const ELASTICSEARCH_FLAVOUR: Flavour = {
  product: 'Elasticsearch',
  version: '',
  pointInTime: ELASTICSEARCH_POINT_IN_TIME,
  pointInTimeSince: '7.10'
};

/** Supported majors, per product: another connects with a warning. */
const SUPPORTED_MAJORS = {
  Elasticsearch: [7, 8, 9],
  OpenSearch: [1, 2, 3]
} as const;

/** The flavour of a `GET /` answer's `version` object (its `number` already checked). */
export function flavourOf(version: {
  number: string;
  distribution?: unknown;
}): Flavour {
  const [major = 0, minor = 0] = version.number.split('.').map(Number);
  const atLeast = (m: number, n: number) =>
    major > m || (major === m && minor >= n);
  if (version.distribution !== 'opensearch') {
    return {
      ...ELASTICSEARCH_FLAVOUR,
      version: version.number,
      pointInTime: atLeast(7, 12)
        ? ELASTICSEARCH_POINT_IN_TIME
        : atLeast(7, 10)
          ? ELASTICSEARCH_7_10_POINT_IN_TIME
          : undefined
    };
  }
  return {
    product: 'OpenSearch',
    version: version.number,
    pointInTime: atLeast(2, 4) ? OPENSEARCH_POINT_IN_TIME : undefined,
    pointInTimeSince: '2.4'
  };
}

/** The warning for a major searchbook does not support, or undefined. */
export function unsupportedVersion(flavour: Flavour): string | undefined {
  const supported: readonly number[] = SUPPORTED_MAJORS[flavour.product];
  const major = Number(flavour.version.split('.')[0]);
  if (supported.includes(major)) {
    return undefined;
  }
  const listed = supported.map(m => `${m}.x`);
  const names =
    listed.length > 2
      ? `${listed.slice(0, -1).join(', ')} and ${listed[listed.length - 1]} are`
      : `${listed.join(' and ')} are`;
  return `${flavour.product} ${flavour.version} is not a supported version (${names}); requests are sent as written.`;
}
