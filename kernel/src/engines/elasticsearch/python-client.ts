/**
 * Requests as Python code for the official clients: elasticsearch-py
 * (https://elasticsearch-py.readthedocs.io/) for Elasticsearch, opensearch-py
 * (https://opensearch.org/docs/latest/clients/python-low-level/) for OpenSearch, whose answers
 * elasticsearch-py refuses (it checks the X-Elastic-Product header). Each request goes through
 * the client's `perform_request`, which sends the method, path, parameters and body as written.
 */
import type { ConsoleRequest, JsonValue } from '../../console/cell';
import type { CredentialVariables } from '../../driver-core/curl-credential';
import {
  type PythonClient,
  pythonCall,
  pythonParams,
  pythonString,
  pythonValue
} from '../../driver-core/python-code';
import type { Transport } from '../../driver-core/http/transport';
import { AwsSigV4Signer } from './aws-signer';
import type { Flavour } from './flavour';

const env = (name: string): string => `os.environ[${pythonString(name)}]`;

/** The credential as the connection's %connect line named it, else by the scheme its header uses. */
function variables(
  transport: Transport
): CredentialVariables | 'bearer' | undefined {
  const own = transport.copy.curlCredential?.variables;
  if (own) {
    return own;
  }
  switch (transport.copy.headerScheme('authorization')?.toLowerCase()) {
    case 'apikey':
      return { kind: 'key', key: 'ES_API_KEY' };
    case 'basic':
      return { kind: 'basic', user: '', password: 'ES_PASSWORD' };
    case 'bearer':
      return 'bearer';
    default:
      return undefined;
  }
}

function userArg(user: string): string {
  return user ? pythonString(user) : env('ES_USER');
}

function body(request: ConsoleRequest): JsonValue | undefined {
  if (!request.body) {
    return undefined;
  }
  return request.body.kind === 'json'
    ? request.body.value
    : request.body.values;
}

export function pythonClient(
  transport: Transport,
  flavour: Flavour
): PythonClient {
  if (transport.copy.signer instanceof AwsSigV4Signer) {
    throw new Error(
      'Copy as Python does not sign requests with AWS SigV4: use Copy as curl for this connection (curl signs them itself).'
    );
  }
  const opensearch = flavour.product === 'OpenSearch';
  const credential = variables(transport);
  const note = transport.copy.curlCredential?.note;
  const insecure = transport.copy.skipsVerification;
  // Without it the client checks the certificate against the system's CAs, and fails where
  // the connection trusts a CA of its own.
  const caFile = transport.copy.caFile;
  const authArgs = (): string[] => {
    if (credential === 'bearer') {
      return opensearch
        ? [`headers={"authorization": "Bearer " + ${env('ES_TOKEN')}}`]
        : [`bearer_auth=${env('ES_TOKEN')}`];
    }
    if (credential?.kind === 'key') {
      return opensearch
        ? [`headers={"authorization": "ApiKey " + ${env(credential.key)}}`]
        : [`api_key=${env(credential.key)}`];
    }
    if (credential?.kind === 'basic') {
      const password = credential.password ? env(credential.password) : '""';
      return [
        `${opensearch ? 'http_auth' : 'basic_auth'}=(${userArg(credential.user)}, ${password})`
      ];
    }
    return [];
  };
  const notes = [
    ...(note ? [note.replace(/\$([A-Z_][A-Z0-9_]*)/g, '$1')] : []),
    ...(insecure
      ? [
          'Certificates go unchecked, as this connection does (ssl=required or skip_verify).'
        ]
      : [])
  ];
  return {
    package: opensearch ? 'opensearch-py' : 'elasticsearch',
    imports: [
      opensearch
        ? 'from opensearchpy import OpenSearch'
        : 'from elasticsearch import Elasticsearch'
    ],
    notes,
    setup: name =>
      pythonCall(name, opensearch ? 'OpenSearch' : 'Elasticsearch', [
        opensearch
          ? `hosts=[${pythonString(transport.baseUrl)}]`
          : pythonString(transport.baseUrl),
        ...authArgs(),
        ...(caFile ? [`ca_certs=${pythonString(caFile)}`] : []),
        ...(insecure ? ['verify_certs=False', 'ssl_show_warn=False'] : [])
      ]),
    call: (name, request) => {
      const params = pythonParams(request.query);
      const value = body(request);
      const ndjson = request.body?.kind === 'ndjson';
      const args = [
        pythonString(request.method),
        pythonString(request.path),
        ...(params ? [`params=${params}`] : []),
        ...(opensearch
          ? []
          : [
              `headers=${pythonValue(
                {
                  accept: 'application/json',
                  ...(value !== undefined
                    ? {
                        'content-type': ndjson
                          ? 'application/x-ndjson'
                          : 'application/json'
                      }
                    : {})
                },
                1
              )}`
            ]),
        ...(value !== undefined ? [`body=${pythonValue(value, 1)}`] : [])
      ];
      return opensearch
        ? [
            ...pythonCall(
              'response',
              `${name}.transport.perform_request`,
              args
            ),
            'print(json.dumps(response, indent=2))'
          ]
        : [
            ...pythonCall('response', `${name}.perform_request`, args),
            'print(json.dumps(response.body, indent=2))'
          ];
    }
  };
}
