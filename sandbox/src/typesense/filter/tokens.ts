/**
 * Splits a filter_by expression into clauses, parentheses and the two operators, the way
 * the engine's tokenizer does: a clause runs until a parenthesis or `&&`/`||` outside
 * backticks; a parenthesis right after the colon opens a geo value instead.
 */
import { ApiError } from '../errors';

export type FilterToken =
  | { kind: 'open' }
  | { kind: 'close' }
  | { kind: 'and' }
  | { kind: 'or' }
  | { kind: 'clause'; text: string };

export function tokenizeFilter(expr: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  const n = expr.length;
  let i = 0;
  // Bounded: every branch advances i by at least one character.
  while (i < n) {
    const c = expr[i];
    if (c === ' ') {
      i++;
    } else if (c === '(') {
      tokens.push({ kind: 'open' });
      i++;
    } else if (c === ')') {
      tokens.push({ kind: 'close' });
      i++;
    } else if (c === '&' || c === '|') {
      // The engine really does say "filter filter_query" here.
      if (expr[i + 1] !== c) {
        throw new ApiError(400, 'Could not parse the filter filter_query.');
      }
      tokens.push({ kind: c === '&' ? 'and' : 'or' });
      i += 2;
    } else {
      let text = '';
      let inBacktick = false;
      let afterColon = false;
      let inGeo = false;
      do {
        const ch = expr[i] as string;
        if (ch === '`') {
          inBacktick = !inBacktick;
        }
        if (ch === ':') {
          afterColon = true;
        } else if (afterColon && ch === '(') {
          inGeo = true;
          afterColon = false;
        } else if (afterColon && ch !== ' ') {
          afterColon = false;
        }
        if (inGeo && ch === ')') {
          inGeo = false;
        }
        text += ch;
        i++;
        if (i >= n) {
          break;
        }
        const next = expr[i] as string;
        if (inBacktick || inGeo) {
          continue;
        }
        if (afterColon && next === '(') {
          continue;
        }
        if (next === '(' || next === ')') {
          break;
        }
        if (
          (next === '&' && expr[i + 1] === '&') ||
          (next === '|' && expr[i + 1] === '|')
        ) {
          break;
        }
      } while (i < n);
      const trimmed = text.trim();
      if (trimmed !== '') {
        tokens.push({ kind: 'clause', text: trimmed });
      }
    }
  }
  return tokens;
}

/** Values inside `[...]`, split on commas outside backticks, backticks removed. */
export function splitValues(inner: string): string[] {
  const out: string[] = [];
  let buf = '';
  let inTick = false;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string;
    if (c === '`') {
      if (i > 0 && inner[i - 1] === '\\') {
        buf += c;
      } else if (inTick && buf !== '') {
        inTick = false;
      } else {
        inTick = true;
      }
    } else if (c === ',' && !inTick) {
      out.push(buf.trim());
      buf = '';
    } else {
      buf += c;
    }
  }
  if (buf !== '') {
    out.push(buf.trim());
  }
  return out;
}

/** A single value: surrounding backticks dropped, a trailing `*` read as a prefix marker. */
export function unquote(raw: string): { value: string; prefix: boolean } {
  let v = raw.trim();
  let prefix = false;
  if (v.endsWith('*') && !(v.startsWith('`') && v.endsWith('`'))) {
    prefix = true;
    v = v.slice(0, -1).trimEnd();
  }
  if (v.length >= 2 && v.startsWith('`') && v.endsWith('`')) {
    v = v.slice(1, -1);
  }
  return { value: v, prefix };
}
