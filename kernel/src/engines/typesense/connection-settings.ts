import type { ConnectArgs } from '../../driver-core/connect-options';
import type { SslMode } from '../../driver-core/ssl-mode';
import type { EngineConnectionSettings } from '../../driver-core/engine-module';
import type { TlsVerification } from '../../driver-core/http/transport-options';
import { secretVariable } from '../../driver-core/curl-credential';

/**
 * For Typesense the mode only chooses HTTPS. The self-signed allowance of Preferred/Required is
 * Elasticsearch's (an 8.x node makes its own CA); a Typesense node over HTTPS is usually a hosted
 * cluster with a public certificate, so those modes verify fully. Verify CA still skips the
 * host name check, and skip_verify trusts any certificate.
 */
const VERIFICATION: Record<Exclude<SslMode, 'disabled'>, TlsVerification> = {
  preferred: 'identity',
  required: 'identity',
  'verify-ca': 'chain',
  'verify-identity': 'identity'
};

export const KEY_HEADER = 'x-typesense-api-key';

export const UNTRUSTED_CERTIFICATE_ADVICE =
  'For a self-signed certificate add skip_verify, or give the CA that signed it with ca=<PEM file>.';

export function typesenseConnectionSettings(
  args: ConnectArgs
): EngineConnectionSettings {
  const key =
    args.key === undefined
      ? undefined
      : secretVariable(
          args.secretOrigins?.key,
          'TYPESENSE_API_KEY',
          'the Typesense API key'
        );
  return {
    ...(key
      ? {
          curl: {
            args: ['-H', `"X-TYPESENSE-API-KEY: $${key.name}"`],
            ...(key.note ? { note: key.note } : {}),
            variables: { kind: 'key' as const, key: key.name }
          }
        }
      : {}),
    // The key is the whole credential (https://typesense.org/docs/latest/api/authentication.html); Typesense has no users.
    headers: args.key ? { [KEY_HEADER]: args.key } : {},
    verification: args.ssl === 'disabled' ? undefined : VERIFICATION[args.ssl]
  };
}
