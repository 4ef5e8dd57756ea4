/**
 * Curation: overrides (per collection up to 29, items of global curation sets in 30), parsed
 * with the engine's checks and texts, and the rule matching search applies: by query (exact
 * or contained), by the request's filter_by, or by tags sent in `override_tags`.
 */
import { ApiError } from './errors';
import { isPlainObject, type JsonObject } from './json';
import { tokenize } from './text';

export interface Override {
  id: string;
  rule: { query: string; match: string; filterBy: string; tags: string[] };
  includes: { id: string; position: number }[];
  excludes: string[];
  filterBy: string;
  sortBy: string;
  replaceQuery: string;
  removeMatchedTokens: boolean;
  filterCuratedHits: boolean;
  stopProcessing: boolean;
  metadata: JsonObject | null;
  effectiveFrom: number;
  effectiveTo: number;
}

function bad(message: string): never {
  throw new ApiError(400, message);
}

/**
 * The engine's `override_t::parse` (30: `curation_t`), check for check. `label` is the noun
 * 30 renamed in two texts; `id` defaults to the body's.
 */
export function parseOverride(
  json: unknown,
  pathId: string | null,
  label: 'Override' | 'Curation' = 'Override'
): Override {
  if (!isPlainObject(json)) {
    bad('Bad JSON.');
  }
  const rule = json.rule;
  if (!isPlainObject(rule)) {
    bad('Missing `rule` definition.');
  }
  if (
    rule.filter_by === undefined &&
    rule.tags === undefined &&
    (rule.query === undefined || rule.match === undefined)
  ) {
    bad(
      'The `rule` definition must contain either a `tags` or a `query` and `match`.'
    );
  }
  const actions = [
    'includes',
    'excludes',
    'filter_by',
    'sort_by',
    'remove_matched_tokens',
    'metadata',
    'replace_query'
  ];
  if (!actions.some(k => json[k] !== undefined)) {
    bad(
      'Must contain one of: `includes`, `excludes`, `metadata`, `filter_by`, `sort_by`, `remove_matched_tokens`, `replace_query`.'
    );
  }
  const tags: string[] = [];
  if (rule.tags !== undefined) {
    if (
      !Array.isArray(rule.tags) ||
      rule.tags.some(t => typeof t !== 'string')
    ) {
      bad('The `tags` value must be an array of strings.');
    }
    tags.push(...(rule.tags as string[]));
  }
  const includes: Override['includes'] = [];
  if (json.includes !== undefined) {
    if (!Array.isArray(json.includes)) {
      bad('The `includes` value must be an array.');
    }
    for (const inc of json.includes) {
      if (!isPlainObject(inc)) {
        bad('The `includes` value must be an array of objects.');
      }
      if (inc.id === undefined || inc.position === undefined) {
        bad('Inclusion definition must define both `id` and `position` keys.');
      }
      if (typeof inc.id !== 'string') {
        bad('Inclusion `id` must be a string.');
      }
      if (typeof inc.position !== 'number' || !Number.isInteger(inc.position)) {
        bad('Inclusion `position` must be an integer.');
      }
      includes.push({ id: inc.id, position: inc.position });
    }
  }
  const excludes: string[] = [];
  if (json.excludes !== undefined) {
    if (!Array.isArray(json.excludes)) {
      bad('The `excludes` value must be an array.');
    }
    for (const exc of json.excludes) {
      if (!isPlainObject(exc)) {
        bad('The `excludes` value must be an array of objects.');
      }
      if (exc.id === undefined) {
        bad('Exclusion definition must define an `id`.');
      }
      if (typeof exc.id !== 'string') {
        bad('Exclusion `id` must be a string.');
      }
      excludes.push(exc.id);
    }
  }
  if (json.filter_by !== undefined) {
    if (typeof json.filter_by !== 'string') {
      bad('The `filter_by` must be a string.');
    }
    if (json.filter_by === '') {
      bad('The `filter_by` must be a non-empty string.');
    }
  }
  const flag = (name: string): boolean | undefined => {
    const v = json[name];
    if (v === undefined) {
      return undefined;
    }
    if (typeof v !== 'boolean') {
      bad(`The \`${name}\` must be a boolean.`);
    }
    return v;
  };
  const removeMatched = flag('remove_matched_tokens');
  const filterCurated = flag('filter_curated_hits');
  const stop = flag('stop_processing');
  const id = pathId ?? (typeof json.id === 'string' ? json.id : null);
  if (id === null) {
    bad(`${label} \`id\` not provided.`);
  }
  if (rule.filter_by !== undefined && typeof rule.filter_by !== 'string') {
    bad(`${label} \`rule.filter_by\` must be a string.`);
  }
  if (json.replace_query !== undefined && removeMatched === true) {
    bad(
      'Only one of `replace_query` or `remove_matched_tokens` can be specified.'
    );
  }
  if (json.metadata !== undefined && !isPlainObject(json.metadata)) {
    bad('The `metadata` must be a JSON object.');
  }
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const ts = (v: unknown): number => (typeof v === 'number' ? v : -1);
  return {
    id,
    rule: {
      query: str(rule.query),
      match: str(rule.match),
      filterBy: str(rule.filter_by),
      tags
    },
    includes,
    excludes,
    filterBy: str(json.filter_by),
    sortBy: str(json.sort_by),
    replaceQuery: str(json.replace_query),
    removeMatchedTokens: removeMatched ?? json.filter_by !== undefined,
    filterCuratedHits: filterCurated ?? false,
    stopProcessing: stop ?? true,
    metadata: isPlainObject(json.metadata) ? json.metadata : null,
    effectiveFrom: ts(json.effective_from_ts),
    effectiveTo: ts(json.effective_to_ts)
  };
}

