/**
 * The scorers the query DSL's clauses compile to (term, match, phrase, range, pattern, exists,
 * dis_max …), shared by the DSL and the query_string syntax. A scorer returns the document's
 * score, or NO_MATCH. Compiled once per index, because field types come from that index's
 * mapping, and per snapshot, because text, range and term scorers read that snapshot's field
 * indexes when it has them.
 */
import { type EsError, parsingError, shardFailure } from '../errors';
import { isObject, type Json } from '../json-value';
import { isLongMarker, numberOf } from '../long-json';
import type { IndexData } from '../index-data';
import type { StoredDoc } from '../stored-doc';
import { isNumericType, type ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import { Bm25, idf } from './bm25';
import type { FieldTerms } from './bm25';
import { fieldStats, isTextType, lazy } from './field-stats';
import { editsFor, fuzzyExpansions } from './fuzzy';
import { isRangeType, rangeFieldQuery, rangeFieldTerm } from './range-fields';
import { resolveDate } from './date-math';
import { DEFAULT_DATE_FORMAT, patternFailure } from './date-format';
import { boolScorer } from './bool-scorer';
import { columnFilter } from './indexed-column';
import {
  sortedDocValues,
  valuedAmong,
  type NumericBounds
} from './sorted-doc-values';
import { indexedMatch, indexedPhrase } from './indexed-text';
import {
  constantScores,
  EMPTY_MATCHES,
  MatchesBuilder,
  mergeMatches,
  NO_MATCH,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import type { IndexedView } from './field-indexes';
import { docValues, pathValues, rawValues, type DocView } from './values';

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

export const none: Scorer = withMatches(
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

export function single(kind: string, body: Json | undefined): [string, Json] {
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

export function boostOf(v: Json | undefined): number {
  return isObject(v) && typeof v['boost'] === 'number' ? v['boost'] : 1;
}

// ---------------------------------------------------------------------------------------------
// Field-level building blocks, shared with query_string.

function numberOrThrow(
  env: QueryEnv,
  field: ResolvedField,
  value: Json | undefined
): number {
  // A long past 2^53 arrives as a marker: compared as its nearest double (doc values are doubles here).
  const n = numberOf(value);
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
  return n;
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
      const n = isLongMarker(value) ? numberOf(value) : Number(value);
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
  if (!column) {
    return fromSource;
  }
  const numeric = { gt, gte, lt, lte };
  const countable = Object.values(numeric).every(
    v => v === undefined || typeof v === 'number'
  );
  return columnFilter(
    column,
    within,
    score,
    fromSource,
    countable
      ? snapshot =>
          sortedDocValues(snapshot, column, field).count(
            numeric as NumericBounds
          )
      : undefined
  );
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
    const scorer: Scorer = view =>
      docValues(view, field).length > 0 ||
      (isTextType(field.type) && rawValues(view, field).some(v => v !== ''))
        ? 1
        : NO_MATCH;
    const column = env.indexed?.column(field);
    if (column) {
      scorer.count = (snapshot, among) =>
        among === undefined
          ? sortedDocValues(snapshot, column, field).present
          : valuedAmong(snapshot, column, among);
    }
    return scorer;
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
export function constantMatches(
  inner: Scorer,
  score: number
): Scorer['matches'] {
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

export function list(v: Json | undefined): Json[] {
  if (v === undefined || v === null) {
    return [];
  }
  return Array.isArray(v) ? v : [v];
}
