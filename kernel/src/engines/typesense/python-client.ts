/**
 * Requests as Python code for typesense-python, Typesense's official client
 * (https://github.com/typesense/typesense-python): the client's own method where a request has
 * one (a search, a multi-search, a collection, a document, an export or an import), else its
 * `api_call`, which sends the method, path, parameters and body as written.
 */
import type { ConsoleRequest, JsonValue } from '../../console/cell';
import {
  type PythonClient,
  pythonCall,
  pythonParams,
  pythonString,
  pythonValue
} from '../../driver-core/python-code';
import type { Transport } from '../../driver-core/http/transport';
import { KEY_HEADER } from './connection-settings';

const env = (name: string): string => `os.environ[${pythonString(name)}]`;

/** The collection and the rest of a path under /collections/<name>, decoded. */
function collectionPath(
  path: string
): { collection: string; rest: string[] } | undefined {
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (segments[0] !== 'collections' || segments[1] === undefined) {
    return undefined;
  }
  return { collection: segments[1], rest: segments.slice(2) };
}

/** The typed call for a request, when the client has one: the expression, and whether it answers text. */
function typedCall(
  name: string,
  request: ConsoleRequest,
  params: string | undefined
): { callee: string; args: string[]; text?: boolean } | undefined {
  const path = request.path.replace(/\/+$/, '');
  const value = request.body?.kind === 'json' ? request.body.value : undefined;
  if (path === '/multi_search' && request.method === 'POST' && value) {
    return {
      callee: `${name}.multi_search.perform`,
      args: [pythonValue(value, 1), ...(params ? [params] : [])]
    };
  }
  if (path === '/collections' && request.method === 'GET') {
    return { callee: `${name}.collections.retrieve`, args: [] };
  }
  const under = collectionPath(path);
  if (!under) {
    return undefined;
  }
  const collection = `${name}.collections[${pythonString(under.collection)}]`;
  const [first, second, third] = under.rest;
  if (first === undefined && request.method === 'GET') {
    return { callee: `${collection}.retrieve`, args: [] };
  }
  if (first !== 'documents') {
    return undefined;
  }
  if (second === 'search' && request.method === 'GET' && !request.body) {
    return { callee: `${collection}.documents.search`, args: [params ?? '{}'] };
  }
  if (second === 'export' && request.method === 'GET') {
    return {
      callee: `${collection}.documents.export`,
      args: params ? [params] : [],
      text: true
    };
  }
  if (
    second === 'import' &&
    request.method === 'POST' &&
    request.body?.kind === 'ndjson'
  ) {
    return {
      callee: `${collection}.documents.import_`,
      args: [pythonValue(request.body.values, 1), ...(params ? [params] : [])]
    };
  }
  if (
    second !== undefined &&
    third === undefined &&
    !['search', 'export', 'import'].includes(second) &&
    request.method === 'GET'
  ) {
    return {
      callee: `${collection}.documents[${pythonString(second)}].retrieve`,
      args: []
    };
  }
  return undefined;
}

function genericCall(
  name: string,
  request: ConsoleRequest,
  params: string | undefined
): { callee: string; args: string[] } {
  const value: JsonValue | undefined =
    request.body === undefined
      ? undefined
      : request.body.kind === 'json'
        ? request.body.value
        : request.body.values;
  return {
    callee: `${name}.api_call.${request.method.toLowerCase()}`,
    args: [
      pythonString(request.path),
      'entity_type=dict',
      ...(params ? [`params=${params}`] : []),
      ...(value !== undefined ? [`body=${pythonValue(value, 1)}`] : [])
    ]
  };
}

export function pythonClient(transport: Transport): PythonClient {
  const own = transport.copy.curlCredential;
  const key =
    own?.variables?.kind === 'key'
      ? own.variables.key
      : own || transport.copy.sendsHeader(KEY_HEADER)
        ? 'TYPESENSE_API_KEY'
        : undefined;
  const url = new URL(transport.baseUrl);
  const protocol = url.protocol.replace(/:$/, '');
  const port = url.port || (protocol === 'https' ? '443' : '80');
  const prefix = url.pathname.replace(/\/+$/, '');
  const node: Record<string, JsonValue> = {
    host: url.hostname,
    port: Number(port),
    protocol,
    ...(prefix ? { path: prefix } : {})
  };
  return {
    package: 'typesense',
    imports: ['import typesense'],
    notes: [
      ...(own?.note ? [own.note.replace(/\$([A-Z_][A-Z0-9_]*)/g, '$1')] : []),
      ...(transport.copy.skipsVerification
        ? [
            'This connection leaves certificates unchecked (skip_verify); the client checks them.'
          ]
        : [])
    ],
    setup: name => {
      const config = [
        `    "nodes": [${pythonValue(node)}],`,
        ...(key ? [`    "api_key": ${env(key)},`] : []),
        '    "connection_timeout_seconds": 10,'
      ];
      return [`${name} = typesense.Client({`, ...config, '})'];
    },
    call: (name, request) => {
      const params = pythonParams(request.query);
      const typed = typedCall(name, request, params);
      const { callee, args } = typed ?? genericCall(name, request, params);
      return [
        ...pythonCall('response', callee, args),
        typed?.text
          ? 'print(response)'
          : 'print(json.dumps(response, indent=2))'
      ];
    }
  };
}