/** The stored view (`to_json`). */
export function overrideView(o: Override): JsonObject {
  const rule: JsonObject = {};
  if (o.rule.query !== '') {
    rule.query = o.rule.query;
  }
  if (o.rule.match !== '') {
    rule.match = o.rule.match;
  }
  if (o.rule.filterBy !== '') {
    rule.filter_by = o.rule.filterBy;
  }
  if (o.rule.tags.length > 0) {
    rule.tags = o.rule.tags;
  }
  const out: JsonObject = {
    id: o.id,
    rule,
    includes: o.includes.map(i => ({ id: i.id, position: i.position })),
    excludes: o.excludes.map(id => ({ id })),
    remove_matched_tokens: o.removeMatchedTokens,
    filter_curated_hits: o.filterCuratedHits,
    stop_processing: o.stopProcessing
  };
  if (o.filterBy !== '') {
    out.filter_by = o.filterBy;
  }
  if (o.sortBy !== '') {
    out.sort_by = o.sortBy;
  }
  if (o.replaceQuery !== '') {
    out.replace_query = o.replaceQuery;
  }
  if (o.effectiveFrom !== -1) {
    out.effective_from_ts = o.effectiveFrom;
  }
  if (o.effectiveTo !== -1) {
    out.effective_to_ts = o.effectiveTo;
  }
  if (o.metadata && Object.keys(o.metadata).length > 0) {
    out.metadata = o.metadata;
  }
  return out;
}

/** Overrides by id; the engine keeps them in a sorted map, so they apply in id order. */
export class CurationSet {
  private readonly byId = new Map<string, Override>();
  constructor(readonly name: string) {}

  upsert(o: Override): void {
    this.byId.set(o.id, o);
  }

  get(id: string): Override | undefined {
    return this.byId.get(id);
  }

  remove(id: string): boolean {
    return this.byId.delete(id);
  }

  list(): Override[] {
    return [...this.byId.values()].sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : 0
    );
  }

  view(): JsonObject {
    return { items: this.list().map(overrideView), name: this.name };
  }
}

export interface CurationRequest {
  q: string;
  filterBy: string;
  tags: string[];
  nowSeconds: number;
}

/** Whether an override's rule fires for a request. */
export function ruleMatches(o: Override, req: CurationRequest): boolean {
  if (o.effectiveFrom !== -1 && req.nowSeconds < o.effectiveFrom) {
    return false;
  }
  if (o.effectiveTo !== -1 && req.nowSeconds > o.effectiveTo) {
    return false;
  }
  // Sent tags select the rules sharing one of them; without tags only untagged rules (and `*`) apply.
  const wildcardTag = o.rule.tags.length === 1 && o.rule.tags[0] === '*';
  const tagged = req.tags.length > 0;
  if (
    tagged
      ? !o.rule.tags.some(t => req.tags.includes(t))
      : o.rule.tags.length > 0 && !wildcardTag
  ) {
    return false;
  }
  if (o.rule.tags.length > 0 && o.rule.query === '' && o.rule.filterBy === '') {
    return true;
  }
  if (
    o.rule.filterBy !== '' &&
    o.rule.filterBy.trim() !== req.filterBy.trim()
  ) {
    return false;
  }
  if (o.rule.query !== '' && o.rule.match !== '') {
    const q = tokenize(req.q).join(' ');
    const r = tokenize(o.rule.query).join(' ');
    if (o.rule.match === 'exact' ? q !== r : !` ${q} `.includes(` ${r} `)) {
      return false;
    }
  }
  return true;
}
