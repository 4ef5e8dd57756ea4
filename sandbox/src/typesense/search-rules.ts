/**
 * What a search takes from settings stored outside the request, in the engine's order:
 * the preset's parameters (the request's own win), stopwords removed from the query, the
 * synonyms in force for the collection, and the curation rules that fire for the query.
 */
import type { Collection } from './collection';
import { ruleMatches, type Override } from './curation';
import type { CurationSet } from './curation';
import { ApiError } from './errors';
import { isPlainObject } from './json';
import type { StopwordSet } from './stopwords';
import type { SynonymDef, SynonymSet } from './synonyms';
import { tokenize } from './text';
import type { Features } from './version';

export interface SearchSettings {
  presets: Map<string, unknown>;
  stopwords: Map<string, StopwordSet>;
  synonymSets: Map<string, SynonymSet>;
  curationSets: Map<string, CurationSet>;
}

export type Params = Map<string, string>;

/** A parameter value as the engine flattens JSON into its string parameters. */
export function paramText(v: unknown): string | undefined {
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  if (Array.isArray(v)) {
    return v.map(x => String(x)).join(',');
  }
  return undefined;
}

/** `preset=name`: the preset's parameters under the request's; a missing preset is ignored, as in the engine. */
export function applyPreset(params: Params, settings: SearchSettings): Params {
  const name = params.get('preset');
  if (name === undefined || !settings.presets.has(name)) {
    return params;
  }
  const value = settings.presets.get(name);
  if (isPlainObject(value) && value.searches !== undefined) {
    return params;
  }
  if (!isPlainObject(value)) {
    throw new ApiError(400, 'Search preset is not an object.');
  }
  const out = new Map(params);
  for (const [k, v] of Object.entries(value)) {
    const s = paramText(v);
    if (s === undefined) {
      throw new ApiError(400, 'One or more search parameters are malformed.');
    }
    if (!out.has(k)) {
      out.set(k, s);
    }
  }
  return out;
}

/** `stopwords=name`: the set must exist; its words leave the query. */
export function stopwordFilter(
  params: Params,
  settings: SearchSettings
): ((tokens: string[]) => string[]) | null {
  const name = params.get('stopwords');
  if (name === undefined || name === '') {
    return null;
  }
  const set = settings.stopwords.get(name);
  if (!set) {
    throw new ApiError(
      404,
      `Could not find the stopword set named \`${name}\`.`
    );
  }
  const words = new Set(set.stopwords);
  return tokens => tokens.filter(t => !words.has(t));
}

/**
 * The synonyms a search of `coll` uses: its own up to 29; in 30 its sets plus the request's
 * `synonym_sets`. Only definitions of the queried field's locale apply, as in the engine.
 */
export function synonymsFor(
  coll: Collection,
  params: Params,
  settings: SearchSettings,
  feat: Features,
  locale: string
): SynonymDef[] {
  return allSynonyms(coll, params, settings, feat).filter(
    d => d.locale === locale
  );
}

function allSynonyms(
  coll: Collection,
  params: Params,
  settings: SearchSettings,
  feat: Features
): SynonymDef[] {
  if (params.get('enable_synonyms') === 'false') {
    return [];
  }
  if (!feat.globalSets) {
    return coll.synonyms.list();
  }
  const names = [
    ...coll.synonymSets,
    ...(params.get('synonym_sets') ?? '')
      .split(',')
      .map(s => s.trim())
      .filter(s => s !== '')
  ];
  const defs: SynonymDef[] = [];
  for (const name of new Set(names)) {
    const set = settings.synonymSets.get(name);
    if (set) {
      defs.push(...set.list());
    }
  }
  return defs;
}

export interface CurationPlan {
  q: string;
  filterBy: string;
  sortBy: string | undefined;
  pinned: { id: string; position: number }[];
  hidden: Set<string>;
  metadata: Record<string, unknown> | null;
  /** Whether pinned documents must also pass the filter. */
  filterCurated: boolean;
}

function overridesFor(
  coll: Collection,
  settings: SearchSettings,
  feat: Features
): Override[] {
  if (!feat.globalSets) {
    return coll.overrides.list();
  }
  return coll.curationSets.flatMap(
    name => settings.curationSets.get(name)?.list() ?? []
  );
}

function removeSpan(q: string, rule: string): string {
  const qt = tokenize(q);
  const rt = tokenize(rule);
  for (let i = 0; i + rt.length <= qt.length; i++) {
    if (rt.every((t, k) => qt[i + k] === t)) {
      const rest = [...qt.slice(0, i), ...qt.slice(i + rt.length)];
      return rest.length === 0 ? '*' : rest.join(' ');
    }
  }
  return q;
}

/** Applies the curation rules that fire (in id order, until one says stop) and the request's pinned/hidden hits. */
export function planCuration(
  coll: Collection,
  params: Params,
  settings: SearchSettings,
  feat: Features
): CurationPlan {
  const plan: CurationPlan = {
    q: params.get('q') ?? '',
    filterBy: params.get('filter_by') ?? '',
    sortBy: params.get('sort_by'),
    pinned: [],
    hidden: new Set(),
    metadata: null,
    filterCurated: params.get('filter_curated_hits') === 'true'
  };
  for (const part of (params.get('pinned_hits') ?? '').split(',')) {
    const m = /^\s*(.+):(\d+)\s*$/.exec(part);
    if (m) {
      plan.pinned.push({ id: m[1] as string, position: Number(m[2]) });
    }
  }
  for (const id of (params.get('hidden_hits') ?? '').split(',')) {
    if (id.trim() !== '') {
      plan.hidden.add(id.trim());
    }
  }
  if (params.get('enable_overrides') === 'false') {
    return plan;
  }
  const request = {
    q: plan.q,
    filterBy: plan.filterBy,
    tags: (params.get('override_tags') ?? '')
      .split(',')
      .map(s => s.trim())
      .filter(s => s !== ''),
    nowSeconds: Math.floor(Date.now() / 1000)
  };
  for (const o of overridesFor(coll, settings, feat)) {
    if (!ruleMatches(o, request)) {
      continue;
    }
    // Pinned hits sent with the request keep their places; the rule's come after.
    plan.pinned.push(...o.includes);
    for (const id of o.excludes) {
      plan.hidden.add(id);
    }
    if (o.filterBy !== '') {
      plan.filterBy =
        plan.filterBy.trim() === ''
          ? o.filterBy
          : `(${plan.filterBy}) && (${o.filterBy})`;
    }
    if (o.sortBy !== '') {
      plan.sortBy = o.sortBy;
    }
    if (o.replaceQuery !== '') {
      plan.q = o.replaceQuery;
    } else if (o.removeMatchedTokens && o.rule.query !== '') {
      plan.q = removeSpan(plan.q, o.rule.query);
    }
    // The first matching rule's metadata is the one returned.
    if (o.metadata && !plan.metadata) {
      plan.metadata = o.metadata;
    }
    if (o.filterCuratedHits) {
      plan.filterCurated = true;
    }
    if (o.stopProcessing) {
      break;
    }
  }
  return plan;
}
