/** A document as an index stores it: its source, versioning and the text hits print. */
import type { JsonObject } from './json-value';
import type { KnownJson } from './long-json';

export interface StoredDoc {
  readonly id: string;
  readonly source: JsonObject;
  readonly version: number;
  readonly seqNo: number;
  /** Approximate stored size in bytes, for _cat/indices. */
  readonly size: number;
  /** The source as hits print it, its JSON text written on first use. */
  readonly printed: KnownJson;
}
