/**
 * The query DSL compiled to per-document scorers. A scorer returns the document's score,
 * or NO_MATCH. Compiled once per index, because field types come from that index's mapping,
 * and per snapshot, because text, range and term scorers read that snapshot's field indexes
 * when it has them.
 */
import { esError, type EsError, parsingError, shardFailure } from '../errors';
import { didYouMean } from '../locate';
import { isObject, type Json } from '../json-value';
import type { IndexData, StoredDoc } from '../index-data';
import { isNumericType, type ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import { Bm25, idf } from './bm25';
import { fieldStats, isTextType, lazy, type FieldTerms } from './field-stats';
import { editsFor, fuzzyExpansions } from './fuzzy';
import { isRangeType, rangeFieldQuery, rangeFieldTerm } from './range-fields';
import { resolveDate } from './date-math';
import { DEFAULT_DATE_FORMAT, patternFailure } from './date-format';
import { parseQueryString } from './query-string';
import { boolScorer } from './bool-scorer';
import { columnFilter } from './indexed-column';
import { indexedMatch, indexedPhrase } from './indexed-text';
import {
  constantScores,
  EMPTY_MATCHES,
  MatchesBuilder,
  mergeMatches,
  NO_MATCH,
  unionPositions,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import type { IndexedView } from './field-indexes';
import { docValues, pathValues, rawValues, type DocView } from './values';

export { NO_MATCH, type Scorer } from './scorer';
export { boolScorer } from './bool-scorer';

export interface Query {
  /** True when every document matches with the same score: lets paging skip evaluation. */
  matchAll: boolean;
  run: Scorer;
}

export interface QueryEnv {
  index: IndexData;
  major: number;
  /** The snapshot being searched, when it has field indexes (token indexes, doc-values columns); views then carry `seq`. */
  indexed?: IndexedView;
  /** The documents searched (BM25 statistics of fields without a token index are counted over them); else the index's searchable view. */
  docs?: StoredDoc[];
  /** False when no score will be read (filters, field sorts): term queries then skip gathering statistics. */
  scores?: boolean;
}

const none: Scorer = withMatches(
  () => NO_MATCH,
  () => EMPTY_MATCHES
);

/** A query value a date field cannot read: ES fails the shard with a parse_exception (its cause nested twice). */
function dateParseError(
  env: QueryEnv,
  field: ResolvedField,
  value: Json | undefined
): EsError {
  const format = field.format ?? DEFAULT_DATE_FORMAT;
  const inner = `failed to parse date field [${asText(value)}] with format [${format}]`;
  const causedBy = {
    type: 'illegal_argument_exception',
    reason: inner,
    caused_by: {
      type: 'date_time_parse_exception',
      reason: format.includes('||')
        ? 'Failed to parse with all enclosed parsers'
        : patternFailure(asText(value), format)
    }
  };
  return shardFailure(
    400,
    {
      type: 'parse_exception',
      reason: `${inner}: [${inner}]`,
      caused_by: causedBy
    },
    { name: env.index.name, uuid: env.index.uuid }
  );
}

export function queryShardError(
  env: QueryEnv,
  reason: string,
  causedBy?: { type: string; reason: string }
): EsError {
  const cause = {
    type: 'query_shard_exception',
    reason,
    index_uuid: env.index.uuid,
    index: env.index.name,
    ...(causedBy ? { caused_by: causedBy } : {})
  };
  return shardFailure(400, cause, {
    name: env.index.name,
    uuid: env.index.uuid
  });
}

function single(kind: string, body: Json | undefined): [string, Json] {
  if (!isObject(body)) {
    throw parsingError(
      `[${kind}] query malformed, no start_object after query name`
    );
  }
  const entries = Object.entries(body).filter(
    ([k]) => k !== 'boost' && k !== '_name'
  );
  if (entries.length > 1) {
    const err = parsingError(
      `[${kind}] query doesn't support multiple fields, found [${entries[0]?.[0]}] and [${entries[1]?.[0]}]`
    );
    err.locate = { key: entries[1]?.[0] as string, at: 'value' };
    throw err;
  }
  const first = entries[0];
  if (!first) {
    throw parsingError(`[${kind}] query malformed, no field`);
  }
  return first;
}

function boostOf(v: Json | undefined): number {
  return isObject(v) && typeof v['boost'] === 'number' ? v['boost'] : 1;
}

// ---------------------------------------------------------------------------------------------
// Field-level building blocks, shared with query_string.

function numberOrThrow(
  env: QueryEnv,
  field: ResolvedField,
  value: Json | undefined
): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) {
    throw queryShardError(
      env,
      `failed to create query: For input string: "${asText(value)}"`,
      {
        type: 'number_format_exception',
        reason: `For input string: "${asText(value)}"`
      }
    );
  }
  return field.type === 'long' ||
    field.type === 'integer' ||
    field.type === 'short' ||
    field.type === 'byte'
    ? n
    : n;
}

