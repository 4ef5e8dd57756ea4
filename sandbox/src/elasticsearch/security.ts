/** `/_security/api_key` and `/_security/_authenticate`. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { requireCluster } from './auth';
import type { Context } from './context';
import { esError, illegalArgument } from './errors';
import type { Exchange } from './exchange';
import type { JsonObject } from './json-value';
import type { RoleDescriptor } from './principal';

const roleDescriptorSchema = z
  .object({
    cluster: z.array(z.string()).optional(),
    indices: z
      .array(
        z
          .object({
            names: z.union([z.string(), z.array(z.string())]),
            privileges: z.array(z.string())
          })
          .passthrough()
      )
      .optional()
  })
  .passthrough();

const createKeySchema = z
  .object({
    name: z.string().optional(),
    expiration: z.string().optional(),
    role_descriptors: z.record(z.string(), roleDescriptorSchema).optional(),
    metadata: z.record(z.string(), z.unknown()).optional()
  })
  .passthrough();

function securityDisabled(): never {
  throw esError(500, {
    type: 'illegal_state_exception',
    reason:
      'Security must be explicitly enabled when using a [basic] license. Enable security by setting [xpack.security.enabled] to [true] in the elasticsearch.yml file and restart the node.'
  });
}

function durationMs(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!m) {
    throw illegalArgument(
      `failed to parse setting [expiration] with value [${text}] as a time value: unit is missing or unrecognized`
    );
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    m[2] as 'ms'
  ];
  return Number(m[1]) * unit;
}

export function createApiKey(ex: Exchange, ctx: Context): void {
  if (!ctx.security.enabled) {
    securityDisabled();
  }
  requireCluster(ex, ctx.version, 'createApiKey');
  const parsed = createKeySchema.safeParse(ex.json() ?? {});
  if (!parsed.success) {
    throw illegalArgument(
      `invalid API key request: ${parsed.error.issues[0]?.message ?? 'bad body'}`
    );
  }
  const body = parsed.data;
  if (!body.name) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: api key name is required;'
    });
  }
  const id = randomBytes(15).toString('base64url');
  const key = randomBytes(16).toString('base64url');
  const roles: Record<string, RoleDescriptor> = {};
  for (const [name, rd] of Object.entries(body.role_descriptors ?? {})) {
    roles[name] = {
      cluster: rd.cluster ?? [],
      indices: (rd.indices ?? []).map(i => ({
        names: Array.isArray(i.names) ? i.names : [i.names],
        privileges: i.privileges
      }))
    };
  }
  const owner = ex.principal?.username ?? 'elastic';
  const now = Date.now();
  const expiration = body.expiration
    ? now + durationMs(body.expiration)
    : undefined;
  ctx.state.apiKeys.set(id, {
    id,
    name: body.name,
    key,
    owner,
    created: now,
    ...(expiration !== undefined ? { expiration } : {}),
    invalidated: false,
    roleDescriptors: roles
  });
  const answer: JsonObject = { id, name: body.name };
  if (expiration !== undefined) {
    answer['expiration'] = expiration;
  }
  answer['api_key'] = key;
  if (ctx.version.major >= 8) {
    answer['encoded'] = Buffer.from(`${id}:${key}`).toString('base64');
  }
  ex.send(200, answer);
}

export function invalidateApiKey(ex: Exchange, ctx: Context): void {
  if (!ctx.security.enabled) {
    securityDisabled();
  }
  const body = ex.json() ?? {};
  const ids = [
    ...(Array.isArray(body['ids']) ? body['ids'] : []),
    ...(typeof body['id'] === 'string' ? [body['id']] : [])
  ];
  const names = typeof body['name'] === 'string' ? [body['name']] : [];
  const invalidated: string[] = [];
  for (const rec of ctx.state.apiKeys.values()) {
    if (
      (ids.includes(rec.id) || names.includes(rec.name)) &&
      !rec.invalidated
    ) {
      rec.invalidated = true;
      invalidated.push(rec.id);
    }
  }
  ex.send(200, {
    invalidated_api_keys: invalidated,
    previously_invalidated_api_keys: [],
    error_count: 0
  });
}

export function authenticateInfo(ex: Exchange, ctx: Context): void {
  if (!ctx.security.enabled) {
    securityDisabled();
  }
  const p = ex.principal;
  if (!p) {
    return securityDisabled();
  }
  if (p.kind === 'user') {
    ex.send(200, {
      username: p.username,
      roles: p.roles,
      full_name: null,
      email: null,
      metadata: { _reserved: true },
      enabled: true,
      authentication_realm: { name: 'reserved', type: 'reserved' },
      lookup_realm: { name: 'reserved', type: 'reserved' },
      authentication_type: 'realm'
    });
    return;
  }
  ex.send(200, {
    username: p.username,
    roles: [],
    full_name: null,
    email: null,
    metadata: {},
    enabled: true,
    authentication_realm: { name: '_es_api_key', type: '_es_api_key' },
    lookup_realm: { name: '_es_api_key', type: '_es_api_key' },
    authentication_type: 'api_key',
    api_key: { id: p.key.id, name: p.key.name }
  });
}
