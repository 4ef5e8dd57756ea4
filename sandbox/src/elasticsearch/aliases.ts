/** Aliases: `POST /_aliases`, `PUT|DELETE /i/_alias/a`, `GET /_alias[/a]`, `GET /i/_alias[/a]`. */
import { authorizeExplicit, narrow } from './auth';
import type { Context } from './context';
import { esError, illegalArgument, indexNotFound } from './errors';
import type { Exchange } from './exchange';
import { isObject, type Json, type JsonObject } from './json-value';
import type { AliasProps } from './index-data';
import { optionsFromQuery, resolveIndices } from './resolve';

function list(v: Json | undefined): string[] {
  if (typeof v === 'string') {
    return [v];
  }
  if (Array.isArray(v)) {
    return v.filter((x): x is string => typeof x === 'string');
  }
  return [];
}

function aliasMissing(names: string[]): never {
  const text =
    names.length === 1
      ? `alias [${names[0]}] missing`
      : `aliases [${names.join(',')}] missing`;
  throw esError(404, {
    type: 'aliases_not_found_exception',
    reason: text,
    'resource.type': 'aliases',
    'resource.id': names.join(',')
  });
}

function propsOf(action: JsonObject): AliasProps {
  const props: AliasProps = {};
  if (typeof action['is_write_index'] === 'boolean') {
    props.is_write_index = action['is_write_index'];
  }
  if (typeof action['is_hidden'] === 'boolean') {
    props.is_hidden = action['is_hidden'];
  }
  if (isObject(action['filter'])) {
    props.filter = action['filter'];
  }
  return props;
}

export function updateAliases(ex: Exchange, ctx: Context): void {
  const body = ex.json();
  const actions = body?.['actions'];
  if (!Array.isArray(actions) || actions.length === 0) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: No action specified;'
    });
  }
  // Validate everything first: ES applies the batch atomically.
  const steps: (() => void)[] = [];
  for (const entry of actions) {
    if (!isObject(entry)) {
      throw illegalArgument('[aliases] failed to parse field [actions]');
    }
    const [kind, spec] = Object.entries(entry)[0] ?? [];
    if (!kind || !isObject(spec)) {
      throw illegalArgument('[aliases] failed to parse field [actions]');
    }
    const indexExpr = [...list(spec['index']), ...list(spec['indices'])].join(
      ','
    );
    if (!indexExpr) {
      throw esError(400, {
        type: 'action_request_validation_exception',
        reason: 'Validation Failed: 1: One of [index] or [indices] is required;'
      });
    }
    authorizeExplicit(ex, ctx.state, 'aliases', indexExpr);
    const targets = narrow(
      ex,
      'aliases',
      resolveIndices(ctx.state, indexExpr, { allowNoIndices: false })
    );
    const aliasNames = [...list(spec['alias']), ...list(spec['aliases'])];
    if (kind === 'add') {
      if (aliasNames.length === 0) {
        throw esError(400, {
          type: 'action_request_validation_exception',
          reason:
            'Validation Failed: 1: One of [alias] or [aliases] is required;'
        });
      }
      for (const a of aliasNames) {
        if (ctx.state.indices.has(a)) {
          throw esError(400, {
            type: 'invalid_alias_name_exception',
            reason: `Invalid alias name [${a}]: an index or data stream exists with the same name as the alias`,
            index_uuid: '_na_',
            index: a
          });
        }
      }
      steps.push(() =>
        targets.forEach(t =>
          aliasNames.forEach(a => t.aliases.set(a, propsOf(spec)))
        )
      );
    } else if (kind === 'remove') {
      for (const t of targets) {
        const missing = aliasNames.filter(
          a => !a.includes('*') && !t.aliases.has(a)
        );
        if (missing.length > 0 && spec['must_exist'] !== false) {
          aliasMissing(missing);
        }
      }
      steps.push(() =>
        targets.forEach(t => aliasNames.forEach(a => t.aliases.delete(a)))
      );
    } else if (kind === 'remove_index') {
      steps.push(() => targets.forEach(t => ctx.state.indices.delete(t.name)));
    } else {
      throw illegalArgument(`[aliases] unknown field [${kind}]`);
    }
  }
  steps.forEach(s => s());
  ex.send(200, {
    acknowledged: true,
    ...(ctx.version.major >= 8 && ctx.version.minor >= 14
      ? { errors: false }
      : {})
  });
}

export function putAlias(ex: Exchange, ctx: Context): void {
  const expr = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'aliases', expr);
  const targets = narrow(
    ex,
    'aliases',
    resolveIndices(ctx.state, expr, { allowNoIndices: false })
  );
  const alias = ex.params['name'] as string;
  if (ctx.state.indices.has(alias)) {
    throw esError(400, {
      type: 'invalid_alias_name_exception',
      reason: `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
      index_uuid: '_na_',
      index: alias
    });
  }
  const props = propsOf(ex.json() ?? {});
  for (const t of targets) {
    t.aliases.set(alias, props);
  }
  ex.send(200, { acknowledged: true });
}

export function deleteAlias(ex: Exchange, ctx: Context): void {
  const targets = resolveIndices(ctx.state, ex.params['index'], {
    allowNoIndices: false
  });
  const names = (ex.params['name'] as string).split(',');
  const removed = new Set<string>();
  for (const t of targets) {
    for (const a of names) {
      for (const existing of [...t.aliases.keys()]) {
        if (a === '*' || a === '_all' || existing === a) {
          t.aliases.delete(existing);
          removed.add(a);
        }
      }
    }
  }
  const missing = names.filter(n => !removed.has(n));
  if (missing.length > 0) {
    aliasMissing(missing);
  }
  ex.send(200, { acknowledged: true });
}

export function getAliases(ex: Exchange, ctx: Context): void {
  const expr = ex.params['index'];
  const wanted = ex.params['name']?.split(',');
  const targets = resolveIndices(ctx.state, expr, optionsFromQuery(ex.query));
  if (expr && targets.length === 0 && !expr.includes('*')) {
    throw indexNotFound(expr);
  }
  const out: JsonObject = {};
  const seen = new Set<string>();
  for (const t of targets) {
    const aliases: JsonObject = {};
    for (const [a, props] of t.aliases) {
      if (
        wanted &&
        !wanted.some(
          w =>
            w === a ||
            w === '*' ||
            w === '_all' ||
            (w.endsWith('*') && a.startsWith(w.slice(0, -1)))
        )
      ) {
        continue;
      }
      aliases[a] = props as JsonObject;
      seen.add(a);
    }
    if (wanted && Object.keys(aliases).length === 0) {
      continue;
    }
    out[t.name] = { aliases };
  }
  const missing = (wanted ?? []).filter(
    w => !w.includes('*') && w !== '_all' && !seen.has(w)
  );
  if (missing.length > 0) {
    const text =
      missing.length === 1
        ? `alias [${missing[0]}] missing`
        : `aliases [${missing.join(',')}] missing`;
    ex.send(404, { error: text, status: 404, ...out });
    return;
  }
  ex.send(200, out);
}
