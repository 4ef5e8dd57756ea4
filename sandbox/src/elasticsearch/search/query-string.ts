/**
 * Lucene query-string syntax for `query_string` (and, leniently, `simple_query_string`):
 * field:value, "phrases", wildcards, /regexps/, ranges ([a TO b], {a TO b}, >n, <=n),
 * AND/OR/NOT (&&, ||, !), +/- and grouping, over the default fields (all fields by default).
 */
import type { Json } from '../json-value';
import type { ResolvedField } from '../mapping';
import { boolScorer } from './bool-scorer';
import { NO_MATCH, type Scorer } from './scorer';
import {
  existsScorer,
  expandFields,
  luceneRegex,
  matchScorer,
  maxScorer,
  patternScorer,
  phraseScorer,
  queryShardError,
  rangeScorer,
  wildcardRegex,
  type Bounds,
  type QueryEnv
} from './query-scorers';
import { EMPTY_MATCHES, MatchesBuilder, withMatches } from './scorer';

export interface QueryStringOptions {
  defaultFields: string[];
  defaultOperator: 'and' | 'or';
  simple: boolean;
  lenient: boolean;
}

type Token =
  | { t: 'lparen' }
  | { t: 'rparen' }
  | { t: 'colon' }
  | { t: 'and' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: 'plus' }
  | { t: 'minus' }
  | { t: 'term'; text: string; wildcard: boolean }
  | { t: 'phrase'; text: string }
  | { t: 'range'; text: string }
  | { t: 'regex'; text: string }
  | { t: 'boost'; value: number };

