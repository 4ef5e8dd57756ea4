/**
 * The query DSL compiled to per-document scorers: each clause is read, checked and handed to
 * its scorer (query-scorers.ts), nested clauses compiled in turn.
 */
import { esError, parsingError } from '../errors';
import { didYouMean } from '../locate';
import { isObject, type Json } from '../json-value';
import { type ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import { isTextType } from './field-stats';
import { parseQueryString } from './query-string';
import {
  allMatches,
  boostOf,
  type Bounds,
  constantMatches,
  existsScorer,
  expandFields,
  fuzzyTermScorer,
  list,
  luceneRegex,
  type MatchOptions,
  matchScorer,
  maxScorer,
  minimumShouldMatch,
  none,
  patternScorer,
  phraseScorer,
  prefixRegex,
  type Query,
  type QueryEnv,
  queryShardError,
  rangeScorer,
  single,
  termScorer,
  wildcardRegex
} from './query-scorers';
import { boolScorer } from './bool-scorer';
import {
  constantScores,
  EMPTY_MATCHES,
  mergeMatches,
  NO_MATCH,
  unionPositions,
  withMatches,
  type DocMatches,
  type Scorer
} from './scorer';
import { pathValues, type DocView } from './values';

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
