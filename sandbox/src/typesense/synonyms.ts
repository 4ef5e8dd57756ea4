/**
 * Synonyms: one definition parsed with the engine's checks and texts, a named store of them
 * (a collection's own before 30, a global synonym set in 30), and the query expansion search
 * applies: every way of replacing a span of query tokens by a synonym of that span.
 */
import { ApiError } from './errors';
import { isPlainObject, type JsonObject } from './json';
import { tokenize } from './text';

export interface SynonymDef {
  id: string;
  /** One-way synonyms: the query span that is replaced; empty for multi-way. */
  root: string[];
  rawRoot: string;
  synonyms: string[][];
  rawSynonyms: string[];
  locale: string;
  symbols: string[];
}

const NO_SYNONYMS = 'Could not find an array of `synonyms`';
const BAD_SYNONYMS = 'Could not find a valid string array of `synonyms`';

/** The engine's `synonym_t::parse`, check for check. */
export function parseSynonym(json: JsonObject): SynonymDef {
  if (json.id === undefined) {
    throw new ApiError(400, 'Missing `id` field.');
  }
  const list = json.synonyms;
  if (!Array.isArray(list) || list.length === 0) {
    throw new ApiError(400, NO_SYNONYMS);
  }
  let locale = '';
  if (json.locale !== undefined) {
    if (typeof json.locale !== 'string') {
      throw new ApiError(400, 'Synonym `locale` should be a string.`');
    }
    locale = json.locale;
  }
  const symbols: string[] = [];
  if (json.symbols_to_index !== undefined) {
    const s = json.symbols_to_index;
    if (!Array.isArray(s) || s.length === 0 || typeof s[0] !== 'string') {
      throw new ApiError(
        400,
        'Synonym `symbols_to_index` should be an array of strings.'
      );
    }
    for (const sym of s) {
      if (typeof sym !== 'string' || sym.length !== 1) {
        throw new ApiError(
          400,
          'Synonym `symbols_to_index` should be an array of single character symbols.'
        );
      }
      symbols.push(sym);
    }
  }
  let root: string[] = [];
  let rawRoot = '';
  if (json.root !== undefined) {
    if (typeof json.root !== 'string') {
      throw new ApiError(400, 'Key `root` should be a string.');
    }
    rawRoot = json.root;
    root = tokenize(rawRoot);
  }
  const synonyms: string[][] = [];
  const rawSynonyms: string[] = [];
  for (const s of list) {
    if (typeof s !== 'string') {
      throw new ApiError(400, BAD_SYNONYMS);
    }
    rawSynonyms.push(s);
    synonyms.push(tokenize(s));
  }
  return {
    id: String(json.id),
    root,
    rawRoot,
    synonyms,
    rawSynonyms,
    locale,
    symbols
  };
}

/** The stored view (`to_view_json`): `root` always present, locale and symbols when set. */
export function synonymView(s: SynonymDef): JsonObject {
  const out: JsonObject = {
    id: s.id,
    root: s.rawRoot,
    synonyms: s.rawSynonyms
  };
  if (s.locale !== '') {
    out.locale = s.locale;
  }
  if (s.symbols.length > 0) {
    out.symbols_to_index = s.symbols;
  }
  return out;
}

/** The checks the 29-and-earlier per-collection PUT makes before parsing. */
export function checkSynonymBody(json: unknown): JsonObject {
  if (!isPlainObject(json)) {
    throw new ApiError(400, 'Bad JSON.');
  }
  if (json.root !== undefined && typeof json.root !== 'string') {
    throw new ApiError(400, 'Key `root` should be a string.');
  }
  if (Array.isArray(json.synonyms)) {
    if (json.synonyms.length === 0) {
      throw new ApiError(400, BAD_SYNONYMS);
    }
    if (json.synonyms.some(s => typeof s !== 'string' || s === '')) {
      throw new ApiError(400, BAD_SYNONYMS);
    }
  }
  return json;
}

