/**
 * The admin capability, optional: what the side panel shows under a connection besides its
 * indices or collections (API keys, server metrics). Exists because engines offer different
 * sections, or none.
 */
import type {
  AdminOffers,
  KeyInfo,
  MetricsSnapshot,
  NewKey,
  ScopedKeyRequest
} from '../../../../contracts/admin-protocol';

/** API keys of an engine that has them (Typesense): immutable, the value given once at creation. */
export interface KeyAdmin {
  list(signal: AbortSignal): Promise<KeyInfo[]>;
  /** The listed key and its full value, which the caller must show once and never log. */
  add(
    key: NewKey,
    signal: AbortSignal
  ): Promise<{ key: KeyInfo; value: string }>;
  remove(id: string, signal: AbortSignal): Promise<void>;
  /**
   * A key derived locally from a parent key with search parameters embedded (no request
   * creates it); its value, like a new key's, is shown once and never logged.
   */
  scoped?(
    request: ScopedKeyRequest,
    signal: AbortSignal
  ): Promise<{ parentPrefix: string; embedded: string; value: string }>;
}

export interface AdminSections {
  readonly offers: AdminOffers;
  readonly keys?: KeyAdmin;
  /** One snapshot of the server's figures (dashboard, cluster overview); rates need two. */
  metrics?(signal: AbortSignal): Promise<MetricsSnapshot>;
}
