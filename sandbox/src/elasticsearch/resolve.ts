/**
 * Index expressions: comma lists, wildcards, aliases, `_all`, exclusions with `-`, and the
 * hidden / dot-prefixed rule (wildcards skip them unless expand_wildcards asks).
 */
import { illegalArgument, indexNotFound, invalidIndexName } from './errors';
import type { IndexData } from './index-data';
import type { ClusterState } from './state';

export interface ResolveOptions {
  /** expand_wildcards=all|hidden */
  expandHidden?: boolean;
  /** Wildcards that match nothing are fine (true for search, false for PIT open). */
  allowNoIndices?: boolean;
  ignoreUnavailable?: boolean;
}

function wildcardRegex(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

export function optionsFromQuery(
  query: URLSearchParams,
  defaults: ResolveOptions = {}
): ResolveOptions {
  const ew = query.get('expand_wildcards') ?? '';
  const opts: ResolveOptions = { ...defaults };
  if (/\b(all|hidden)\b/.test(ew)) {
    opts.expandHidden = true;
  }
  const anI = query.get('allow_no_indices');
  if (anI !== null) {
    opts.allowNoIndices = anI !== 'false';
  }
  const iu = query.get('ignore_unavailable');
  if (iu !== null) {
    opts.ignoreUnavailable = iu !== 'false';
  }
  return opts;
}

export function aliasTargets(state: ClusterState, alias: string): IndexData[] {
  const out: IndexData[] = [];
  for (const idx of state.indices.values()) {
    if (idx.aliases.has(alias)) {
      out.push(idx);
    }
  }
  return out;
}

export function aliasNames(state: ClusterState): Set<string> {
  const names = new Set<string>();
  for (const idx of state.indices.values()) {
    for (const a of idx.aliases.keys()) {
      names.add(a);
    }
  }
  return names;
}

/** Resolves to concrete indices in creation order, without duplicates. */
export function resolveIndices(
  state: ClusterState,
  expression: string | undefined,
  opts: ResolveOptions = {}
): IndexData[] {
  const allowNo = opts.allowNoIndices ?? true;
  const expr =
    expression === undefined || expression === '' || expression === '_all'
      ? '*'
      : expression;
  const chosen = new Set<IndexData>();
  for (const rawPart of expr.split(',')) {
    const part = rawPart.trim();
    if (!part) {
      continue;
    }
    if (part.startsWith('-') && chosen.size > 0) {
      const re = wildcardRegex(part.slice(1));
      for (const idx of [...chosen]) {
        if (re.test(idx.name)) {
          chosen.delete(idx);
        }
      }
      continue;
    }
    if (part.includes('*')) {
      const re = wildcardRegex(part);
      const showHidden = opts.expandHidden || part.startsWith('.');
      for (const idx of state.indices.values()) {
        if (re.test(idx.name) && (showHidden || !idx.hidden)) {
          chosen.add(idx);
        }
      }
      for (const alias of aliasNames(state)) {
        if (!re.test(alias) || (alias.startsWith('.') && !showHidden)) {
          continue;
        }
        for (const idx of aliasTargets(state, alias)) {
          chosen.add(idx);
        }
      }
      continue;
    }
    const direct = state.indices.get(part);
    if (direct) {
      chosen.add(direct);
      continue;
    }
    const viaAlias = aliasTargets(state, part);
    if (viaAlias.length > 0) {
      for (const idx of viaAlias) {
        chosen.add(idx);
      }
      continue;
    }
    if (!opts.ignoreUnavailable) {
      throw indexNotFound(part);
    }
  }
  if (chosen.size === 0 && !allowNo) {
    throw indexNotFound(expr);
  }
  const order = [...state.indices.values()];
  return [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** The single index a write goes to: a concrete index, or an alias with one write index. */
export function writeTarget(
  state: ClusterState,
  name: string
): IndexData | undefined {
  const direct = state.indices.get(name);
  if (direct) {
    return direct;
  }
  const targets = aliasTargets(state, name);
  if (targets.length === 0) {
    return undefined;
  }
  const explicit = targets.filter(
    t => t.aliases.get(name)?.is_write_index === true
  );
  if (explicit.length === 1) {
    return explicit[0];
  }
  if (
    targets.length === 1 &&
    targets[0]?.aliases.get(name)?.is_write_index !== false
  ) {
    return targets[0];
  }
  throw illegalArgument(
    `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`
  );
}

const FORBIDDEN = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#', ':'];

export function validateIndexName(name: string): void {
  if (name !== name.toLowerCase()) {
    throw invalidIndexName(name, 'must be lowercase');
  }
  if (/^[_\-+]/.test(name)) {
    throw invalidIndexName(name, "must not start with '_', '-', or '+'");
  }
  if (name === '.' || name === '..') {
    throw invalidIndexName(name, "must not be '.' or '..'");
  }
  for (const ch of FORBIDDEN) {
    if (name.includes(ch)) {
      throw invalidIndexName(
        name,
        `must not contain the following characters [${FORBIDDEN.map(c => (c === ' ' ? ' ' : c)).join(', ')}]`
      );
    }
  }
  if (Buffer.byteLength(name) > 255) {
    throw invalidIndexName(
      name,
      'index name is too long, (' + Buffer.byteLength(name) + ' > 255)'
    );
  }
}
