/**
 * Text matching: tokenising, the all-tokens-with-last-as-prefix rule, the 64-bit
 * text_match score layout and `<mark>` highlights.
 */
import { RawNumber, type JsonObject, setField } from './json';
import { valueAt } from './paths';

/**
 * The engine splits text on whitespace and drops the other characters that are neither letters
 * nor digits from each piece: `e-mail` is the token `email`, `<b>bold</b>` the token `bboldb`.
 */
const CHUNK = /\S+/gu;
const NOT_WORD = /[^\p{L}\p{N}]/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function tokenOf(chunk: string): string {
  return chunk.toLowerCase().replace(NOT_WORD, '');
}

export function tokenize(s: string): string[] {
  const tokens: string[] = [];
  for (const chunk of s.match(CHUNK) ?? []) {
    const token = tokenOf(chunk);
    if (token !== '') {
      tokens.push(token);
    }
  }
  return tokens;
}

export interface QueryField {
  name: string;
  /** 15 for the first query_by field, one less for each following, as the engine weighs them. */
  weight: number;
}

/** What ranking needs of a text match; highlights are worked out again for the page shown. */
export interface TextScore {
  tokensMatched: number;
  fieldsMatched: number;
  bestFieldScore: number;
  bestFieldWeight: number;
  tokensDropped: number;
  /** The score as the engine packs it: [tokens_matched:4 | field_score:48 | weight:8 | fields:3]. */
  score: bigint;
}

export interface TextMatch extends TextScore {
  /** Per field: which query tokens hit which tokens of the value. */
  fieldHits: Map<string, Set<string>>;
}

/** The score of a match from its parts; shared by the document scan and the token index. */
export function packScore(
  tokensMatched: number,
  bestFieldScore: number,
  bestFieldWeight: number,
  fieldsWithHits: number
): TextScore {
  const fieldsMatched = Math.min(fieldsWithHits, 7);
  const fieldScore = BigInt(bestFieldScore) << 40n;
  const score =
    (BigInt(tokensMatched) << 59n) |
    (fieldScore << 11n) |
    (BigInt(bestFieldWeight) << 3n) |
    BigInt(fieldsMatched);
  return {
    tokensMatched,
    fieldsMatched,
    bestFieldScore: Number(fieldScore),
    bestFieldWeight,
    tokensDropped: 0,
    score
  };
}

/** A prefix-only hit, as kept in a field's hits: only the prefix is marked (`<mark>k</mark>eyboard`). */
export const PREFIX_HIT = '\u0000';

function tokenHits(
  valueTokens: string[],
  q: string,
  prefix: boolean
): string[] {
  const hits: string[] = [];
  for (const t of valueTokens) {
    if (t === q) {
      hits.push(t);
    } else if (prefix && t.startsWith(q)) {
      hits.push(PREFIX_HIT + q);
    }
  }
  return hits;
}

/** Matches `qTokens` against the document, or null when some token is found in no field. */
export function matchDocument(
  doc: JsonObject,
  qTokens: string[],
  fields: QueryField[],
  prefix: boolean
): TextMatch | null {
  const found = new Array<boolean>(qTokens.length).fill(false);
  const fieldHits = new Map<string, Set<string>>();
  let bestFieldScore = 0;
  let bestFieldWeight = 0;
  for (const f of fields) {
    const raw = valueAt(doc, f.name);
    const values = Array.isArray(raw)
      ? raw
      : raw === undefined || raw === null
        ? []
        : [raw];
    let fieldScore = 0;
    const hitSet = new Set<string>();
    for (const v of values) {
      if (typeof v !== 'string') {
        continue;
      }
      const vt = tokenize(v);
      qTokens.forEach((q, i) => {
        const isLast = i === qTokens.length - 1;
        const hits = tokenHits(vt, q, prefix && isLast);
        if (hits.length === 0) {
          return;
        }
        found[i] = true;
        for (const h of hits) {
          hitSet.add(h);
        }
        fieldScore += hits.includes(q) ? 2 : 1;
      });
    }
    if (hitSet.size > 0) {
      fieldHits.set(f.name, hitSet);
      if (
        fieldScore > bestFieldScore ||
        (fieldScore === bestFieldScore && f.weight > bestFieldWeight)
      ) {
        bestFieldScore = fieldScore;
        bestFieldWeight = f.weight;
      }
    }
  }
  if (!found.every(Boolean)) {
    return null;
  }
  return {
    ...packScore(
      qTokens.length,
      bestFieldScore,
      bestFieldWeight,
      fieldHits.size
    ),
    fieldHits
  };
}

export function textMatchInfo(m: TextScore): Record<string, unknown> {
  return {
    best_field_score: String(m.bestFieldScore),
    best_field_weight: m.bestFieldWeight,
    fields_matched: m.fieldsMatched,
    num_tokens_dropped: m.tokensDropped,
    score: m.score.toString(),
    tokens_matched: m.tokensMatched,
    typo_prefix_score: 0
  };
}

/** Wildcard hits carry a constant score of 100. */
export const WILDCARD_MATCH_INFO = {
  best_field_score: '0',
  best_field_weight: 12,
  fields_matched: 4,
  num_tokens_dropped: 0,
  score: '100',
  tokens_matched: 0,
  typo_prefix_score: 255
};