/** Normalises a query value to the field's doc-value form; undefined when it cannot match. */
function normalise(
  env: QueryEnv,
  field: ResolvedField,
  value: Json | undefined,
  lenient: boolean
): string | number | undefined {
  if (isNumericType(field.type)) {
    if (lenient) {
      const n = Number(value);
      return typeof value !== 'boolean' && value !== '' && Number.isFinite(n)
        ? n
        : undefined;
    }
    return numberOrThrow(env, field, value);
  }
  if (field.type === 'date') {
    const d = resolveDate(value, false, Date.now(), field.format);
    if (d === undefined && !lenient) {
      throw dateParseError(env, field, value);
    }
    return d;
  }
  if (field.type === 'boolean') {
    if (value === true || value === 'true') {
      return 1;
    }
    if (value === false || value === 'false' || value === '') {
      return 0;
    }
    if (lenient) {
      return undefined;
    }
    throw queryShardError(
      env,
      `Can't parse boolean value [${asText(value)}], expected [true] or [false]`
    );
  }
  return asText(value);
}

/** A field's BM25 statistics in the snapshot being searched. */
export function statsFor(env: QueryEnv, field: ResolvedField): FieldTerms {
  return fieldStats(
    field,
    env.docs ?? env.indexed?.docs ?? env.index.searchable(),
    env.indexed
  );
}

/** Fields whose term queries Lucene scores (postings without norms: dl = 1); other non-text term queries are constant. */
function scoresTerms(type: string): boolean {
  return (
    type === 'keyword' ||
    type === 'boolean' ||
    type === 'constant_keyword' ||
    type === 'wildcard'
  );
}

/** term semantics: the exact indexed term (a token for text fields, the value otherwise). */
export function termScorer(
  env: QueryEnv,
  field: ResolvedField,
  value: Json | undefined,
  opts: { caseInsensitive?: boolean; boost?: number; lenient?: boolean } = {}
): Scorer {
  const boost = opts.boost ?? 1;
  if (isRangeType(field.type)) {
    return rangeFieldTerm(field, value, boost);
  }
  if (isTextType(field.type)) {
    // Tokens are lowercase already (and lowercasing is idempotent), so case_insensitive is the lowercased lookup.
    const want = opts.caseInsensitive
      ? asText(value).toLowerCase()
      : asText(value);
    // A case-insensitive term is an automaton query in Lucene: constant score.
    if (opts.caseInsensitive) {
      return constantTextTerm(field, want, boost);
    }
    const weight = lazy(() =>
      Bm25.forTerms(statsFor(env, field), [want], boost)
    );
    const fromSource: Scorer = view => {
      let tf = 0;
      let length = 0;
      for (const v of rawValues(view, field)) {
        for (const t of tokenize(asText(v))) {
          length++;
          if (t === want) {
            tf++;
          }
        }
      }
      return tf > 0 ? weight().score(tf, length) : NO_MATCH;
    };
    const fx = env.indexed?.field(field);
    return fx
      ? indexedMatch(fx, [want], [weight()], 1, fromSource)
      : fromSource;
  }
  const want = normalise(env, field, value, opts.lenient ?? false);
  if (want === undefined) {
    return none;
  }
  const ci = opts.caseInsensitive && typeof want === 'string';
  const wantLower = typeof want === 'string' ? want.toLowerCase() : want;
  const scored = scoresTerms(field.type) && !ci && env.scores !== false;
  const scoreOf = scored
    ? lazy(() =>
        Bm25.forTerms(statsFor(env, field), [String(want)], boost).score(1, 1)
      )
    : () => Math.fround(boost);
  const fromSource: Scorer = view => {
    for (const v of docValues(view, field)) {
      if (
        v === want ||
        (ci && typeof v === 'string' && v.toLowerCase() === wantLower)
      ) {
        return scoreOf();
      }
    }
    return NO_MATCH;
  };
  const column =
    typeof want === 'number' ? env.indexed?.column(field) : undefined;
  return column
    ? columnFilter(column, v => v === want, scoreOf(), fromSource)
    : fromSource;
}

function constantTextTerm(
  field: ResolvedField,
  want: string,
  boost: number
): Scorer {
  const score = Math.fround(boost);
  return view =>
    rawValues(view, field).some(v => tokenize(asText(v)).includes(want))
      ? score
      : NO_MATCH;
}

export interface MatchOptions {
  operator?: 'or' | 'and';
  minimumShouldMatch?: Json;
  boost?: number;
  lenient?: boolean;
  fuzziness?: Json;
}

