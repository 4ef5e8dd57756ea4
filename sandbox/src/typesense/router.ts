/**
 * Route table and matching. Each route's authorisation action is derived from its path the
 * way the engine derives it: `resource:operation`, with collection sub-resources treated as
 * top-level resources, search and multi_search as `documents:search`.
 */
import type http from 'node:http';
import type { Reply } from './http-io';

export interface RequestContext {
  method: string;
  params: Record<string, string>;
  query: Map<string, string>;
  body: string;
  req: http.IncomingMessage;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  parts: string[];
  action: string;
  handler: Handler;
  /** `/health` is answered without a key. */
  public: boolean;
  /** Bucket for `/stats.json`. */
  kind: 'search' | 'write' | 'import' | 'delete' | 'other';
  pattern: string;
}

export function actionFor(method: string, parts: string[]): string {
  let resource = '';
  let hasIdentifier = false;
  parts.forEach((p, i) => {
    if (i === 0 && parts.length > 2 && p === 'collections') {
      return;
    }
    if (p.startsWith(':')) {
      hasIdentifier = true;
    } else {
      resource = resource === '' ? p : `${resource}/${p}`;
    }
  });
  if (resource === 'multi_search' || resource === 'documents/search') {
    return 'documents:search';
  }
  if (resource === 'documents/import' || resource === 'documents/export') {
    return `documents:${resource.slice(10)}`;
  }
  const operation =
    method === 'GET'
      ? hasIdentifier
        ? 'get'
        : 'list'
      : method === 'POST'
        ? 'create'
        : method === 'PUT'
          ? 'upsert'
          : method === 'DELETE'
            ? 'delete'
            : method === 'PATCH'
              ? 'update'
              : 'unknown';
  return `${resource}:${operation}`;
}

export class Router {
  private readonly routes: Route[] = [];

  add(
    method: string,
    pattern: string,
    handler: Handler,
    opts: { public?: boolean; kind?: Route['kind'] } = {}
  ): this {
    const parts = pattern.split('/').filter(p => p !== '');
    this.routes.push({
      method,
      parts,
      action: actionFor(method, parts),
      handler,
      public: opts.public ?? false,
      kind:
        opts.kind ??
        (method === 'GET' ? 'other' : method === 'DELETE' ? 'delete' : 'write'),
      pattern
    });
    return this;
  }

  /** Literal segments win over parameters, so `/documents/search` is never read as an id. */
  match(
    method: string,
    path: string
  ): { route: Route; params: Record<string, string> } | null {
    const segs = path.split('/').filter(p => p !== '');
    let best: {
      route: Route;
      params: Record<string, string>;
      literals: number;
    } | null = null;
    for (const route of this.routes) {
      if (route.method !== method || route.parts.length !== segs.length) {
        continue;
      }
      const params: Record<string, string> = {};
      let literals = 0;
      let ok = true;
      for (let i = 0; i < segs.length && ok; i++) {
        const part = route.parts[i] as string;
        const seg = segs[i] as string;
        if (part.startsWith(':')) {
          try {
            params[part.slice(1)] = decodeURIComponent(seg);
          } catch {
            params[part.slice(1)] = seg;
          }
        } else if (part === seg) {
          literals++;
        } else {
          ok = false;
        }
      }
      if (ok && (!best || literals > best.literals)) {
        best = { route, params, literals };
      }
    }
    return best ? { route: best.route, params: best.params } : null;
  }
}