/** Synonym definitions by id, kept in the order they were first written. */
export class SynonymSet {
  private readonly items = new Map<string, SynonymDef>();
  constructor(readonly name: string) {}

  upsert(def: SynonymDef): void {
    this.items.set(def.id, def);
  }

  get(id: string): SynonymDef | undefined {
    return this.items.get(id);
  }

  remove(id: string): boolean {
    return this.items.delete(id);
  }

  list(): SynonymDef[] {
    return [...this.items.values()];
  }

  view(): JsonObject {
    return { items: this.list().map(synonymView), name: this.name };
  }
}

/** A set item as the 30 set endpoints take it: an object carrying its `id`. */
export function parseSynonymItem(json: unknown): SynonymDef {
  if (!isPlainObject(json)) {
    throw new ApiError(400, 'Missing `id` field.');
  }
  return parseSynonym(json);
}

/** `offset`/`limit` listing parameters of the synonym and override listings. */
export function pageOf<T>(items: T[], query: Map<string, string>): T[] {
  const num = (name: string, label: string): number => {
    const raw = query.get(name);
    if (raw === undefined) {
      return 0;
    }
    if (!/^\d+$/.test(raw)) {
      throw new ApiError(400, `${label} param should be unsigned integer.`);
    }
    return Number(raw);
  };
  const offset = num('offset', 'Offset');
  const limit = num('limit', 'Limit');
  if (offset > 0 && offset >= items.length) {
    throw new ApiError(400, 'Invalid offset param.');
  }
  return limit > 0 ? items.slice(offset, offset + limit) : items.slice(offset);
}

const MAX_EXPANSIONS = 200;

function spanEquals(tokens: string[], at: number, span: string[]): boolean {
  if (span.length === 0 || at + span.length > tokens.length) {
    return false;
  }
  return span.every((t, i) => tokens[at + i] === t);
}

/**
 * Every rewriting of the query by the definitions (the original excluded), as the engine's
 * synonym reduction builds them: at each position a span that equals a one-way root becomes
 * each of its synonyms; a span equal to one of a multi-way group's members becomes each other member.
 */
export function expandQuery(
  tokens: string[],
  defs: Iterable<SynonymDef>
): string[][] {
  const list = [...defs];
  if (list.length === 0 || tokens.length === 0) {
    return [];
  }
  const replacements: { end: number; tokens: string[] }[][] = tokens.map(
    () => []
  );
  for (let i = 0; i < tokens.length; i++) {
    for (const d of list) {
      if (d.root.length > 0) {
        if (spanEquals(tokens, i, d.root)) {
          for (const s of d.synonyms) {
            replacements[i]?.push({ end: i + d.root.length, tokens: s });
          }
        }
        continue;
      }
      d.synonyms.forEach((member, k) => {
        if (!spanEquals(tokens, i, member)) {
          return;
        }
        d.synonyms.forEach((other, m) => {
          if (m !== k) {
            replacements[i]?.push({ end: i + member.length, tokens: other });
          }
        });
      });
    }
  }
  const memo = new Map<number, string[][]>();
  const from = (i: number): string[][] => {
    if (i >= tokens.length) {
      return [[]];
    }
    const hit = memo.get(i);
    if (hit) {
      return hit;
    }
    const out: string[][] = [];
    for (const rest of from(i + 1)) {
      if (out.length >= MAX_EXPANSIONS) {
        break;
      }
      out.push([tokens[i] as string, ...rest]);
    }
    for (const r of replacements[i] ?? []) {
      for (const rest of from(r.end)) {
        if (out.length >= MAX_EXPANSIONS) {
          break;
        }
        out.push([...r.tokens, ...rest]);
      }
    }
    memo.set(i, out);
    return out;
  };
  const original = tokens.join(' ');
  const seen = new Set<string>([original]);
  const result: string[][] = [];
  for (const e of from(0)) {
    const key = e.join(' ');
    if (seen.has(key) || e.length === 0) {
      continue;
    }
    seen.add(key);
    result.push(e);
  }
  return result;
}