export function textMatchValue(m: TextScore): RawNumber {
  return new RawNumber(m.score.toString());
}

/** How hits are marked: the tags, and when a long value is cut to a snippet around its hits. */
export interface HighlightStyle {
  startTag: string;
  endTag: string;
  /** Tokens kept on each side of the hits in a snippet (`highlight_affix_num_tokens`, 4). */
  affixTokens: number;
  /** Values of at most this many tokens are shown whole (`snippet_threshold`, 30). */
  snippetThreshold: number;
  /** Fields whose whole value is also given, marked, as `value` (`highlight_full_fields`). */
  fullFields: ReadonlySet<string>;
}

export const DEFAULT_HIGHLIGHT: HighlightStyle = {
  startTag: '<mark>',
  endTag: '</mark>',
  affixTokens: 4,
  snippetThreshold: 30,
  fullFields: new Set()
};

function markText(
  text: string,
  hits: Set<string>,
  style: HighlightStyle
): { snippet: string; value: string; matched: string[] } {
  const prefixes = [...hits]
    .filter(h => h.startsWith(PREFIX_HIT))
    .map(h => h.slice(PREFIX_HIT.length));
  const matched: string[] = [];
  const words = [...text.matchAll(CHUNK)].filter(w => tokenOf(w[0]) !== '');
  const marked: number[] = [];
  let value = '';
  let at = 0;
  words.forEach((w, i) => {
    const chunk = w[0];
    value += text.slice(at, w.index);
    at = w.index + chunk.length;
    // The mark spans the piece from its first letter or digit to its last: `<mark>e-mail</mark>`, `<mark>text</mark>,`.
    const chars = [...chunk];
    const first = chars.findIndex(c => WORD_CHAR.test(c));
    const last =
      chars.length - [...chars].reverse().findIndex(c => WORD_CHAR.test(c));
    const token = tokenOf(chunk);
    const prefix = prefixes.find(p => token.startsWith(p));
    let end = -1;
    if (hits.has(token)) {
      end = last;
    } else if (prefix !== undefined) {
      // The first prefix.length letters and digits, with what lies between them.
      let seen = 0;
      end = first;
      while (end < chars.length && seen < prefix.length) {
        if (WORD_CHAR.test(chars[end] as string)) {
          seen++;
        }
        end++;
      }
    }
    if (end < 0) {
      value += chunk;
      return;
    }
    const word = chars.slice(first, end).join('');
    marked.push(i);
    matched.push(word);
    value += `${chars.slice(0, first).join('')}${style.startTag}${word}${style.endTag}${chars.slice(end).join('')}`;
  });
  value += text.slice(at);
  if (words.length <= style.snippetThreshold || marked.length === 0) {
    return { snippet: value, value, matched };
  }
  // A long value: the tokens from the first hit to the last, with affixTokens on either side.
  const first = Math.max((marked[0] as number) - style.affixTokens, 0);
  const last = Math.min(
    (marked[marked.length - 1] as number) + style.affixTokens,
    words.length - 1
  );
  const from = (words[first] as RegExpExecArray).index;
  const lastWord = words[last] as RegExpExecArray;
  const cut = markText(
    text.slice(from, lastWord.index + lastWord[0].length),
    hits,
    { ...style, snippetThreshold: Infinity }
  );
  return { snippet: cut.snippet, value, matched };
}

/** `highlight` (nested object, v2) and `highlights` (flat list, v1) for one hit. */
export function highlightHit(
  doc: JsonObject,
  m: TextMatch,
  style: HighlightStyle = DEFAULT_HIGHLIGHT
): { highlight: JsonObject; highlights: JsonObject[] } {
  const highlight: JsonObject = {};
  const highlights: JsonObject[] = [];
  for (const [field, hits] of m.fieldHits) {
    const raw = valueAt(doc, field);
    // The flat v1 list holds top-level fields only: a leaf inside an object shows in `highlight`.
    const listed: JsonObject[] = Object.hasOwn(doc, field) ? highlights : [];
    let entry: unknown;
    if (Array.isArray(raw)) {
      const perElement = raw.map(v =>
        markText(typeof v === 'string' ? v : String(v), hits, style)
      );
      entry = perElement.map(e => ({
        matched_tokens: e.matched,
        snippet: e.snippet
      }));
      const indices = perElement.flatMap((e, i) =>
        e.matched.length > 0 ? [i] : []
      );
      listed.push({
        field,
        indices,
        matched_tokens: indices.map(i => perElement[i]?.matched ?? []),
        snippets: indices.map(i => perElement[i]?.snippet ?? '')
      });
    } else if (typeof raw === 'string') {
      const e = markText(raw, hits, style);
      const full = style.fullFields.has(field) ? { value: e.value } : {};
      entry = { matched_tokens: e.matched, snippet: e.snippet, ...full };
      listed.push({
        field,
        matched_tokens: e.matched,
        snippet: e.snippet,
        ...full
      });
    } else {
      continue;
    }
    setPath(highlight, field.split('.'), entry);
  }
  return { highlight, highlights };
}

function setPath(obj: JsonObject, parts: string[], value: unknown): void {
  let cur = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i] as string;
    const next = Object.hasOwn(cur, p) ? cur[p] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      setField(cur, p, {});
    }
    cur = cur[p] as JsonObject;
  }
  setField(cur, parts[parts.length - 1] as string, value);
}
