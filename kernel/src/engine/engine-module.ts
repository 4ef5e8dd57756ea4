import type { ConnectArgs } from '../connections/connect-args';
import type { Driver } from './driver';
import type { Transport, TlsVerification } from './http/transport';

/** What an engine makes of `%connect` options: the only place its auth and defaults live. */
export interface EngineConnectionSettings {
  /** Start of a connection's default name, e.g. `es` in `es-localhost-9200`. */
  namePrefix: string;
  /** Port used when the address was a bare host without one. */
  defaultPort: number;
  /** Credential headers; their values are secrets. */
  headers: Record<string, string>;
  /** What HTTPS checks under the connection's SSL mode, before `skip_verify` is applied; undefined for plain HTTP. */
  verification: TlsVerification | undefined;
}

/** One engine's folder as the kernel loads it (lazily, on the first `%connect` to it). */
export interface EngineModule {
  /** For messages: `Elasticsearch`, `Typesense`. */
  readonly displayName: string;
  /** The sentence that fixes a certificate from an unknown CA under this engine's SSL modes. */
  readonly untrustedCertificateAdvice: string;
  /** How to page or narrow an answer that passed the connection's cap (`max_answer=`), in this engine's words. */
  readonly largeAnswerAdvice: string;
  connectionSettings(args: ConnectArgs): EngineConnectionSettings;
  createDriver(transport: Transport): Driver;
}