/** match semantics: analysed for text fields, exact for the others. */
export function matchScorer(
  env: QueryEnv,
  field: ResolvedField,
  text: Json | undefined,
  opts: MatchOptions = {}
): Scorer {
  const boost = opts.boost ?? 1;
  if (opts.fuzziness !== undefined && opts.fuzziness !== null) {
    return fuzzyMatch(env, field, text, opts);
  }
  if (!isTextType(field.type)) {
    return termScorer(env, field, text, {
      boost,
      lenient: opts.lenient ?? false
    });
  }
  const terms = [...new Set(tokenize(asText(text)))];
  if (terms.length === 0) {
    return none;
  }
  const required =
    opts.operator === 'and'
      ? terms.length
      : minimumShouldMatch(opts.minimumShouldMatch, terms.length, 1);
  const weights = lazy(() => {
    const stats = statsFor(env, field);
    return terms.map(t => Bm25.forTerms(stats, [t], boost));
  });
  const fromSource: Scorer = view => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const v of rawValues(view, field)) {
      const tokens = tokenize(asText(v));
      length += tokens.length;
      for (const t of tokens) {
        if (terms.includes(t)) {
          counts.set(t, (counts.get(t) ?? 0) + 1);
        }
      }
    }
    if (counts.size < required || counts.size === 0) {
      return NO_MATCH;
    }
    let score = 0;
    terms.forEach((t, i) => {
      const tf = counts.get(t);
      if (tf !== undefined) {
        score += (weights()[i] as Bm25).score(tf, length);
      }
    });
    return Math.fround(score);
  };
  const fx = env.indexed?.field(field);
  return fx
    ? indexedMatch(fx, terms, weights(), required, fromSource)
    : fromSource;
}

/** match (and `fuzzy`) with fuzziness: each term stands for the indexed terms within its edit distance. */
function fuzzyMatch(
  env: QueryEnv,
  field: ResolvedField,
  text: Json | undefined,
  opts: MatchOptions
): Scorer {
  const terms = isTextType(field.type)
    ? [...new Set(tokenize(asText(text)))]
    : [asText(text)];
  if (terms.length === 0) {
    return none;
  }
  const scorers = terms.map(t =>
    fuzzyTermScorer(env, field, t, opts.fuzziness, opts.boost ?? 1)
  );
  if (scorers.length === 1) {
    return scorers[0] as Scorer;
  }
  const required =
    opts.operator === 'and'
      ? terms.length
      : minimumShouldMatch(opts.minimumShouldMatch, terms.length, 1);
  return opts.operator === 'and'
    ? boolScorer(scorers, [], [], [], 0)
    : boolScorer([], [], scorers, [], required);
}

export function fuzzyTermScorer(
  env: QueryEnv,
  field: ResolvedField,
  term: string,
  fuzziness: Json | undefined,
  boost: number
): Scorer {
  if (
    isNumericType(field.type) ||
    field.type === 'date' ||
    field.type === 'boolean'
  ) {
    return termScorer(env, field, term, { boost, lenient: true });
  }
  const stats = statsFor(env, field);
  const expanded = fuzzyExpansions(
    term,
    editsFor(fuzziness, term),
    stats.allTerms()
  );
  if (expanded.length === 0) {
    return none;
  }
  // Lucene blends the expansions' statistics: every one is scored with the highest docFreq among them.
  const maxDf = Math.max(...expanded.map(e => stats.docFreq(e.term)));
  const termIdf = idf(maxDf, stats.docCount);
  const weights = new Map(
    expanded.map(e => [
      e.term,
      new Bm25(termIdf, stats, Math.fround(boost * e.boost))
    ])
  );
  const text = isTextType(field.type);
  return view => {
    const counts = new Map<string, number>();
    let length = 0;
    if (text) {
      for (const v of rawValues(view, field)) {
        for (const t of tokenize(asText(v))) {
          length++;
          if (weights.has(t)) {
            counts.set(t, (counts.get(t) ?? 0) + 1);
          }
        }
      }
    } else {
      length = 1;
      for (const v of docValues(view, field)) {
        if (weights.has(String(v))) {
          counts.set(String(v), 1);
        }
      }
    }
    if (counts.size === 0) {
      return NO_MATCH;
    }
    let score = 0;
    for (const e of expanded) {
      const tf = counts.get(e.term);
      if (tf !== undefined) {
        score += (weights.get(e.term) as Bm25).score(tf, length);
      }
    }
    return Math.fround(score);
  };
}

