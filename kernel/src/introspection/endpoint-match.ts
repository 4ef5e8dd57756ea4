/** Matching typed paths against endpoint templates such as `/{index}/_search`. */
import type { HttpMethod } from '../console/cell';
import type { EndpointInfo } from '../driver-core/driver';

/** Placeholders that name an index or collection, so target names can fill them. */
const TARGET_PLACEHOLDERS = new Set([
  '{index}',
  '{target}',
  '{collection}',
  '{collection_name}'
]);

export function isPlaceholder(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

export function isTargetPlaceholder(segment: string): boolean {
  return TARGET_PLACEHOLDERS.has(segment);
}

/** Path segments without the leading `/` and without the query. */
export function pathSegments(path: string): string[] {
  const bare = path.split('?')[0] ?? '';
  return (bare.startsWith('/') ? bare.slice(1) : bare).split('/');
}

/**
 * Does a typed segment fit a template segment? Placeholders take any value except `_names`,
 * which are API words in Elasticsearch (`/{index}` must not match `/_search`). A `${var}` fits any placeholder.
 */
export function segmentFits(typed: string, template: string): boolean {
  if (!isPlaceholder(template)) {
    return typed === template;
  }
  if (typed.includes('${')) {
    return true;
  }
  return typed !== '' && !typed.startsWith('_');
}

/** The templates a concrete path matches, best first (most literal segments), preferring the method. */
export function matchEndpoints(
  endpoints: readonly EndpointInfo[],
  path: string,
  method?: HttpMethod
): EndpointInfo[] {
  const typed = pathSegments(path);
  if (typed.length > 1 && typed[typed.length - 1] === '') {
    typed.pop();
  }
  let best: EndpointInfo[] = [];
  let bestScore = -1;
  for (const endpoint of endpoints) {
    const template = pathSegments(endpoint.path);
    if (template.length !== typed.length) {
      continue;
    }
    let score = 0;
    let fits = true;
    for (let i = 0; i < template.length && fits; i++) {
      const segment = template[i] as string;
      fits = segmentFits(typed[i] as string, segment);
      if (fits && !isPlaceholder(segment)) {
        score++;
      }
    }
    if (!fits) {
      continue;
    }
    if (score > bestScore) {
      best = [endpoint];
      bestScore = score;
    } else if (score === bestScore) {
      best.push(endpoint);
    }
  }
  if (method) {
    const withMethod = best.filter(e => e.methods.includes(method));
    if (withMethod.length > 0) {
      return withMethod;
    }
  }
  return best;
}
