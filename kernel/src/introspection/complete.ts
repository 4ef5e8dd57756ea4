/**
 * Completion for console cells: methods at a line start, magic names after `%`, endpoint paths
 * (templates filled with index or collection names), and field names inside JSON bodies and
 * in Typesense query-string parameters that name fields.
 */
import type { EndpointInfo, EngineName } from '../driver-core/driver';
import type { FieldNameOptions } from '../driver-core/field-tree';
import { findEngine } from '../engines/engine-registry';
import { bodyContextAt } from './body-context';
import { completeExportLine } from './complete-export';
import { HTTP_METHODS, type HttpMethod } from '../console/cell';
import { splitCell, type RequestSegment } from '../console/cell-structure';
import {
  isPlaceholder,
  isTargetPlaceholder,
  pathSegments,
  segmentFits
} from './endpoint-match';
import { MAGICS } from '../connections/console-wording';

export interface CompletionContext {
  engine?: EngineName;
  endpoints(): Promise<EndpointInfo[]>;
  targetNames(): Promise<string[]>;
  fieldNames(target: string, options?: FieldNameOptions): Promise<string[]>;
  /** Names set with %set, to complete `${`. */
  variableNames?(): string[];
}

export interface CompletionResult {
  matches: string[];
  cursorStart: number;
  cursorEnd: number;
  /** JupyterLab's completer reads each match's kind from here. */
  metadata?: {
    _jupyter_types_experimental: {
      start: number;
      end: number;
      text: string;
      type: string;
      signature: string;
    }[];
  };
}

interface Candidate {
  text: string;
  type: string;
  signature?: string;
}

/** Keys whose object keys are field names: `"match": {"title": ...}`. */
const FIELD_KEYED = new Set([
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'match_bool_prefix',
  'term',
  'terms',
  'range',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'fields',
  'sort',
  'geo_distance',
  'geo_bounding_box',
  'properties'
]);
/** Keys whose string values are field names: `"field": "title"`, `"_source": ["title"]`. */
const FIELD_VALUED = new Set([
  'field',
  'fields',
  '_source',
  'sort',
  'default_field',
  'includes',
  'excludes',
  'docvalue_fields',
  'stored_fields'
]);
/** Typesense parameters holding comma-separated field lists. */
const FIELD_LISTS = new Set([
  'query_by',
  'sort_by',
  'facet_by',
  'group_by',
  'include_fields',
  'exclude_fields',
  'highlight_fields',
  'filter_by'
]);

function result(
  candidates: Candidate[],
  start: number,
  end: number
): CompletionResult {
  const seen = new Set<string>();
  const unique = candidates.filter(c => !seen.has(c.text) && seen.add(c.text));
  return {
    matches: unique.map(c => c.text),
    cursorStart: start,
    cursorEnd: end,
    metadata: {
      _jupyter_types_experimental: unique.map(c => ({
        start,
        end,
        text: c.text,
        type: c.type,
        signature: c.signature ?? ''
      }))
    }
  };
}

function empty(cursor: number): CompletionResult {
  return { matches: [], cursorStart: cursor, cursorEnd: cursor };
}

function startsWithFold(text: string, prefix: string): boolean {
  return text.toLowerCase().startsWith(prefix.toLowerCase());
}

async function completePath(
  typed: string,
  start: number,
  end: number,
  method: HttpMethod | undefined,
  ctx: CompletionContext
): Promise<CompletionResult> {
  const slash = typed.startsWith('/') ? '/' : '';
  const parts = pathSegments(typed);
  const partial = parts.pop() ?? '';
  const all = await ctx.endpoints();
  const byMethod = method ? all.filter(e => e.methods.includes(method)) : all;
  const endpoints = byMethod.length > 0 ? byMethod : all;
  const literal: Candidate[] = [];
  let wantTargets = false;
  for (const endpoint of endpoints) {
    const template = pathSegments(endpoint.path);
    if (template.length <= parts.length) {
      continue;
    }
    if (!parts.every((p, i) => segmentFits(p, template[i] as string))) {
      continue;
    }
    const next = template[parts.length] as string;
    if (isPlaceholder(next)) {
      if (isTargetPlaceholder(next)) {
        wantTargets = true;
      }
    } else if (startsWithFold(next, partial)) {
      const whole = template.length === parts.length + 1;
      literal.push({
        text: next,
        type: 'path',
        signature: whole
          ? `${endpoint.methods.join('|')} ${endpoint.path}: ${endpoint.description}`
          : endpoint.path
      });
    }
  }
  const targets: Candidate[] = [];
  if (wantTargets) {
    const names = await ctx.targetNames();
    for (const name of names) {
      if (
        startsWithFold(name, partial) &&
        (!name.startsWith('.') || partial.startsWith('.'))
      ) {
        targets.push({
          text: name,
          type: findEngine(ctx.engine)?.targetNoun ?? 'target'
        });
      }
    }
  }
  const byText = (a: Candidate, b: Candidate): number =>
    a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  // Names first when the user has started a name; API words (`_search`) first after `_`.
  const ordered = partial.startsWith('_')
    ? [...literal.sort(byText), ...targets.sort(byText)]
    : [...targets.sort(byText), ...literal.sort(byText)];
  const prefix = slash + parts.map(p => `${p}/`).join('');
  return result(
    ordered.map(c => ({ ...c, text: prefix + c.text })),
    start,
    end
  );
}