/** Phrase (and phrase-prefix): consecutive tokens within one value. */
export function phraseScorer(
  env: QueryEnv,
  field: ResolvedField,
  text: Json | undefined,
  prefix: boolean,
  boost = 1
): Scorer {
  const terms = tokenize(asText(text));
  if (terms.length === 0) {
    return none;
  }
  if (!isTextType(field.type)) {
    return prefix
      ? patternScorer(field, prefixRegex(asText(text), false), boost)
      : termScorer(env, field, text, { boost, lenient: true });
  }
  const last = terms[terms.length - 1] as string;
  // A prefix phrase's last word stands for up to 50 indexed terms (in term order); all of their idfs count.
  const expansions = lazy(() =>
    prefix
      ? [...statsFor(env, field).allTerms()]
          .filter(t => t.startsWith(last))
          .sort()
          .slice(0, 50)
      : []
  );
  const weight = lazy(() =>
    Bm25.forTerms(
      statsFor(env, field),
      prefix ? [...terms.slice(0, -1), ...expansions()] : terms,
      boost
    )
  );
  const fromSource: Scorer = view => {
    let tf = 0;
    let length = 0;
    const lastOk = (t: string): boolean =>
      prefix ? expansions().includes(t) : t === last;
    for (const v of rawValues(view, field)) {
      const tokens = tokenize(asText(v));
      length += tokens.length;
      for (let i = 0; i + terms.length <= tokens.length; i++) {
        let ok = true;
        for (let j = 0; j < terms.length && ok; j++) {
          const t = tokens[i + j] as string;
          ok = j === terms.length - 1 ? lastOk(t) : t === terms[j];
        }
        if (ok) {
          tf++;
        }
      }
    }
    return tf > 0 ? weight().score(tf, length) : NO_MATCH;
  };
  if (terms.length === 1 && !prefix) {
    return termScorer(env, field, last, { boost });
  }
  const fx = env.indexed?.field(field);
  return fx ? indexedPhrase(fx, terms, prefix, weight, fromSource) : fromSource;
}

export interface Bounds {
  gt?: Json;
  gte?: Json;
  lt?: Json;
  lte?: Json;
}

export function rangeScorer(
  env: QueryEnv,
  field: ResolvedField,
  bounds: Bounds,
  boost = 1
): Scorer {
  if (isRangeType(field.type)) {
    return rangeFieldQuery(field, bounds, boost);
  }
  const conv = (
    v: Json | undefined,
    roundUp: boolean
  ): string | number | undefined => {
    if (v === undefined || v === null) {
      return undefined;
    }
    if (field.type === 'date') {
      const d = resolveDate(v, roundUp, Date.now(), field.format);
      if (d === undefined) {
        throw dateParseError(env, field, v);
      }
      return d;
    }
    if (isNumericType(field.type)) {
      return numberOrThrow(env, field, v);
    }
    if (field.type === 'boolean') {
      return v === true || v === 'true' ? 1 : 0;
    }
    return asText(v);
  };
  const gt = conv(bounds.gt, true);
  const gte = conv(bounds.gte, false);
  const lt = conv(bounds.lt, false);
  const lte = conv(bounds.lte, true);
  const score = Math.fround(boost);
  const text = isTextType(field.type);
  const within = (v: string | number): boolean =>
    !(gt !== undefined && !(v > gt)) &&
    !(gte !== undefined && !(v >= gte)) &&
    !(lt !== undefined && !(v < lt)) &&
    !(lte !== undefined && !(v <= lte));
  const fromSource: Scorer = view => {
    const values: (string | number)[] = text
      ? rawValues(view, field).flatMap(v => tokenize(asText(v)))
      : docValues(view, field);
    for (const v of values) {
      if (within(v)) {
        return score;
      }
    }
    return NO_MATCH;
  };
  const column = text ? undefined : env.indexed?.column(field);
  return column ? columnFilter(column, within, score, fromSource) : fromSource;
}

/** prefix / wildcard / regexp: per token on text fields (lowercased pattern), per value otherwise. */
export function patternScorer(
  field: ResolvedField,
  regex: RegExp,
  boost = 1
): Scorer {
  const score = Math.fround(boost);
  if (isTextType(field.type)) {
    return view => {
      for (const v of rawValues(view, field)) {
        for (const t of tokenize(asText(v))) {
          if (regex.test(t)) {
            return score;
          }
        }
      }
      return NO_MATCH;
    };
  }
  if (
    isNumericType(field.type) ||
    field.type === 'date' ||
    field.type === 'boolean'
  ) {
    return none;
  }
  return view => {
    for (const v of docValues(view, field)) {
      if (typeof v === 'string' && regex.test(v)) {
        return score;
      }
    }
    return NO_MATCH;
  };
}

const escapeRe = (s: string): string =>
  s.replace(/[.+?^${}()|[\]\\*]/g, '\\$&');

export function wildcardRegex(
  pattern: string,
  caseInsensitive: boolean
): RegExp {
  let body = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && i + 1 < pattern.length) {
      body += escapeRe(pattern[++i] as string);
    } else if (ch === '*') {
      body += '.*';
    } else if (ch === '?') {
      body += '.';
    } else {
      body += escapeRe(ch);
    }
  }
  return new RegExp(`^${body}$`, caseInsensitive ? 'is' : 's');
}

export function prefixRegex(prefix: string, caseInsensitive: boolean): RegExp {
  return new RegExp(`^${escapeRe(prefix)}`, caseInsensitive ? 'is' : 's');
}

export function luceneRegex(
  env: QueryEnv,
  pattern: string,
  caseInsensitive: boolean
): RegExp {
  // Lucene regexps are anchored and have no ^/$; the common subset is JavaScript-compatible.
  try {
    return new RegExp(
      `^(?:${pattern.replace(/\\\//g, '/')})$`,
      caseInsensitive ? 'is' : 's'
    );
  } catch (err) {
    throw queryShardError(
      env,
      `failed to create query: ${(err as Error).message}`
    );
  }
}

