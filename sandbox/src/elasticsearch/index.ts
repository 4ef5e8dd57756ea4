/**
 * The Elasticsearch stand-in: an in-memory node that answers the REST API the way
 * Elasticsearch 7.17 / 8.x does (bodies, status codes, headers), for tests and demos.
 */
import type http from 'node:http';
import { authenticate } from './auth';
import type { Context } from './context';
import { EsError } from './errors';
import { locateInBody } from './locate';
import { Exchange } from './exchange';
import type { JsonObject } from './json-value';
import { noHandler, wrongMethod } from './router';
import { buildRouter } from './routes';
import { ClusterState } from './state';
import { atLeast, parseVersion } from './version';
import { indexDoc } from './writes';

export interface ElasticsearchSandboxOptions {
  /** e.g. '8.15.0' or '7.17.0' */
  version: string;
  security: boolean;
  /** Password of the `elastic` superuser. */
  password: string;
  clusterName?: string;
  nodeName?: string;
}

export interface SeedDocument {
  id: string;
  source: JsonObject;
}

export interface ElasticsearchSandbox {
  handler: http.RequestListener;
  state: ClusterState;
  /** Creates (or replaces) an index and loads documents without going through HTTP. */
  loadIndex(
    name: string,
    mappings: JsonObject | undefined,
    docs: Iterable<SeedDocument>,
    settings?: Record<string, string>
  ): number;
}

export function createElasticsearchSandbox(
  opts: ElasticsearchSandboxOptions
): ElasticsearchSandbox {
  const version = parseVersion(opts.version);
  const state = new ClusterState(version);
  const ctx: Context = {
    state,
    version,
    security: {
      enabled: opts.security,
      users: new Map([['elastic', opts.password]])
    },
    clusterName: opts.clusterName ?? 'searchbook-sandbox',
    nodeName: opts.nodeName ?? 'sandbox-es-node'
  };
  const router = buildRouter();
  const productHeader = atLeast(version, 7, 14);

  const dispatch = async (ex: Exchange): Promise<void> => {
    try {
      const found = router.find(ex.method, ex.path);
      if (found.kind === 'none') {
        return noHandler(ex);
      }
      if (found.kind === 'method') {
        return wrongMethod(ex, found.allowed);
      }
      ex.params = found.match.params;
      ex.major = version.major;
      if (found.match.route.auth !== false) {
        ex.principal = authenticate(ex, state, ctx.security);
      }
      await found.match.route.handler(ex, ctx);
    } catch (err) {
      if (err instanceof EsError) {
        ex.send(
          err.status,
          err.locate
            ? locateInBody(err.body, ex.body.toString('utf8'), err.locate)
            : err.body,
          err.headers
        );
        return;
      }
      const reason = err instanceof Error ? err.message : String(err);
      ex.send(500, {
        error: {
          root_cause: [{ type: 'exception', reason }],
          type: 'exception',
          reason
        },
        status: 500
      });
    }
  };

  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void dispatch(
        new Exchange(req, res, Buffer.concat(chunks), productHeader)
      );
    });
    req.on('error', () => res.destroy());
  };

  const loadIndex: ElasticsearchSandbox['loadIndex'] = (
    name,
    mappings,
    docs,
    settings = {}
  ) => {
    state.indices.delete(name);
    const index = state.createIndex(name, mappings, settings);
    let n = 0;
    for (const d of docs) {
      indexDoc(ctx, index, d.id, d.source);
      n++;
    }
    index.refresh();
    return n;
  };

  return { handler, state, loadIndex };
}

export type { ClusterState } from './state';