function requestTarget(
  text: string,
  request: RequestSegment,
  engine: EngineName | undefined
): string | undefined {
  const line = text.slice(request.at, request.lineEnd);
  const path = /^\S+\s+(\S*)/.exec(line)?.[1] ?? '';
  return findEngine(engine)?.completion.targetOfPath(pathSegments(path));
}

async function completeBody(
  text: string,
  request: RequestSegment,
  cursor: number,
  ctx: CompletionContext
): Promise<CompletionResult> {
  const context = bodyContextAt(text, request.bodyStart, cursor);
  if (!context || !context.owner) {
    return empty(cursor);
  }
  const owner = context.owner;
  const wanted = context.isKey
    ? FIELD_KEYED.has(owner)
    : FIELD_VALUED.has(owner) || FIELD_LISTS.has(owner);
  if (!wanted) {
    return empty(cursor);
  }
  const target =
    context.lastCollection ?? requestTarget(text, request, ctx.engine);
  if (!target) {
    return empty(cursor);
  }
  const fields = await ctx.fieldNames(target);
  if (!context.inString) {
    // An unquoted spot: offer keys with their quotes, only right after `{` or `,`.
    const before = text.slice(request.bodyStart, cursor).trimEnd();
    if (!context.isKey || !/[{,]$/.test(before)) {
      return empty(cursor);
    }
    return result(
      fields.map(f => ({ text: `"${f}"`, type: 'field' })),
      cursor,
      cursor
    );
  }
  let start = context.tokenStart;
  if (!context.isKey && FIELD_LISTS.has(owner)) {
    const lastComma = text.lastIndexOf(',', cursor - 1);
    if (lastComma >= start) {
      start = lastComma + 1;
    }
    while (text[start] === ' ') {
      start++;
    }
  }
  const partial = text.slice(start, cursor);
  const closing = text.indexOf('"', cursor);
  const lineEnd = text.indexOf('\n', cursor);
  let end = cursor;
  // Replace the rest of the word under the cursor, not the text after the closing quote.
  while (
    end < text.length &&
    /[\w.@-]/.test(text[end] as string) &&
    (closing === -1 || end < closing) &&
    (lineEnd === -1 || end < lineEnd)
  ) {
    end++;
  }
  return result(
    fields
      .filter(f => startsWithFold(f, partial))
      .map(f => ({ text: f, type: 'field' })),
    start,
    end
  );
}

/**
 * Field names in a Typesense query string: `query_by=ti`, `sort_by=rating:desc,ye`,
 * `filter_by=genre:Fiction && ye`. Only where a field name goes, never in a value after `:`.
 */
async function completeQueryField(
  text: string,
  request: RequestSegment,
  cursor: number,
  query: string,
  ctx: CompletionContext
): Promise<CompletionResult> {
  // The parameter the cursor is in: pieces without `name=` belong to the one before (`&&` in filter_by).
  const pieces = query.split('&');
  let owner = pieces.length - 1;
  while (owner >= 0 && !/^[\w.]+=/.test(pieces[owner] as string)) {
    owner--;
  }
  const param = /^([\w.]+)=([\s\S]*)$/.exec(
    pieces.slice(Math.max(owner, 0)).join('&')
  );
  if (owner < 0 || !param || !FIELD_LISTS.has(param[1] ?? '')) {
    return empty(cursor);
  }
  const value = param[2] ?? '';
  const partial = /[\w.@-]*$/.exec(value)?.[0] ?? '';
  const before = value.slice(0, value.length - partial.length).trimEnd();
  if (!(before === '' || /[,(|&!]$/.test(before))) {
    return empty(cursor);
  }
  const target = requestTarget(text, request, ctx.engine);
  if (!target) {
    return empty(cursor);
  }
  const fields = await ctx.fieldNames(target);
  let end = cursor;
  while (end < text.length && /[\w.@-]/.test(text[end] as string)) {
    end++;
  }
  return result(
    fields
      .filter(f => startsWithFold(f, partial))
      .map(f => ({ text: f, type: 'field' })),
    cursor - partial.length,
    end
  );
}

function completeVariable(
  text: string,
  cursor: number,
  ctx: CompletionContext
): CompletionResult | undefined {
  const match = /\$\{(env:)?([A-Za-z0-9_]*)$/.exec(
    text.slice(Math.max(0, cursor - 200), cursor)
  );
  if (!match) {
    return undefined;
  }
  if (match[1] || !ctx.variableNames) {
    return empty(cursor);
  }
  const partial = match[2] ?? '';
  const start = cursor - partial.length;
  const names = ctx.variableNames().filter(n => n.startsWith(partial));
  return result(
    names.map(n => ({ text: `${n}}`, type: 'variable' })),
    start,
    cursor
  );
}

export async function complete(
  text: string,
  cursorPos: number,
  ctx: CompletionContext
): Promise<CompletionResult> {
  const cursor = Math.max(0, Math.min(cursorPos, text.length));
  const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
  const before = text.slice(lineStart, cursor);
  const variable = completeVariable(text, cursor, ctx);
  if (variable) {
    return variable;
  }

  const magic = /^\s*%([\w-]*)$/.exec(before);
  if (magic) {
    const partial = magic[1] ?? '';
    const names = MAGICS.filter(m => m.name.startsWith(partial.toLowerCase()));
    // The `%` is part of the match, as in IPython, so frontends show `%connect`, not `connect`.
    return result(
      names.map(m => ({
        text: `%${m.name}`,
        type: 'magic',
        signature: m.usage
      })),
      cursor - partial.length - 1,
      cursor
    );
  }

  const lineEnd = text.indexOf('\n', cursor);
  const exportLine = await completeExportLine(
    before,
    lineStart,
    text.slice(cursor, lineEnd === -1 ? text.length : lineEnd),
    ctx
  );
  if (exportLine) {
    let end = cursor;
    while (end < text.length && !/[\s,]/.test(text[end] as string)) {
      end++;
    }
    return result(exportLine.candidates, exportLine.start, end);
  }

  const segments = splitCell(text);
  const request = segments.find(
    (s): s is RequestSegment =>
      s.kind === 'request' && s.at <= cursor && cursor <= s.end
  );
  const onRequestLine = request !== undefined && cursor <= request.lineEnd;

  if (request && !onRequestLine) {
    return completeBody(text, request, cursor, ctx);
  }

  const word = /^\s*([A-Za-z]*)$/.exec(before);
  if (word) {
    const partial = word[1] ?? '';
    // Inside stray body text (no request line above it) a word is not a method.
    const inBody = segments.some(
      s => s.kind === 'stray' && s.at < lineStart && cursor <= s.end
    );
    if (inBody) {
      return empty(cursor);
    }
    let end = cursor;
    while (end < text.length && /[A-Za-z]/.test(text[end] as string)) {
      end++;
    }
    const methods = HTTP_METHODS.filter(m => startsWithFold(m, partial));
    return result(
      methods.map(m => ({ text: m, type: 'method' })),
      cursor - partial.length,
      end
    );
  }

  const query = /^\s*[A-Za-z]+[ \t]+\S*\?(.*)$/.exec(before);
  if (query && onRequestLine && request) {
    return completeQueryField(text, request, cursor, query[1] ?? '', ctx);
  }

  const path = /^\s*([A-Za-z]+)[ \t]+(\S*)$/.exec(before);
  if (path && onRequestLine) {
    const method = (path[1] ?? '').toUpperCase();
    const typed = path[2] ?? '';
    if (typed.includes('?')) {
      return empty(cursor);
    }
    const start = cursor - typed.length;
    let end = cursor;
    while (end < text.length && !/[\s?]/.test(text[end] as string)) {
      end++;
    }
    const known = (HTTP_METHODS as readonly string[]).includes(method)
      ? (method as HttpMethod)
      : undefined;
    return completePath(typed, start, end, known, ctx);
  }
  return empty(cursor);
}