export function existsScorer(env: QueryEnv, name: string): Scorer {
  const field = env.index.mapping.resolve(name);
  if (field) {
    return view =>
      docValues(view, field).length > 0 ||
      (isTextType(field.type) && rawValues(view, field).some(v => v !== ''))
        ? 1
        : NO_MATCH;
  }
  const def = env.index.mapping.definitionAt(name);
  if (def && (def.properties || def.type === 'nested')) {
    const path = name.split('.');
    return view =>
      pathValues(view.source, path).some(
        v => isObject(v) && Object.keys(v).length > 0
      )
        ? 1
        : NO_MATCH;
  }
  return none;
}

export function minimumShouldMatch(
  spec: Json | undefined,
  optional: number,
  fallback: number
): number {
  if (spec === undefined || spec === null) {
    return Math.min(fallback, optional);
  }
  const text = String(spec).trim();
  let n: number;
  if (text.endsWith('%')) {
    const pct = Number(text.slice(0, -1));
    n =
      pct < 0
        ? optional + Math.trunc((optional * pct) / 100)
        : Math.trunc((optional * pct) / 100);
  } else {
    const k = Number(text);
    n = k < 0 ? optional + k : k;
  }
  return Math.max(0, Math.min(optional, n));
}

/** The matches of all scorers, when each can list its own. */
export function allMatches(
  scorers: Scorer[],
  snapshot: IndexedView
): DocMatches[] | undefined {
  if (!scorers.every(s => s.matches)) {
    return undefined;
  }
  return scorers.map(s =>
    (s.matches as NonNullable<Scorer['matches']>)(snapshot)
  );
}

/** Highest score among the scorers (NO_MATCH when none matches), as dis_max and query_string fields combine. */
export function maxScorer(scorers: Scorer[]): Scorer {
  const run = (view: DocView): number =>
    scorers.reduce((best, s) => Math.max(best, s(view)), NO_MATCH);
  if (!scorers.every(s => s.matches)) {
    return run;
  }
  const only = scorers.length === 1 ? scorers[0] : undefined;
  if (only) {
    // One scorer: its own list, with scores below NO_MATCH raised to it (and so dropped) as the max does.
    return withMatches(run, snapshot => {
      const m = (only.matches as NonNullable<Scorer['matches']>)(snapshot);
      if (m.scores.every(s => s >= NO_MATCH)) {
        return m;
      }
      const out = new MatchesBuilder(m.positions.length);
      for (let i = 0; i < m.positions.length; i++) {
        out.push(
          m.positions[i] as number,
          Math.max(NO_MATCH, m.scores[i] as number)
        );
      }
      return out.build();
    });
  }
  return withMatches(run, snapshot =>
    mergeMatches(
      snapshot,
      allMatches(scorers, snapshot) as DocMatches[],
      (best, score) => Math.max(best, score),
      best => best
    )
  );
}

/** The same matches with one constant score. */
function constantMatches(inner: Scorer, score: number): Scorer['matches'] {
  const matches = inner.matches;
  if (!matches) {
    return undefined;
  }
  return snapshot => {
    const m = matches(snapshot);
    return m.positions.length === 0 || score === NO_MATCH
      ? EMPTY_MATCHES
      : {
          positions: m.positions,
          scores: constantScores(m.positions.length, score)
        };
  };
}

/** Field names from `fields` lists: `name^2`, wildcards, or every leaf when empty or `*`. */
export function expandFields(
  env: QueryEnv,
  specs: string[]
): { field: ResolvedField; boost: number; lenient: boolean }[] {
  const list = specs.length === 0 ? ['*'] : specs;
  const out: { field: ResolvedField; boost: number; lenient: boolean }[] = [];
  for (const spec of list) {
    const [name, boostText] = spec.split('^') as [string, string?];
    const boost = boostText ? Number(boostText) : 1;
    if (name.includes('*')) {
      const re = wildcardRegex(name, false);
      for (const f of env.index.mapping.leafFields()) {
        if (re.test(f.name) && (name !== '*' || isSearchableByDefault(f))) {
          out.push({ field: f, boost, lenient: true });
        }
      }
    } else {
      const f = env.index.mapping.resolve(name);
      if (f) {
        out.push({ field: f, boost, lenient: false });
      }
    }
  }
  return out;
}

function isSearchableByDefault(f: ResolvedField): boolean {
  return (
    f.nestedPath === undefined &&
    [
      'text',
      'match_only_text',
      'keyword',
      'long',
      'integer',
      'short',
      'byte',
      'double',
      'float',
      'half_float',
      'scaled_float',
      'boolean',
      'date'
    ].includes(f.type)
  );
}

function list(v: Json | undefined): Json[] {
  if (v === undefined || v === null) {
    return [];
  }
  return Array.isArray(v) ? v : [v];
}

// ---------------------------------------------------------------------------------------------

