import type { ConnectArgs } from '../../driver-core/connect-options';
import type { SslMode } from '../../driver-core/ssl-mode';
import type { EngineConnectionSettings } from '../../driver-core/engine-module';
import type { TlsVerification } from '../../driver-core/http/transport-options';
import {
  type CurlCredential,
  inDoubleQuotes,
  secretVariable
} from '../../driver-core/curl-credential';
import { authOfArgs } from './auth';
import { awsSigning } from './aws-credentials';
import { elasticsearchOptions } from './connect-options';
import { AwsSigV4Signer } from './aws-signer';

/**
 * Preferred and Required accept a self-signed certificate, because an 8.x node
 * generates its own CA on first start; only the Verify modes check it.
 */
const VERIFICATION: Record<Exclude<SslMode, 'disabled'>, TlsVerification> = {
  preferred: 'none',
  required: 'none',
  'verify-ca': 'chain',
  'verify-identity': 'identity'
};

export const UNTRUSTED_CERTIFICATE_ADVICE =
  'For a self-signed certificate use ssl=required or add skip_verify; to keep verifying, give the CA that signed it with ca=<PEM file> (an 8.x node writes it to config/certs/http_ca.crt).';

export async function elasticsearchConnectionSettings(
  args: ConnectArgs
): Promise<EngineConnectionSettings> {
  const verification =
    args.ssl === 'disabled' ? undefined : VERIFICATION[args.ssl];
  if (authOfArgs(args) === 'aws-sigv4') {
    const signing = await awsSigning(elasticsearchOptions(args));
    const { accessKeyId, secretAccessKey, sessionToken } = signing.credentials;
    // An engine that echoes one (an error quoting a header) shows where it is kept instead.
    const shownAs = (variable: string, key: string) =>
      signing.fromEnvironment ? `\${env:${variable}}` : `<${key}>`;
    return {
      headers: {},
      verification,
      signer: new AwsSigV4Signer(
        signing.region,
        signing.service,
        signing.credentials
      ),
      secrets: [
        {
          value: secretAccessKey,
          shownAs: shownAs('AWS_SECRET_ACCESS_KEY', 'aws_secret_access_key')
        },
        ...(sessionToken
          ? [
              {
                value: sessionToken,
                shownAs: shownAs('AWS_SESSION_TOKEN', 'aws_session_token')
              }
            ]
          : [])
      ],
      // The key id's last four characters tell keys apart without giving one away.
      authSummary: `auth=aws-sigv4 region=${signing.region} service=${signing.service} (access key ${accessKeyId.length >= 16 ? `…${accessKeyId.slice(-4)} ` : ''}from ${signing.source})`
    };
  }
  const curl = curlCredential(args);
  return {
    headers: authorizationHeader(args),
    verification,
    ...(curl ? { curl } : {})
  };
}

/** The same credential for a copied curl command: the user in clear, each secret by the variable it came from. */
function curlCredential(args: ConnectArgs): CurlCredential | undefined {
  const auth = authOfArgs(args);
  if (auth === 'apikey' && args.key) {
    const key = secretVariable(
      args.secretOrigins?.key,
      'ES_API_KEY',
      'the API key'
    );
    return {
      args: ['-H', `"Authorization: ApiKey $${key.name}"`],
      ...(key.note ? { note: key.note } : {}),
      variables: { kind: 'key', key: key.name }
    };
  }
  if (auth === 'basic' && args.user) {
    const user = inDoubleQuotes(args.user);
    if (args.password === undefined) {
      return {
        args: ['-u', `"${user}:"`],
        variables: { kind: 'basic', user: args.user }
      };
    }
    const password = secretVariable(
      args.secretOrigins?.password,
      'ES_PASSWORD',
      `the password of ${args.user}`
    );
    return {
      args: ['-u', `"${user}:$${password.name}"`],
      ...(password.note ? { note: password.note } : {}),
      variables: { kind: 'basic', user: args.user, password: password.name }
    };
  }
  return undefined;
}

/** Basic, API key or none (docs/engines/elasticsearch.md). Without auth=, the credentials given choose the method. */
function authorizationHeader(args: ConnectArgs): Record<string, string> {
  const auth = authOfArgs(args);
  // The key is the `encoded` value of the create-API-key answer (base64 of id:api_key), sent verbatim.
  if (auth === 'apikey' && args.key) {
    return { authorization: `ApiKey ${args.key}` };
  }
  if (auth === 'basic' && args.user) {
    return {
      authorization: `Basic ${Buffer.from(`${args.user}:${args.password ?? ''}`).toString('base64')}`
    };
  }
  return {};
}
