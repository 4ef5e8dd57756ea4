/**
 * The catalog capability: what a connection holds and what its requests may name (endpoints,
 * indices or collections, fields). Exists because completion and the side panel's list both
 * ask it, and must not each list targets their own way.
 */
import type { HttpMethod } from '../../console/cell';
import type { TargetInfo } from '../../../../contracts/panel-protocol';

/** An endpoint for completion and inspection: method list, path template, one-line doc. */
export interface EndpointInfo {
  methods: HttpMethod[];
  /** Path template as the engine documents it, e.g. `/{index}/_search`. */
  path: string;
  description: string;
  docUrl?: string;
}

/** The connection's indices or collections, as the side panel lists them. */
export interface TargetListing {
  targets: TargetInfo[];
  /** Why the list is empty or partial (a key that may not list collections). */
  note?: string;
  /** Names a request or "Open…" may use that the list leaves out: aliases, and indices hidden from it (names starting with `.`). */
  unlisted: string[];
}

/** `subfields: false` leaves out a mapping's multi-fields (`name.keyword`): they are not in the documents. */
export interface FieldNameOptions {
  subfields?: boolean;
}

export interface Catalog {
  /** Endpoints of this engine, loaded lazily on first use. */
  endpoints(): Promise<EndpointInfo[]>;
  /**
   * The indices or collections. `recent`: a listing up to half a minute old will do, and its
   * document counts may be rough (completion asks on every Tab); a request that creates or
   * drops one clears it at once.
   */
  listTargets(
    signal: AbortSignal,
    options?: { recent?: boolean }
  ): Promise<TargetListing>;
  /** Field names of one index or collection for completion (cached with its mapping or schema). */
  fieldNames(
    target: string,
    signal: AbortSignal,
    options?: FieldNameOptions
  ): Promise<string[]>;
}
