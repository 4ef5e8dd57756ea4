/** Index lifecycle, mappings, settings and refresh. */
import { authorizeExplicit, narrow, requireIndices } from './auth';
import type { Context } from './context';
import {
  esError,
  illegalArgument,
  indexNotFound,
  resourceAlreadyExists
} from './errors';
import type { Exchange } from './exchange';
import { isObject, type Json, type JsonObject } from './json-value';
import type { IndexData } from './index-data';
import {
  aliasTargets,
  optionsFromQuery,
  resolveIndices,
  validateIndexName
} from './resolve';
import { checkSettings, flattenSettings } from './settings';
import { modeDefaults } from './index-modes';
import { createdVersionId } from './version';

export function createIndex(ex: Exchange, ctx: Context): void {
  const name = ex.params['index'] as string;
  requireIndices(ex, ctx.version, 'createIndex', [name]);
  validateIndexName(name);
  const existing = ctx.state.indices.get(name);
  if (existing) {
    throw resourceAlreadyExists(name, existing.uuid);
  }
  if (aliasTargets(ctx.state, name).length > 0) {
    throw esError(400, {
      type: 'invalid_index_name_exception',
      reason: `Invalid index name [${name}], already exists as alias`,
      index_uuid: '_na_',
      index: name
    });
  }
  const body = ex.json() ?? {};
  const settingsBody = body['settings'];
  const settings = isObject(settingsBody) ? flattenSettings(settingsBody) : {};
  checkSettings(settings, false);
  // One shard always; replicas are kept (they decide health and the write's _shards.total).
  delete settings['number_of_shards'];
  const mappings = body['mappings'];
  if (mappings !== undefined && !isObject(mappings)) {
    throw esError(400, {
      type: 'mapper_parsing_exception',
      reason: 'Failed to parse mapping: mappings must be an object'
    });
  }
  const index = ctx.state.createIndex(name, mappings, settings);
  const aliases = body['aliases'];
  if (isObject(aliases)) {
    for (const [alias, props] of Object.entries(aliases)) {
      index.aliases.set(alias, isObject(props) ? props : {});
    }
  }
  ex.send(200, { acknowledged: true, shards_acknowledged: true, index: name });
}

export function deleteIndex(ex: Exchange, ctx: Context): void {
  const expr = ex.params['index'] as string;
  const parts = expr.split(',');
  if (
    ctx.version.major >= 8 &&
    parts.some(p => p.includes('*') || p === '_all')
  ) {
    throw illegalArgument(
      'Wildcard expressions or all indices are not allowed'
    );
  }
  for (const p of parts) {
    if (!ctx.state.indices.has(p) && aliasTargets(ctx.state, p).length > 0) {
      throw illegalArgument(
        `The provided expression [${p}] matches an alias, specify the corresponding concrete indices instead.`
      );
    }
  }
  authorizeExplicit(ex, ctx.state, 'deleteIndex', expr);
  const targets = narrow(
    ex,
    'deleteIndex',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  for (const idx of targets) {
    ctx.state.indices.delete(idx.name);
  }
  ex.send(200, { acknowledged: true });
}

function targetsFor(
  ex: Exchange,
  ctx: Context,
  action:
    | 'getIndex'
    | 'getMapping'
    | 'getSettings'
    | 'settings'
    | 'refresh'
    | 'putMapping'
): IndexData[] {
  const expr = ex.params['index'];
  authorizeExplicit(ex, ctx.state, action, expr);
  return narrow(
    ex,
    action,
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
}

export function getIndex(ex: Exchange, ctx: Context): void {
  const targets = targetsFor(ex, ctx, 'getIndex');
  const out: JsonObject = {};
  for (const idx of targets) {
    const aliases: JsonObject = {};
    for (const [a, props] of idx.aliases) {
      aliases[a] = props as JsonObject;
    }
    out[idx.name] = {
      aliases,
      mappings: idx.mapping.toJSON(),
      settings: idx.settingsJson(createdVersionId(ctx.version))
    };
  }
  ex.send(200, out);
}

export function indexExists(ex: Exchange, ctx: Context): void {
  try {
    const found = resolveIndices(
      ctx.state,
      ex.params['index'],
      optionsFromQuery(ex.query, { allowNoIndices: false })
    );
    ex.sendRaw(found.length > 0 ? 200 : 404, '', 'application/json');
  } catch {
    ex.sendRaw(404, '', 'application/json');
  }
}

export function getMapping(ex: Exchange, ctx: Context): void {
  const out: JsonObject = {};
  for (const idx of targetsFor(ex, ctx, 'getMapping')) {
    out[idx.name] = { mappings: idx.mapping.toJSON() };
  }
  ex.send(200, out);
}

export function putMapping(ex: Exchange, ctx: Context): void {
  const targets = targetsFor(ex, ctx, 'putMapping');
  if (targets.length === 0) {
    throw indexNotFound(ex.params['index'] ?? '_all');
  }
  const body = ex.json();
  if (!body) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: mapping source is missing;'
    });
  }
  for (const idx of targets) {
    idx.mapping.merge(body);
  }
  ex.send(200, { acknowledged: true });
}