export function compileQuery(q: Json | undefined, env: QueryEnv): Query {
  if (q === undefined || q === null) {
    return { matchAll: true, run: () => 1 };
  }
  if (!isObject(q)) {
    throw parsingError('query malformed, must start with start_object');
  }
  const keys = Object.keys(q);
  if (keys.length !== 1) {
    if (keys.length === 0) {
      return { matchAll: true, run: () => 1 };
    }
    throw parsingError(
      `[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`
    );
  }
  const kind = keys[0] as string;
  const body = q[kind];
  if (kind === 'match_all') {
    const b = boostOf(body);
    return { matchAll: true, run: () => Math.fround(b) };
  }
  return { matchAll: false, run: compileScorer(kind, body, env) };
}

function field(env: QueryEnv, name: string): ResolvedField | null {
  return env.index.mapping.resolve(name);
}

function compileScorer(
  kind: string,
  body: Json | undefined,
  env: QueryEnv
): Scorer {
  switch (kind) {
    case 'match_none':
      return none;
    case 'match_all': {
      const b = Math.fround(boostOf(body));
      return () => b;
    }
    case 'match_bool_prefix': {
      // A bool of should clauses: a term query per word but the last, a prefix query (constant score) for the last.
      const [name, spec] = single(kind, body);
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const words = tokenize(asText(isObject(spec) ? spec['query'] : spec));
      const last = words[words.length - 1];
      if (last === undefined) {
        return none;
      }
      const boost = boostOf(spec);
      const should = [
        ...words.slice(0, -1).map(w => termScorer(env, f, w, { boost })),
        patternScorer(f, prefixRegex(last, false), boost)
      ];
      return boolScorer([], [], should, [], 1);
    }
    case 'match':
    case 'match_phrase':
    case 'match_phrase_prefix': {
      const [name, spec] = single(kind, body);
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const text = isObject(spec) ? spec['query'] : spec;
      const boost = boostOf(spec);
      if (kind === 'match_phrase') {
        return phraseScorer(env, f, text, false, boost);
      }
      if (kind === 'match_phrase_prefix') {
        return phraseScorer(env, f, text, true, boost);
      }
      const opts: MatchOptions = { boost };
      if (isObject(spec)) {
        if (String(spec['operator'] ?? 'or').toLowerCase() === 'and') {
          opts.operator = 'and';
        }
        if (spec['minimum_should_match'] !== undefined) {
          opts.minimumShouldMatch = spec['minimum_should_match'];
        }
        if (spec['lenient'] === true) {
          opts.lenient = true;
        }
        if (spec['fuzziness'] !== undefined) {
          opts.fuzziness = spec['fuzziness'];
        }
      }
      return matchScorer(env, f, text, opts);
    }
    case 'multi_match':
    case 'combined_fields': {
      if (!isObject(body)) {
        throw parsingError(`[${kind}] query malformed`);
      }
      const fields = expandFields(env, list(body['fields']).map(asText));
      const type =
        kind === 'combined_fields'
          ? 'most_fields'
          : String(body['type'] ?? 'best_fields');
      const operator =
        String(body['operator'] ?? 'or').toLowerCase() === 'and' ? 'and' : 'or';
      const boost = boostOf(body);
      const scorers = fields.map(({ field: f, boost: b, lenient }) => {
        if (type === 'phrase') {
          return phraseScorer(env, f, body['query'], false, b * boost);
        }
        if (type === 'phrase_prefix' || type === 'bool_prefix') {
          return phraseScorer(env, f, body['query'], true, b * boost);
        }
        const opts: MatchOptions = {
          operator,
          boost: b * boost,
          lenient: lenient || body['lenient'] === true
        };
        if (body['minimum_should_match'] !== undefined) {
          opts.minimumShouldMatch = body['minimum_should_match'];
        }
        return matchScorer(env, f, body['query'], opts);
      });
      const sum = type === 'most_fields' || type === 'cross_fields';
      const run = (view: DocView): number => {
        let best = NO_MATCH;
        let total = 0;
        for (const s of scorers) {
          const v = s(view);
          if (v === NO_MATCH) {
            continue;
          }
          total += v;
          if (v > best) {
            best = v;
          }
        }
        return best === NO_MATCH ? NO_MATCH : Math.fround(sum ? total : best);
      };
      if (!scorers.every(s => s.matches)) {
        return run;
      }
      return withMatches(run, snapshot =>
        mergeMatches(
          snapshot,
          allMatches(scorers, snapshot) as DocMatches[],
          (best, v, total, pos) => {
            total[pos] = (total[pos] as number) + v;
            return v > best ? v : best;
          },
          (best, total, pos) =>
            best === NO_MATCH
              ? NO_MATCH
              : Math.fround(sum ? (total[pos] as number) : best)
        )
      );
    }
    case 'term': {
      const [name, spec] = single(kind, body);
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const value = isObject(spec) ? spec['value'] : spec;
      return termScorer(env, f, value, {
        caseInsensitive: isObject(spec) && spec['case_insensitive'] === true,
        boost: boostOf(spec)
      });
    }
    case 'terms': {
      if (!isObject(body)) {
        throw parsingError('[terms] query malformed');
      }
      const entry = Object.entries(body).find(
        ([k]) => k !== 'boost' && k !== '_name'
      );
      if (!entry) {
        throw parsingError('[terms] query malformed, no field');
      }
      const [name, values] = entry;
      if (!Array.isArray(values)) {
        throw parsingError(`[terms] query does not support [${name}]`);
      }
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const scorers = values.map(v => termScorer(env, f, v));
      const b = Math.fround(boostOf(body));
      const run = (view: DocView): number =>
        scorers.some(s => s(view) !== NO_MATCH) ? b : NO_MATCH;
      if (!scorers.every(s => s.matches)) {
        return run;
      }
      return withMatches(run, snapshot => {
        const positions = unionPositions(
          (allMatches(scorers, snapshot) as DocMatches[]).map(m => m.positions),
          snapshot.docs.length
        );
        return b === NO_MATCH
          ? EMPTY_MATCHES
          : { positions, scores: constantScores(positions.length, b) };
      });
    }
    case 'ids': {
      const values = new Set(
        list(isObject(body) ? body['values'] : undefined).map(asText)
      );
      return view => (values.has(view.id ?? '') ? 1 : NO_MATCH);
    }
    case 'range': {
      const [name, spec] = single(kind, body);
      if (!isObject(spec)) {
        throw parsingError(
          '[range] query malformed, no start_object after query name'
        );
      }
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const bounds: Bounds = {};
      for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
        if (spec[k] !== undefined) {
          bounds[k] = spec[k];
        }
      }
      if (spec['from'] !== undefined && spec['from'] !== null) {
        bounds[spec['include_lower'] === false ? 'gt' : 'gte'] = spec['from'];
      }
      if (spec['to'] !== undefined && spec['to'] !== null) {
        bounds[spec['include_upper'] === false ? 'lt' : 'lte'] = spec['to'];
      }
      return rangeScorer(env, f, bounds, boostOf(spec));
    }
    case 'prefix':
    case 'wildcard':
    case 'regexp': {
      const [name, spec] = single(kind, body);
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const raw = asText(
        isObject(spec)
          ? (spec['value'] ?? spec[kind] ?? spec['wildcard'])
          : spec
      );
      const ci = isObject(spec) && spec['case_insensitive'] === true;
      const text = isTextType(f.type) ? raw.toLowerCase() : raw;
      const re =
        kind === 'prefix'
          ? prefixRegex(text, ci)
          : kind === 'wildcard'
            ? wildcardRegex(text, ci)
            : luceneRegex(env, text, ci);
      return patternScorer(f, re, boostOf(spec));
    }
    case 'fuzzy': {
      const [name, spec] = single(kind, body);
      const f = field(env, name);
      if (!f) {
        return none;
      }
      const value = asText(isObject(spec) ? spec['value'] : spec);
      // A term-level query: the value is not analysed (so not lowercased).
      return fuzzyTermScorer(
        env,
        f,
        value,
        isObject(spec) ? (spec['fuzziness'] ?? 'AUTO') : 'AUTO',
        boostOf(spec)
      );
    }
    case 'exists': {
      if (!isObject(body) || typeof body['field'] !== 'string') {
        throw parsingError('[exists] must be provided with a [field]');
      }
      return existsScorer(env, body['field']);
    }
    case 'bool':
      return compileBool(body, env);
    case 'constant_score': {
      if (!isObject(body) || body['filter'] === undefined) {
        throw parsingError("[constant_score] requires a 'filter' element");
      }
      const inner = compileQuery(body['filter'], { ...env, scores: false }).run;
      const b = Math.fround(boostOf(body));
      return withMatches(
        view => (inner(view) === NO_MATCH ? NO_MATCH : b),
        constantMatches(inner, b)
      );
    }
    case 'dis_max': {
      return maxScorer(
        list(isObject(body) ? body['queries'] : undefined).map(
          q => compileQuery(q, env).run
        )
      );
    }
    case 'function_score':
    case 'script_score':
      return compileQuery(isObject(body) ? body['query'] : undefined, env).run;
    case 'boosting':
      return compileQuery(isObject(body) ? body['positive'] : undefined, env)
        .run;
    case 'nested':
      return compileNested(body, env);
    case 'query_string':
    case 'simple_query_string': {
      if (!isObject(body) || typeof body['query'] !== 'string') {
        throw parsingError(`[${kind}] must be provided with a [query]`);
      }
      return parseQueryString(body['query'], env, {
        defaultFields: list(
          body['fields'] ??
            (body['default_field'] !== undefined ? [body['default_field']] : [])
        ).map(asText),
        defaultOperator:
          String(body['default_operator'] ?? 'or').toLowerCase() === 'and'
            ? 'and'
            : 'or',
        simple: kind === 'simple_query_string',
        lenient: body['lenient'] === true
      });
    }
    default: {
      const reason = `unknown query [${kind}]${didYouMean(kind, QUERY_NAMES)}`;
      const err = esError(
        400,
        { type: 'parsing_exception', reason, line: 1, col: 1 },
        {
          outerExtra: {
            caused_by: {
              type: 'named_object_not_found_exception',
              reason: `[1:1] unknown field [${kind}]`
            }
          }
        }
      );
      err.locate = { key: kind, at: 'value' };
      throw err;
    }
  }
}