class ParseError extends Error {}

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  // +, - and ! are operators only where a new clause starts, not inside a term like `foo-bar`.
  const atTermStart = (): boolean =>
    i === 0 || /[\s(]/.test(input[i - 1] as string);
  while (i < input.length) {
    const ch = input[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(') {
      out.push({ t: 'lparen' });
      i++;
      continue;
    }
    if (ch === ')') {
      out.push({ t: 'rparen' });
      i++;
      continue;
    }
    if (ch === ':') {
      out.push({ t: 'colon' });
      i++;
      continue;
    }
    if (input.startsWith('&&', i)) {
      out.push({ t: 'and' });
      i += 2;
      continue;
    }
    if (input.startsWith('||', i)) {
      out.push({ t: 'or' });
      i += 2;
      continue;
    }
    if ((ch === '+' || ch === '-' || ch === '!') && atTermStart()) {
      out.push({ t: ch === '+' ? 'plus' : ch === '-' ? 'minus' : 'not' });
      i++;
      continue;
    }
    if (ch === '^') {
      const m = /^\^(\d+(?:\.\d+)?)/.exec(input.slice(i));
      if (!m) {
        throw new ParseError('bad boost');
      }
      out.push({ t: 'boost', value: Number(m[1]) });
      i += m[0].length;
      continue;
    }
    if (ch === '"') {
      let text = '';
      i++;
      while (i < input.length && input[i] !== '"') {
        if (input[i] === '\\' && i + 1 < input.length) {
          i++;
        }
        text += input[i];
        i++;
      }
      if (i >= input.length) {
        throw new ParseError('unterminated phrase');
      }
      i++;
      const slop = /^~\d*/.exec(input.slice(i));
      if (slop) {
        i += slop[0].length;
      }
      out.push({ t: 'phrase', text });
      continue;
    }
    if (ch === '[' || ch === '{') {
      const end = input.slice(i).search(/[\]}]/);
      if (end < 0) {
        throw new ParseError('unterminated range');
      }
      out.push({ t: 'range', text: input.slice(i, i + end + 1) });
      i += end + 1;
      continue;
    }
    if (ch === '/') {
      let j = i + 1;
      while (j < input.length && input[j] !== '/') {
        j += input[j] === '\\' ? 2 : 1;
      }
      if (j >= input.length) {
        throw new ParseError('unterminated regex');
      }
      out.push({ t: 'regex', text: input.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    let text = '';
    let wildcard = false;
    while (i < input.length) {
      const c = input[i] as string;
      if (c === '\\' && i + 1 < input.length) {
        text += '\\' + input[i + 1];
        i += 2;
        continue;
      }
      if (
        /\s/.test(c) ||
        c === '(' ||
        c === ')' ||
        c === ':' ||
        c === '^' ||
        c === '"'
      ) {
        break;
      }
      if (c === '*' || c === '?') {
        wildcard = true;
      }
      text += c;
      i++;
    }
    const last = out[out.length - 1];
    if (text === 'AND') {
      out.push({ t: 'and' });
    } else if (text === 'OR') {
      out.push({ t: 'or' });
    } else if (text === 'NOT') {
      out.push({ t: 'not' });
    } else if (last?.t === 'colon' || !/^[><]=?$/.test(text)) {
      out.push({ t: 'term', text, wildcard });
    } else {
      // `price:> 10` style: join the comparator with the next term.
      out.push({ t: 'term', text, wildcard });
    }
  }
  return out;
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

interface Item {
  op: 'and' | 'or' | 'implicit';
  occur: 'must' | 'should' | 'not';
  scorer: Scorer;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly env: QueryEnv,
    private readonly opts: QueryStringOptions
  ) {}

  parse(): Scorer {
    const s = this.sequence(undefined);
    if (this.pos < this.tokens.length) {
      throw new ParseError('unexpected token');
    }
    return s;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private sequence(fields: string[] | undefined): Scorer {
    const items: Item[] = [];
    let pendingOp: Item['op'] = 'implicit';
    while (this.pos < this.tokens.length) {
      const tok = this.peek() as Token;
      if (tok.t === 'rparen') {
        break;
      }
      if (tok.t === 'and' || tok.t === 'or') {
        if (items.length === 0) {
          throw new ParseError(`unexpected ${tok.t}`);
        }
        pendingOp = tok.t;
        this.pos++;
        continue;
      }
      let occur: Item['occur'] = 'should';
      while (
        this.peek()?.t === 'not' ||
        this.peek()?.t === 'plus' ||
        this.peek()?.t === 'minus'
      ) {
        const m = (this.tokens[this.pos++] as Token).t;
        occur = m === 'plus' ? 'must' : 'not';
      }
      const scorer = this.clause(fields);
      items.push({
        op: items.length === 0 ? 'implicit' : pendingOp,
        occur,
        scorer
      });
      pendingOp = 'implicit';
    }
    if (items.length === 0) {
      return withMatches(
        () => NO_MATCH,
        () => EMPTY_MATCHES
      );
    }
    return this.combine(items);
  }

  /** OR binds loosest; AND, and implicit joins under default_operator AND, bind tighter. */
  private combine(items: Item[]): Scorer {
    const groups: Item[][] = [];
    for (const item of items) {
      const joinAnd =
        item.op === 'and' ||
        (item.op === 'implicit' &&
          (this.opts.defaultOperator === 'and' || item.occur !== 'should'));
      if (groups.length === 0 || !joinAnd) {
        groups.push([item]);
      } else {
        (groups[groups.length - 1] as Item[]).push(item);
      }
    }
    const groupScorers = groups.map(g => {
      if (g.length === 1 && g[0]?.occur !== 'not') {
        return (g[0] as Item).scorer;
      }
      const must = g.filter(i => i.occur !== 'not').map(i => i.scorer);
      const not = g.filter(i => i.occur === 'not').map(i => i.scorer);
      const base: Scorer[] = must.length > 0 ? must : [() => 1];
      return boolScorer(base, [], [], not, 0);
    });
    if (groupScorers.length === 1) {
      return groupScorers[0] as Scorer;
    }
    return boolScorer([], [], groupScorers, [], 1);
  }

  private clause(fields: string[] | undefined): Scorer {
    const tok = this.tokens[this.pos++];
    if (!tok) {
      throw new ParseError('unexpected end');
    }
    let scorer: Scorer;
    if (tok.t === 'lparen') {
      scorer = this.sequence(fields);
      if (this.tokens[this.pos++]?.t !== 'rparen') {
        throw new ParseError('missing )');
      }
    } else if (tok.t === 'term' && this.peek()?.t === 'colon') {
      this.pos++;
      const name = unescape(tok.text);
      if (name === '_exists_') {
        const target = this.tokens[this.pos++];
        if (target?.t !== 'term') {
          throw new ParseError('bad _exists_');
        }
        scorer = existsScorer(this.env, unescape(target.text));
      } else if (this.peek()?.t === 'lparen') {
        this.pos++;
        scorer = this.sequence([name]);
        if (this.tokens[this.pos++]?.t !== 'rparen') {
          throw new ParseError('missing )');
        }
      } else {
        const value = this.tokens[this.pos++];
        if (!value) {
          throw new ParseError('missing value');
        }
        scorer = this.value(value, [name]);
      }
    } else {
      scorer = this.value(tok, fields);
    }
    if (this.peek()?.t === 'boost') {
      const b = (this.tokens[this.pos++] as { value: number }).value;
      const inner = scorer;
      const innerMatches = inner.matches;
      scorer = withMatches(
        v => {
          const s = inner(v);
          return s === NO_MATCH ? NO_MATCH : Math.fround(s * b);
        },
        innerMatches &&
          (snapshot => {
            const m = innerMatches(snapshot);
            const out = new MatchesBuilder(m.positions.length);
            for (let i = 0; i < m.positions.length; i++) {
              out.push(
                m.positions[i] as number,
                Math.fround((m.scores[i] as number) * b)
              );
            }
            return out.build();
          })
      );
    }
    return scorer;
  }

  private targets(
    fields: string[] | undefined
  ): { field: ResolvedField; lenient: boolean; boost: number }[] {
    const names =
      fields ??
      (this.opts.defaultFields.length > 0 ? this.opts.defaultFields : ['*']);
    const out = expandFields(this.env, names);
    return names.length > 1 || names.some(n => n.includes('*'))
      ? out.map(o => ({ ...o, lenient: true }))
      : out.map(o => ({ ...o, lenient: o.lenient || this.opts.lenient }));
  }

  private value(tok: Token, fields: string[] | undefined): Scorer {
    const targets = this.targets(fields);
    const per = (
      make: (f: ResolvedField, lenient: boolean, boost: number) => Scorer | null
    ): Scorer => {
      const scorers: Scorer[] = [];
      for (const t of targets) {
        try {
          const s = make(t.field, t.lenient, t.boost);
          if (s) {
            scorers.push(s);
          }
        } catch (err) {
          if (!t.lenient) {
            throw err;
          }
        }
      }
      return maxScorer(scorers);
    };
    switch (tok.t) {
      case 'phrase':
        return per((f, _l, b) => phraseScorer(this.env, f, tok.text, false, b));
      case 'regex':
        return per((f, _l, b) =>
          patternScorer(f, luceneRegex(this.env, tok.text, false), b)
        );
      case 'range': {
        const m = /^([[{])\s*(\S+)\s+TO\s+(\S+)\s*([\]}])$/.exec(tok.text);
        if (!m) {
          throw new ParseError('bad range');
        }
        const bounds: Bounds = {};
        if (m[2] !== '*') {
          bounds[m[1] === '[' ? 'gte' : 'gt'] = unescape(m[2] as string);
        }
        if (m[3] !== '*') {
          bounds[m[4] === ']' ? 'lte' : 'lt'] = unescape(m[3] as string);
        }
        return per((f, lenient, b) =>
          lenient && !rangeFits(f, bounds)
            ? null
            : rangeScorer(this.env, f, bounds, b)
        );
      }
      case 'term': {
        let text = tok.text;
        const cmp = /^([><]=?)(.*)$/.exec(text);
        if (cmp) {
          let operand = cmp[2] as string;
          if (operand === '') {
            const next = this.tokens[this.pos++];
            if (next?.t !== 'term') {
              throw new ParseError('missing operand');
            }
            operand = next.text;
          }
          const key = (
            { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' } as const
          )[cmp[1] as '>'];
          const bounds: Bounds = { [key]: unescape(operand) };
          return per((f, lenient, b) =>
            lenient && !rangeFits(f, bounds)
              ? null
              : rangeScorer(this.env, f, bounds, b)
          );
        }
        if (text === '*' && fields) {
          return per(f => existsScorer(this.env, f.name));
        }
        if (tok.wildcard) {
          return per((f, _l, b) => {
            const pattern = f.type === 'text' ? text.toLowerCase() : text;
            return patternScorer(f, wildcardRegex(pattern, false), b);
          });
        }
        text = unescape(text);
        return per((f, lenient, b) =>
          matchScorer(this.env, f, text, {
            operator: this.opts.defaultOperator,
            boost: b,
            lenient
          })
        );
      }
      default:
        throw new ParseError(`unexpected ${tok.t}`);
    }
  }
}

function rangeFits(f: ResolvedField, bounds: Bounds): boolean {
  const values = Object.values(bounds) as Json[];
  if (
    [
      'long',
      'integer',
      'short',
      'byte',
      'double',
      'float',
      'half_float',
      'scaled_float'
    ].includes(f.type)
  ) {
    return values.every(v => Number.isFinite(Number(v)));
  }
  return f.type !== 'boolean';
}

export function parseQueryString(
  text: string,
  env: QueryEnv,
  opts: QueryStringOptions
): Scorer {
  try {
    return new Parser(lex(text), env, opts).parse();
  } catch (err) {
    if (!(err instanceof ParseError)) {
      throw err;
    }
    if (opts.simple) {
      return new Parser(
        lex(text.replace(/[()"[\]{}:^/\\]/g, ' ')),
        env,
        opts
      ).parse();
    }
    throw queryShardError(env, `Failed to parse query [${text}]`);
  }
}
