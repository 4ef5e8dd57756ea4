/**
 * The version of the node connected, read once by `GET /`, and what it changes in the requests
 * searchbook writes itself (grids, exports, the reads edits make). A console cell is sent as
 * written whatever the version.
 */
import type { JsonValue } from '../../console/cell';

/** Asks for `dense_vector` values in `_source` (a search body's `_source`, or a read's query string). */
const KEEP_VECTORS = { exclude_vectors: false } as const;
export const KEEP_VECTORS_QUERY = '_source_exclude_vectors=false';

export class ElasticsearchVersion {
  private major: number | undefined;
  private minor: number | undefined;

  /** From `GET /`'s `version.number`, such as `9.5.3`. */
  learn(number: string): void {
    const [major, minor] = number.split('.').map(Number);
    this.major = Number.isInteger(major) ? major : undefined;
    this.minor = Number.isInteger(minor) ? minor : undefined;
  }

  /** A 9.x node: its REST APIs dropped what 8.x deprecated (`_knn_search`, `?local` on alias reads). */
  isNineOrLater(): boolean {
    return this.major !== undefined && this.major >= 9;
  }

  /**
   * Elasticsearch 9.2+ leave `dense_vector` values out of `_source` unless a read asks for them
   * ([exclude_vectors](https://www.elastic.co/docs/reference/elasticsearch/mapping-reference/dense-vector#dense-vector-source)).
   * Older versions keep them in `_source` and 7.x does not know the option: it is asked only here.
   */
  leavesOutVectors(): boolean {
    if (this.major === undefined) {
      return false;
    }
    return this.major > 9 || (this.major === 9 && (this.minor ?? 0) >= 2);
  }

  /** The query string a document read (`_doc`, `_mget`) adds so vectors are kept; '' when the version keeps them anyway. */
  vectorsQuery(): string {
    return this.leavesOutVectors() ? KEEP_VECTORS_QUERY : '';
  }

  /**
   * A search body's `_source` that keeps vectors: `asked` (the `_source` a user or `fields=`
   * chose) with `exclude_vectors: false` added where the version leaves vectors out; undefined
   * when nothing needs sending (the engine's default: the whole source).
   */
  searchSource(asked?: JsonValue): JsonValue | undefined {
    if (!this.leavesOutVectors()) {
      return asked;
    }
    if (asked === undefined || asked === true) {
      return { ...KEEP_VECTORS };
    }
    if (asked === false) {
      return false;
    }
    if (typeof asked === 'string' || Array.isArray(asked)) {
      return { includes: asked, ...KEEP_VECTORS };
    }
    if (asked !== null && typeof asked === 'object') {
      // A user's own exclude_vectors is kept: they asked.
      return 'exclude_vectors' in asked ? asked : { ...asked, ...KEEP_VECTORS };
    }
    return asked;
  }
}

/** Joins query-string parts, skipping empty ones. */
export function withQuery(query: string, extra: string): string {
  return [query, extra].filter(part => part !== '').join('&');
}