/** Queries a node registers (the server's own and its bundled modules'), for "did you mean" suggestions. */
const QUERY_NAMES = [
  'bool',
  'boosting',
  'combined_fields',
  'common',
  'constant_score',
  'dis_max',
  'distance_feature',
  'exists',
  'function_score',
  'fuzzy',
  'geo_bounding_box',
  'geo_distance',
  'geo_polygon',
  'geo_shape',
  'ids',
  'intervals',
  'match',
  'match_all',
  'match_bool_prefix',
  'match_none',
  'match_phrase',
  'match_phrase_prefix',
  'more_like_this',
  'multi_match',
  'nested',
  'prefix',
  'query_string',
  'range',
  'regexp',
  'script',
  'script_score',
  'simple_query_string',
  'span_containing',
  'span_field_masking',
  'span_first',
  'span_multi',
  'span_near',
  'span_not',
  'span_or',
  'span_term',
  'span_within',
  'term',
  'terms',
  'terms_set',
  'wildcard',
  'wrapper',
  'pinned',
  'shape'
];

/** The bool parser's fields, deprecated camelCase spellings included (ES suggests them too). */
const BOOL_FIELDS = [
  'must',
  'filter',
  'should',
  'must_not',
  'mustNot',
  'minimum_should_match',
  'minimumShouldMatch',
  'boost',
  '_name',
  'adjust_pure_negative'
];

