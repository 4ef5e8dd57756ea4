/**
 * Path routing the way ES's path trie behaves: literal segments win over `{param}` segments;
 * a known path with the wrong method is 405 with the allowed methods; an unknown path is
 * 400 "no handler found".
 */
import type { Context, Handler } from './context';
import type { Exchange } from './exchange';

export interface Route {
  methods: string[];
  pattern: string;
  handler: Handler;
  /** Routes that answer before authentication (none in ES except preflight); default true. */
  auth?: boolean;
}

interface Compiled extends Route {
  segments: string[];
  literalMask: boolean[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export type RouteResult =
  | { kind: 'match'; match: Match }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: Compiled[] = [];

  add(
    methods: string[],
    pattern: string,
    handler: Handler,
    opts: { auth?: boolean } = {}
  ): this {
    const segments = pattern.split('/').filter(Boolean);
    this.routes.push({
      methods,
      pattern,
      handler,
      ...opts,
      segments,
      literalMask: segments.map(s => !s.startsWith('{'))
    });
    return this;
  }

  find(method: string, path: string): RouteResult {
    let parts: string[];
    try {
      parts = path
        .split('/')
        .filter(Boolean)
        .map(s => decodeURIComponent(s));
    } catch {
      return { kind: 'none' };
    }
    const candidates: { route: Compiled; rank: string }[] = [];
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) {
        continue;
      }
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        if (route.literalMask[i] && route.segments[i] !== parts[i]) {
          ok = false;
        }
      }
      // Rank literal positions left to right, as the trie prefers a literal at the first fork.
      if (ok) {
        candidates.push({
          route,
          rank: route.literalMask.map(l => (l ? '1' : '0')).join('')
        });
      }
    }
    if (candidates.length === 0) {
      return { kind: 'none' };
    }
    const best = candidates.reduce((a, b) => (b.rank > a.rank ? b : a)).rank;
    const sameShape = candidates.filter(c => c.rank === best);
    const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
    for (const want of wanted) {
      for (const { route } of sameShape) {
        if (route.methods.includes(want)) {
          const params: Record<string, string> = {};
          route.segments.forEach((seg, i) => {
            if (!route.literalMask[i]) {
              params[seg.slice(1, -1)] = parts[i] as string;
            }
          });
          return { kind: 'match', match: { route, params } };
        }
      }
    }
    const allowed = [...new Set(sameShape.flatMap(c => c.route.methods))];
    return { kind: 'method', allowed };
  }
}

export function noHandler(ex: Exchange): void {
  ex.send(400, {
    error: `no handler found for uri [${ex.uri}] and method [${ex.method}]`,
    status: 400
  });
}

export function wrongMethod(ex: Exchange, allowed: string[]): void {
  ex.send(
    405,
    {
      error: `Incorrect HTTP method for uri [${ex.uri}] and method [${ex.method}], allowed: [${allowed.join(', ')}]`,
      status: 405
    },
    { Allow: allowed.join(',') }
  );
}

export type { Context };

/** `POST /{index}/{type}`: 7.x refuses any type but _doc; 8.x has no handler for it outside compatibility mode. */
export function typedIndexRoute(ex: Exchange, ctx: Context): void {
  if (ctx.version.major === 7) {
    const reason = `Invalid type: expecting [_doc] but got [${ex.params['type'] ?? ''}]`;
    ex.send(400, {
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason }],
        type: 'illegal_argument_exception',
        reason
      },
      status: 400
    });
    return;
  }
  ex.send(400, {
    error: `no handler found for uri [${ex.uri}] and method [${ex.method}]`
  });
}
