/** `_source` filtering: includes/excludes with wildcards on dotted paths, or `false`. */
import { isObject, type Json, type JsonObject } from './json-value';

export interface SourceFilter {
  enabled: boolean;
  includes: string[];
  excludes: string[];
}

export const FULL_SOURCE: SourceFilter = {
  enabled: true,
  includes: [],
  excludes: []
};

function toList(v: Json | undefined): string[] {
  if (typeof v === 'string') {
    return v
      .split(',')
      .map(s => s.trim())
      .filter(Boolean);
  }
  if (Array.isArray(v)) {
    return v.filter((x): x is string => typeof x === 'string');
  }
  return [];
}

/** From a body `_source` value and the `_source`, `_source_includes`, `_source_excludes` params. */
export function parseSourceFilter(
  body: Json | undefined,
  query?: URLSearchParams
): SourceFilter {
  const f: SourceFilter = { enabled: true, includes: [], excludes: [] };
  if (body === false) {
    f.enabled = false;
  } else if (typeof body === 'string' || Array.isArray(body)) {
    f.includes = toList(body);
  } else if (isObject(body)) {
    f.includes = toList(body['includes'] ?? body['include']);
    f.excludes = toList(body['excludes'] ?? body['exclude']);
  }
  if (query) {
    const s = query.get('_source');
    if (s === 'false') {
      f.enabled = false;
    } else if (s !== null && s !== 'true' && s !== '') {
      f.includes = toList(s);
    }
    const inc = query.get('_source_includes');
    if (inc) {
      f.includes = toList(inc);
    }
    const exc = query.get('_source_excludes');
    if (exc) {
      f.excludes = toList(exc);
    }
  }
  return f;
}

function compile(patterns: string[]): RegExp[] {
  return patterns.map(
    p =>
      new RegExp(
        `^${p
          .split('*')
          .map(s => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`
      )
  );
}

export function makeSourceFilter(
  filter: SourceFilter
): ((source: JsonObject) => JsonObject) | null {
  if (filter.includes.length === 0 && filter.excludes.length === 0) {
    return null;
  }
  const inc = compile(filter.includes);
  const exc = compile(filter.excludes);
  // A path is kept when it (or an ancestor) is included, or when it is a prefix of an include.
  const included = (path: string): 'yes' | 'partial' | 'no' => {
    if (inc.length === 0) {
      return 'yes';
    }
    if (inc.some(r => r.test(path))) {
      return 'yes';
    }
    if (
      filter.includes.some(
        p =>
          p.startsWith(path + '.') ||
          (p.includes('*') && p.split('*')[0]!.startsWith(path + '.'))
      )
    ) {
      return 'partial';
    }
    if (
      filter.includes.some(
        p => p.includes('*') && path.startsWith(p.split('*')[0] as string)
      )
    ) {
      return 'partial';
    }
    return 'no';
  };
  const excluded = (path: string): boolean => exc.some(r => r.test(path));
  const walk = (
    obj: JsonObject,
    prefix: string,
    parentIncluded: boolean
  ): JsonObject => {
    // No prototype: a field named `__proto__` is kept as a field.
    const out: JsonObject = Object.create(null) as JsonObject;
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix + k;
      if (excluded(path)) {
        continue;
      }
      const state = parentIncluded ? 'yes' : included(path);
      if (state === 'no') {
        continue;
      }
      if (isObject(v)) {
        const child = walk(v, path + '.', state === 'yes');
        if (state === 'yes' || Object.keys(child).length > 0) {
          out[k] = child;
        }
      } else if (Array.isArray(v) && v.some(isObject)) {
        const items = v.map(item =>
          isObject(item) ? walk(item, path + '.', state === 'yes') : item
        );
        const kept = items.filter(
          i => !isObject(i) || Object.keys(i).length > 0
        );
        if (state === 'yes' || kept.length > 0) {
          out[k] = kept;
        }
      } else if (state === 'yes') {
        out[k] = v;
      }
    }
    return out;
  };
  return source => walk(source, '', false);
}
