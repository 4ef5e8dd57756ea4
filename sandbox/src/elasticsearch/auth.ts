/**
 * Security: who is calling (HTTP Basic for users, `ApiKey` for API keys) and whether they may
 * run an action on some indices. Error bodies and WWW-Authenticate headers follow each version.
 */
import { timingSafeEqual } from 'node:crypto';
import { esError, type EsError } from './errors';
import type { Exchange } from './exchange';
import { aliasTargets } from './resolve';
import type { Principal } from './principal';
import type { ClusterState } from './state';
import { atLeast, type EsVersion } from './version';

export interface SecurityOptions {
  enabled: boolean;
  users: ReadonlyMap<string, string>;
}

export function wwwAuthenticate(version: EsVersion): string | string[] {
  const basic = atLeast(version, 8, 15)
    ? 'Basic realm="security", charset="UTF-8"'
    : 'Basic realm="security" charset="UTF-8"';
  // 8.x has the token and API key services on, so it advertises them; 7.x sends Basic alone, as a string.
  return version.major >= 8
    ? [basic, 'Bearer realm="security"', 'ApiKey']
    : basic;
}

export function unauthenticated(version: EsVersion, reason: string): EsError {
  const challenge = wwwAuthenticate(version);
  return esError(
    401,
    {
      type: 'security_exception',
      reason,
      header: { 'WWW-Authenticate': challenge }
    },
    {
      headers: { 'WWW-Authenticate': challenge }
    }
  );
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Returns the caller, or throws the 401 ES gives. */
export function authenticate(
  ex: Exchange,
  state: ClusterState,
  security: SecurityOptions
): Principal | null {
  if (!security.enabled) {
    return null;
  }
  const header = ex.header('authorization');
  const v = state.version;
  if (!header) {
    throw unauthenticated(
      v,
      `missing authentication credentials for REST request [${ex.uri}]`
    );
  }
  const space = header.indexOf(' ');
  const scheme = (space > 0 ? header.slice(0, space) : header).toLowerCase();
  const token = space > 0 ? header.slice(space + 1).trim() : '';
  if (scheme === 'basic') {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    const expected = security.users.get(user);
    if (expected === undefined || !safeEqual(expected, password)) {
      throw unauthenticated(
        v,
        `unable to authenticate user [${user}] for REST request [${ex.uri}]`
      );
    }
    return { kind: 'user', username: user, roles: ['superuser'] };
  }
  if (scheme === 'apikey') {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const record =
      colon > 0 ? state.apiKeys.get(decoded.slice(0, colon)) : undefined;
    const valid =
      record !== undefined &&
      !record.invalidated &&
      (record.expiration === undefined || record.expiration > Date.now()) &&
      safeEqual(record.key, decoded.slice(colon + 1));
    if (!valid || !record) {
      throw unauthenticated(
        v,
        'unable to authenticate with provided credentials and anonymous access is not allowed for this request'
      );
    }
    return { kind: 'api_key', username: record.owner, key: record };
  }
  throw unauthenticated(
    v,
    'unable to authenticate with provided credentials and anonymous access is not allowed for this request'
  );
}

/** Index actions and the privileges that grant them, in the order ES lists them. */
export const INDEX_ACTIONS = {
  search: { action: 'indices:data/read/search', grantedBy: ['read', 'all'] },
  get: { action: 'indices:data/read/get', grantedBy: ['read', 'all'] },
  pit: {
    action: 'indices:data/read/open_point_in_time',
    grantedBy: ['read', 'all']
  },
  index: {
    action: 'indices:data/write/index',
    grantedBy: ['create_doc', 'create', 'index', 'write', 'all']
  },
  update: {
    action: 'indices:data/write/update',
    grantedBy: ['index', 'write', 'all']
  },
  delete: {
    action: 'indices:data/write/delete',
    grantedBy: ['delete', 'write', 'all']
  },
  bulk: {
    action: 'indices:data/write/bulk[s]',
    grantedBy: ['create_doc', 'create', 'index', 'write', 'all']
  },
  deleteByQuery: {
    action: 'indices:data/write/delete/byquery',
    grantedBy: ['delete', 'write', 'all']
  },
  createIndex: {
    action: 'indices:admin/create',
    grantedBy: ['create_index', 'manage', 'all']
  },
  deleteIndex: {
    action: 'indices:admin/delete',
    grantedBy: ['delete_index', 'manage', 'all']
  },
  getIndex: {
    action: 'indices:admin/get',
    grantedBy: ['view_index_metadata', 'manage', 'all']
  },
  getMapping: {
    action: 'indices:admin/mappings/get',
    grantedBy: ['view_index_metadata', 'manage', 'all']
  },
  putMapping: {
    action: 'indices:admin/mapping/put',
    grantedBy: ['manage', 'all']
  },
  settings: {
    action: 'indices:admin/settings/update',
    grantedBy: ['manage', 'all']
  },
  getSettings: {
    action: 'indices:monitor/settings/get',
    grantedBy: ['view_index_metadata', 'monitor', 'manage', 'all']
  },
  aliases: { action: 'indices:admin/aliases', grantedBy: ['manage', 'all'] },
  refresh: {
    action: 'indices:admin/refresh',
    grantedBy: ['maintenance', 'manage', 'all']
  },
  monitor: {
    action: 'indices:monitor/stats',
    grantedBy: ['monitor', 'manage', 'all']
  }
} as const;
export type IndexAction = keyof typeof INDEX_ACTIONS;

export const CLUSTER_ACTIONS = {
  main: {
    action: 'cluster:monitor/main',
    grantedBy: ['monitor', 'manage', 'all']
  },
  health: {
    action: 'cluster:monitor/health',
    grantedBy: ['monitor', 'manage', 'all']
  },
  tasks: {
    action: 'cluster:monitor/task/get',
    grantedBy: ['monitor', 'manage', 'all']
  },
  nodesStats: {
    action: 'cluster:monitor/nodes/stats',
    grantedBy: ['monitor', 'manage', 'all']
  },
  closePit: {
    action: 'indices:data/read/close_point_in_time',
    grantedBy: ['read', 'all']
  },
  createApiKey: {
    action: 'cluster:admin/xpack/security/api_key/create',
    grantedBy: [
      'manage_own_api_key',
      'manage_api_key',
      'manage_security',
      'all'
    ]
  },
  authenticate: {
    action: 'cluster:admin/xpack/security/user/authenticate',
    grantedBy: [] as string[]
  }
} as const;
export type ClusterAction = keyof typeof CLUSTER_ACTIONS;

function patternMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) {
    return pattern === name;
  }
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`
  );
  return re.test(name);
}

/** May this caller run `action` on `index`? Users here are superusers; keys may be limited. */
export function mayAccessIndex(
  principal: Principal | null,
  action: IndexAction,
  index: string
): boolean {
  if (!principal || principal.kind === 'user') {
    return true;
  }
  const roles = Object.values(principal.key.roleDescriptors);
  if (roles.length === 0) {
    return true;
  }
  const granting = INDEX_ACTIONS[action].grantedBy as readonly string[];
  return roles.some(r =>
    r.indices.some(
      ip =>
        ip.names.some(n => patternMatch(n, index)) &&
        ip.privileges.some(p => granting.includes(p))
    )
  );
}

function mayRunCluster(
  principal: Principal | null,
  action: ClusterAction
): boolean {
  if (!principal || principal.kind === 'user') {
    return true;
  }
  const roles = Object.values(principal.key.roleDescriptors);
  if (roles.length === 0) {
    return true;
  }
  const granting = CLUSTER_ACTIONS[action].grantedBy as readonly string[];
  if (granting.length === 0) {
    return true;
  }
  if (action === 'closePit') {
    return true;
  }
  return roles.some(r => r.cluster.some(p => granting.includes(p)));
}

function who(principal: Principal, version: EsVersion): string {
  if (principal.kind === 'api_key') {
    return `API key id [${principal.key.id}] of user [${principal.username}]`;
  }
  return `user [${principal.username}] with ${version.major >= 8 ? 'effective roles' : 'roles'} [${principal.roles.join(',')}]`;
}

export function forbidden(reason: string): EsError {
  return esError(403, { type: 'security_exception', reason });
}

export function requireIndices(
  ex: Exchange,
  version: EsVersion,
  action: IndexAction,
  indices: string[]
): void {
  const p = ex.principal;
  if (!p) {
    return;
  }
  const denied = indices.filter(i => !mayAccessIndex(p, action, i));
  if (denied.length === 0) {
    return;
  }
  const spec = INDEX_ACTIONS[action];
  throw forbidden(
    `action [${spec.action}] is unauthorized for ${who(p, version)} on indices [${denied.join(',')}], this action is granted by the index privileges [${spec.grantedBy.join(',')}]`
  );
}

export function requireCluster(
  ex: Exchange,
  version: EsVersion,
  action: ClusterAction
): void {
  const p = ex.principal;
  if (!p || mayRunCluster(p, action)) {
    return;
  }
  const spec = CLUSTER_ACTIONS[action];
  throw forbidden(
    `action [${spec.action}] is unauthorized for ${who(p, version)}, this action is granted by the cluster privileges [${spec.grantedBy.join(',')}]`
  );
}

/**
 * ES silently narrows wildcard expressions to the indices a caller may see, and refuses
 * explicit names it may not (before checking that they exist). Call it before resolving
 * explicit names, and use `narrow` on the result of a wildcard resolution.
 */
export function authorizeExplicit(
  ex: Exchange,
  state: ClusterState,
  action: IndexAction,
  expression: string | undefined
): void {
  const p = ex.principal;
  if (!p || expression === undefined) {
    return;
  }
  const denied: string[] = [];
  for (const raw of expression.split(',')) {
    const name = raw.trim();
    if (
      !name ||
      name === '_all' ||
      name.includes('*') ||
      name.startsWith('-')
    ) {
      continue;
    }
    if (mayAccessIndex(p, action, name)) {
      continue;
    }
    const targets = aliasTargets(state, name);
    if (
      targets.length > 0 &&
      targets.every(t => mayAccessIndex(p, action, t.name))
    ) {
      continue;
    }
    denied.push(name);
  }
  if (denied.length > 0) {
    requireIndices(ex, state.version, action, denied);
  }
}

export function narrow<T extends { name: string }>(
  ex: Exchange,
  action: IndexAction,
  resolved: T[]
): T[] {
  const p = ex.principal;
  return p ? resolved.filter(i => mayAccessIndex(p, action, i.name)) : resolved;
}