/**
 * `GET /{index}/_settings[/{name}]`: `include_defaults` adds the index-mode defaults (a real
 * node lists every default; these are the ones searchbook reads), `flat_settings` prints
 * dotted keys, a name list keeps only those settings.
 */
export function getSettings(ex: Exchange, ctx: Context): void {
  const out: JsonObject = {};
  const names = ex.params['name']?.split(',');
  const flat = ex.flag('flat_settings');
  const shown = (group: JsonObject): JsonObject | undefined => {
    const dotted = flatten(group);
    const kept = Object.fromEntries(
      Object.entries(dotted).filter(
        ([key]) => !names || names.some(n => matches(n, key))
      )
    );
    if (Object.keys(kept).length === 0) {
      return undefined;
    }
    return flat ? kept : nest(kept);
  };
  for (const idx of targetsFor(ex, ctx, 'getSettings')) {
    const settings = shown(idx.settingsJson(createdVersionId(ctx.version)));
    const defaults = ex.flag('include_defaults')
      ? shown(modeDefaults(idx))
      : undefined;
    if (!settings && !defaults && names) {
      continue;
    }
    out[idx.name] = {
      settings: settings ?? {},
      ...(defaults ? { defaults } : {})
    };
  }
  ex.send(200, out);
}

function flatten(group: JsonObject, prefix = ''): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(group)) {
    if (isObject(value)) {
      Object.assign(out, flatten(value, `${prefix}${key}.`));
    } else {
      out[`${prefix}${key}`] = value;
    }
  }
  return out;
}

function nest(flat: Record<string, Json>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) {
      const next = at[part];
      at = isObject(next) ? next : (at[part] = {});
    }
    at[parts[parts.length - 1] as string] = value;
  }
  return out;
}

/** A settings name as the API takes it: exact, or with `*` wildcards. */
function matches(pattern: string, key: string): boolean {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*/g, '.*')}$`).test(key);
}

export function putSettings(ex: Exchange, ctx: Context): void {
  const targets = targetsFor(ex, ctx, 'settings');
  const body = ex.json();
  if (!body) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: no settings to update;'
    });
  }
  const settings = flattenSettings(
    isObject(body['settings']) ? body['settings'] : body
  );
  for (const idx of targets) {
    checkSettings(settings, true, idx);
  }
  for (const idx of targets) {
    for (const [k, v] of Object.entries(settings)) {
      if (v === 'null') {
        delete idx.settings[k];
      } else {
        idx.settings[k] = v;
      }
    }
  }
  ex.send(200, { acknowledged: true });
}

export function refresh(ex: Exchange, ctx: Context): void {
  const targets = targetsFor(ex, ctx, 'refresh');
  for (const idx of targets) {
    idx.refresh();
  }
  ex.send(200, {
    _shards: {
      total: targets.reduce((n, idx) => n + 1 + idx.replicas, 0),
      successful: targets.length,
      failed: 0
    }
  });
}
