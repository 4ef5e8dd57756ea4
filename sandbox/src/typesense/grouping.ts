/**
 * group_by: ranked hits gathered by the values of facet fields, groups in the order of their
 * best hit, paged by group. The response's `found` counts groups and `found_docs` hits.
 */
import type { Collection } from './collection';
import { ApiError } from './errors';
import type { JsonObject } from './json';
import { valueAt } from './paths';
import type { Ranked } from './sort';

const MAX_GROUP_LIMIT = 99;

export interface Grouping {
  fields: string[];
  limit: number;
}

export function parseGrouping(
  params: Map<string, string>,
  coll: Collection
): Grouping | null {
  const raw = params.get('group_by');
  if (raw === undefined || raw.trim() === '') {
    return null;
  }
  const fields = raw
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '');
  const limitRaw = params.get('group_limit');
  const limit = limitRaw === undefined ? 3 : Number(limitRaw);
  if (limit === 0 || limit > MAX_GROUP_LIMIT) {
    throw new ApiError(
      400,
      `Value of \`group_limit\` must be between 1 and ${MAX_GROUP_LIMIT}.`
    );
  }
  for (const name of fields) {
    if (name === 'id') {
      throw new ApiError(400, 'Cannot use `id` as a group by field.');
    }
    const field = coll.field(name);
    if (!field) {
      throw new ApiError(
        404,
        `Could not find a field named \`${name}\` in the schema.`
      );
    }
    if (!field.facet) {
      throw new ApiError(
        400,
        `Group by field \`${name}\` should be a facet field.`
      );
    }
  }
  return { fields, limit };
}

export function groupHits(
  ranked: Ranked[],
  grouping: Grouping,
  offset: number,
  perPage: number,
  hit: (r: Ranked) => JsonObject
): { found: number; page: JsonObject[] } {
  const groups = new Map<string, { key: unknown[]; members: Ranked[] }>();
  for (const r of ranked) {
    const key: unknown[] = [];
    for (const f of grouping.fields) {
      const v = valueAt(r.rec.doc, f);
      if (v !== undefined) {
        key.push(v);
      }
    }
    const k = JSON.stringify(key);
    let g = groups.get(k);
    if (!g) {
      groups.set(k, (g = { key, members: [] }));
    }
    g.members.push(r);
  }
  const page = [...groups.values()].slice(offset, offset + perPage).map(g => ({
    found: g.members.length,
    group_key: g.key,
    hits: g.members.slice(0, grouping.limit).map(hit)
  }));
  return { found: groups.size, page };
}