function compileBool(body: Json | undefined, env: QueryEnv): Scorer {
  if (!isObject(body)) {
    throw parsingError(
      '[bool] query malformed, no start_object after query name'
    );
  }
  const known = new Set([
    'must',
    'filter',
    'should',
    'must_not',
    'minimum_should_match',
    'boost',
    '_name',
    'adjust_pure_negative'
  ]);
  for (const k of Object.keys(body)) {
    if (known.has(k)) {
      continue;
    }
    const err = esError(400, {
      type: 'x_content_parse_exception',
      reason: `[1:1] [bool] unknown field [${k}]${didYouMean(k, BOOL_FIELDS)}`
    });
    err.locate = { key: k, at: 'key' };
    throw err;
  }
  const c = (k: string, e: QueryEnv): Scorer[] =>
    list(body[k]).map(q => compileQuery(q, e).run);
  const unscored: QueryEnv = { ...env, scores: false };
  const must = c('must', env);
  const filter = c('filter', unscored);
  const should = c('should', env);
  const mustNot = c('must_not', unscored);
  const fallback = must.length === 0 && filter.length === 0 ? 1 : 0;
  const msm =
    should.length === 0
      ? 0
      : minimumShouldMatch(
          body['minimum_should_match'],
          should.length,
          fallback
        );
  return boolScorer(must, filter, should, mustNot, msm, boostOf(body));
}

function compileNested(body: Json | undefined, env: QueryEnv): Scorer {
  if (!isObject(body) || typeof body['path'] !== 'string') {
    throw parsingError("[nested] requires 'path' field");
  }
  const path = body['path'];
  const def = env.index.mapping.definitionAt(path);
  if (!def || def.type !== 'nested') {
    if (body['ignore_unmapped'] === true) {
      return none;
    }
    const reason = `[nested] failed to find nested object under path [${path}]`;
    throw queryShardError(env, `failed to create query: ${reason}`, {
      type: 'illegal_state_exception',
      reason
    });
  }
  if (body['query'] === undefined) {
    throw parsingError("[nested] requires 'query' field");
  }
  const inner = compileQuery(body['query'], env).run;
  const mode = String(body['score_mode'] ?? 'avg');
  const segments = path.split('.');
  return view => {
    const scores: number[] = [];
    for (const obj of pathValues(view.source, segments)) {
      if (!isObject(obj)) {
        continue;
      }
      // One nested object must satisfy the whole inner query on its own.
      const s = inner({
        source: view.source,
        ...(view.id !== undefined ? { id: view.id } : {}),
        nestedPath: path,
        nested: obj
      });
      if (s !== NO_MATCH) {
        scores.push(s);
      }
    }
    if (scores.length === 0) {
      return NO_MATCH;
    }
    switch (mode) {
      case 'max':
        return Math.max(...scores);
      case 'min':
        return Math.min(...scores);
      case 'sum':
        return Math.fround(scores.reduce((a, b) => a + b, 0));
      case 'none':
        return 0;
      default:
        return Math.fround(scores.reduce((a, b) => a + b, 0) / scores.length);
    }
  };
}
