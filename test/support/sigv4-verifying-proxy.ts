/**
 * A loopback stand-in for an Amazon OpenSearch Service domain: it checks each request's AWS
 * Signature Version 4 the way AWS does, recomputed here from the bytes received with node:crypto
 * alone (not with the signer searchbook uses), records what came, and passes the verified ones
 * to a sandbox engine behind it. A request whose signature does not hold gets AWS's 403.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
import { createHash, createHmac } from 'node:crypto';
import {
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
  request as httpRequest
} from 'node:http';

export interface SignedRequest {
  method: string;
  url: string;
  /** Header names in lower case; a repeated one's values joined by commas. */
  headers: Record<string, string>;
  body: string;
  /** Why the signature does not hold, or undefined when it does. */
  failure: string | undefined;
}

export interface VerifyingProxy {
  url: string;
  seen: SignedRequest[];
  close(): Promise<void>;
}

export interface SigningExpectation {
  /** Access key id to secret access key: the keys this domain accepts. */
  keys: Record<string, string>;
  region: string;
  service: string;
  /** Answer `GET /` 404 with no body, as an OpenSearch Serverless collection does. */
  noRootInfo?: boolean;
}

/** A path a signed request to which is answered 400 with an error quoting its session token, as a careless engine or proxy might. */
export const ECHO_TOKEN_PATH = '/_echo_token';

export async function startVerifyingProxy(
  upstreamUrl: string,
  expected: SigningExpectation
): Promise<VerifyingProxy> {
  const upstream = new URL(upstreamUrl);
  const seen: SignedRequest[] = [];
  const server: Server = createServer(
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers = headersOf(req.rawHeaders);
        const received = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers,
          body
        };
        const failure = signatureFailure(received, expected);
        seen.push({ ...received, body: body.toString('utf8'), failure });
        if (failure) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: failure }));
          return;
        }
        if (req.url === ECHO_TOKEN_PATH) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: {
                type: 'illegal_argument_exception',
                reason: `expired token ${headers['x-amz-security-token'] ?? ''}`
              },
              status: 400
            })
          );
          return;
        }
        if (expected.noRootInfo && req.method === 'GET' && req.url === '/') {
          res.writeHead(404, { server: 'aoss-amazon', 'content-length': '0' });
          res.end();
          return;
        }
        const forwarded = { ...req.headers };
        delete forwarded.authorization;
        const out = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: forwarded
          },
          answer => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          }
        );
        out.on('error', () => res.destroy());
        out.end(body);
      });
    }
  );
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('no port');
  }
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      })
  };
}

function headersOf(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    headers[name] =
      headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  return headers;
}

const sha256 = (data: string | Buffer) =>
  createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, the rest %XX in upper case. */
function uriEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map(byte => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9\-_.~]/.test(c)
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** The path as received, normalised, each segment encoded once more (every service but S3). */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') {
      continue;
    }
    if (segment === '..') {
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  const trailing = path.endsWith('/') && segments.length > 0 ? '/' : '';
  return `/${segments.map(uriEncode).join('/')}${trailing}`;
}

/** The query's parameters decoded (`+` is a space), encoded again and sorted by name, then value. */
function canonicalQuery(query: string): string {
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  return query
    .split('&')
    .filter(pair => pair !== '')
    .map(pair => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      return [uriEncode(decode(name)), uriEncode(decode(value))] as const;
    })
    .sort(([n1, v1], [n2, v2]) =>
      n1 < n2 ? -1 : n1 > n2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0
    )
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/** Why the request's signature does not hold, or undefined when it does. */
export function signatureFailure(
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: Buffer;
  },
  expected: SigningExpectation
): string | undefined {
  const auth = AUTHORIZATION.exec(request.headers.authorization ?? '');
  if (!auth) {
    return 'Missing Authentication Token';
  }
  const [, keyId = '', day = '', region, service, signedList = '', signature] =
    auth;
  const secret = expected.keys[keyId];
  if (secret === undefined) {
    return `The security token included in the request is invalid (key ${keyId}).`;
  }
  if (region !== expected.region || service !== expected.service) {
    return `Credential should be scoped to a valid region and service (got ${region}/${service}).`;
  }
  const amzDate = request.headers['x-amz-date'] ?? '';
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== day) {
    return 'x-amz-date is missing or does not match the credential scope.';
  }
  const signed = signedList.split(';');
  for (const needed of ['host', 'x-amz-date']) {
    if (!signed.includes(needed)) {
      return `${needed} is not among the signed headers.`;
    }
  }
  for (const name of Object.keys(request.headers)) {
    if (
      (name.startsWith('x-amz-') || name === 'content-type') &&
      !signed.includes(name)
    ) {
      return `${name} was sent but not signed.`;
    }
  }
  const payloadHash = sha256(request.body);
  const declared = request.headers['x-amz-content-sha256'];
  if (declared !== undefined && declared !== payloadHash) {
    return 'x-amz-content-sha256 is not the hash of the body received.';
  }
  const at = request.url.indexOf('?');
  const path = at < 0 ? request.url : request.url.slice(0, at);
  const query = at < 0 ? '' : request.url.slice(at + 1);
  const canonicalHeaders = signed
    .map(name => {
      const value = request.headers[name];
      return `${name}:${(value ?? '').trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    request.method,
    canonicalPath(path),
    canonicalQuery(query),
    canonicalHeaders,
    signedList,
    payloadHash
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    sha256(canonicalRequest)
  ].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${secret}`, day), region), service),
    'aws4_request'
  );
  const expectedSignature = createHmac('sha256', key)
    .update(stringToSign, 'utf8')
    .digest('hex');
  return expectedSignature === signature
    ? undefined
    : 'The request signature we calculated does not match the signature you provided.';
}
