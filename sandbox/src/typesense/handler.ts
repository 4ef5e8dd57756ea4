/**
 * The HTTP face of one sandbox: route lookup, the engine's authentication, error bodies,
 * streamed replies and request accounting.
 */
import type http from 'node:http';
import type { Engine } from './engine';
import {
  ApiError,
  errorBody,
  NOT_FOUND_BODY,
  UNAUTHORIZED_BODY
} from './errors';
import { JSON_TYPE, readBody, type Reply } from './http-io';
import type { Router } from './router';
import { multiSearchCollections } from './routes/search';
import { openScopedKey, withEmbedded } from './scoped-keys';

const KEY_NAME = 'x-typesense-api-key';

function parseQuery(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) {
    out.set(k, v);
  }
  return out;
}

export function createHandler(
  engine: Engine,
  router: Router
): http.RequestListener {
  return (req, res) => {
    void handle(engine, router, req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': JSON_TYPE });
        res.end(errorBody(`Internal error: ${(err as Error).message}`));
      } else {
        res.destroy();
      }
    });
  };
}

async function handle(
  engine: Engine,
  router: Router,
  req: http.IncomingMessage,
  res: http.ServerResponse
): Promise<void> {
  const started = process.hrtime.bigint();
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = parseQuery(q < 0 ? '' : url.slice(q + 1));
  const method = (req.method ?? 'GET').toUpperCase();
  const body = await readBody(req);

  const found = router.match(method, path);
  if (!found) {
    send(res, {
      kind: 'body',
      status: 404,
      body: NOT_FOUND_BODY,
      contentType: JSON_TYPE
    });
    return;
  }
  const { route, params } = found;

  if (!route.public) {
    const header = req.headers[KEY_NAME];
    let key =
      (Array.isArray(header) ? header[0] : header) ?? query.get(KEY_NAME);
    if (
      key !== undefined &&
      route.action === 'documents:search' &&
      !engine.keys.has(key)
    ) {
      const scoped = openScopedKey(
        key,
        engine.keys.list(),
        Math.floor(Date.now() / 1000)
      );
      if (scoped) {
        key = scoped.parent.value;
        withEmbedded(query, scoped.embedded);
      }
    }
    const collections =
      route.pattern === '/multi_search'
        ? multiSearchCollections(body, query)
        : [params.collection ?? ''];
    if (!collections.every(c => engine.keys.allows(key, route.action, c))) {
      send(res, {
        kind: 'body',
        status: 401,
        body: UNAUTHORIZED_BODY,
        contentType: JSON_TYPE
      });
      return;
    }
  }

  let reply: Reply;
  try {
    reply = await route.handler({ method, params, query, body, req });
  } catch (err) {
    if (!(err instanceof ApiError)) {
      throw err;
    }
    // The search handler writes its error JSON without the space the other paths put after the colon.
    const compact =
      route.kind === 'search' && route.pattern !== '/multi_search';
    reply = {
      kind: 'body',
      status: err.status,
      body: errorBody(err.message, compact),
      contentType: JSON_TYPE
    };
  }
  await send(res, reply);
  engine.stats.record(
    method,
    path,
    route.kind,
    Number(process.hrtime.bigint() - started) / 1e6
  );
}

async function send(res: http.ServerResponse, reply: Reply): Promise<void> {
  if (reply.kind === 'body') {
    res.writeHead(reply.status, {
      'content-type': reply.contentType ?? JSON_TYPE,
      'content-length': Buffer.byteLength(reply.body)
    });
    res.end(reply.body);
    return;
  }
  res.writeHead(reply.status, { 'content-type': reply.contentType });
  await reply.write(res);
  res.end();
}
