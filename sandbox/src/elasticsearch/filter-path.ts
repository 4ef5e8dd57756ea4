/**
 * The `filter_path` query parameter: keeps only the parts of a JSON answer the listed paths
 * name (comma-separated, dotted; `*` one key of any name, `**` any depth; a leading `-`
 * drops a path instead). Objects left empty disappear, as in Elasticsearch.
 */
import type { Json } from './json-value';

type Pattern = string[];

const keyMatches = (pattern: string, key: string): boolean =>
  pattern === '*' ||
  (pattern.includes('*')
    ? new RegExp(
        `^${pattern
          .split('*')
          .map(s => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`
      ).test(key)
    : pattern === key);

/** What remains of `value` under the include patterns; undefined when nothing does. */
function include(value: Json, patterns: Pattern[]): Json | undefined {
  if (patterns.some(p => p.length === 0)) {
    return value;
  }
  if (Array.isArray(value)) {
    const kept = value
      .map(v => include(v, patterns))
      .filter((v): v is Json => v !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  const out: { [k: string]: Json } = {};
  for (const [key, v] of Object.entries(value)) {
    const next: Pattern[] = [];
    for (const p of patterns) {
      const head = p[0] as string;
      if (head === '**') {
        next.push(p);
        if (p.length > 1 && keyMatches(p[1] as string, key)) {
          next.push(p.slice(2));
        }
      } else if (keyMatches(head, key)) {
        next.push(p.slice(1));
      }
    }
    if (next.length === 0) {
      continue;
    }
    const kept = include(v, next);
    if (kept !== undefined) {
      out[key] = kept;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function exclude(value: Json, pattern: Pattern): Json {
  if (Array.isArray(value)) {
    return value.map(v => exclude(v, pattern));
  }
  if (value === null || typeof value !== 'object' || pattern.length === 0) {
    return value;
  }
  const out: { [k: string]: Json } = {};
  for (const [key, v] of Object.entries(value)) {
    if (keyMatches(pattern[0] as string, key)) {
      if (pattern.length === 1) {
        continue;
      }
      out[key] = exclude(v, pattern.slice(1));
    } else {
      out[key] = v;
    }
  }
  return out;
}

export function applyFilterPath(body: Json, filterPath: string): Json {
  const specs = filterPath
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '');
  const includes = specs.filter(s => !s.startsWith('-')).map(s => s.split('.'));
  const excludes = specs
    .filter(s => s.startsWith('-'))
    .map(s => s.slice(1).split('.'));
  let out: Json = includes.length > 0 ? (include(body, includes) ?? {}) : body;
  for (const p of excludes) {
    out = exclude(out, p);
  }
  return out;
}
