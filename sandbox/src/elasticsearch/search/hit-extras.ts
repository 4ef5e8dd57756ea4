/**
 * What a hit carries besides _source: `fields` from `docvalue_fields` (values as doc values
 * hold them, dates printed in the field's or the request's format), and `highlight`
 * fragments of text fields holding the query's terms (the default unified highlighter's
 * `<em>` tags; values up to `fragment_size` come back whole, longer ones in passages of
 * about that size cut at word boundaries).
 */
import { isObject, type Json, type JsonObject } from '../json-value';
import type { IndexData } from '../index-data';
import type { ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import { formatWith } from './date-format';
import { docValues, rawValues, type DocView } from './values';

export interface DocvalueSpec {
  field: string;
  format?: string;
}

export function readDocvalueFields(raw: Json | undefined): DocvalueSpec[] {
  if (!Array.isArray(raw)) {
    return [];
  }
  return raw.flatMap((r): DocvalueSpec[] => {
    if (typeof r === 'string') {
      return [{ field: r }];
    }
    if (isObject(r) && typeof r['field'] === 'string') {
      return [
        {
          field: r['field'],
          ...(typeof r['format'] === 'string' ? { format: r['format'] } : {})
        }
      ];
    }
    return [];
  });
}

function docValueOut(
  field: ResolvedField,
  v: string | number,
  format: string | undefined
): Json {
  if (field.type === 'date' || field.type === 'date_nanos') {
    return typeof v === 'number' ? formatWith(v, format ?? field.format) : v;
  }
  if (field.type === 'boolean') {
    return v === 1;
  }
  if (field.type === 'float') {
    return Math.fround(v as number);
  }
  return v;
}

export function docvalueFields(
  specs: DocvalueSpec[],
  index: IndexData,
  view: DocView
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const spec of specs) {
    const field = index.mapping.resolve(spec.field);
    if (!field) {
      continue;
    }
    const values = docValues(view, field);
    if (values.length === 0) {
      continue;
    }
    const sorted = [...values].sort((a, b) =>
      typeof a === 'number' && typeof b === 'number'
        ? a - b
        : String(a) < String(b)
          ? -1
          : 1
    );
    out[spec.field] = sorted.map(v => docValueOut(field, v, spec.format));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// ---------------------------------------------------------------------------------------------

export interface HighlightSpec {
  fields: { name: string; fragmentSize: number; fragments: number }[];
  pre: string;
  post: string;
}

export function readHighlight(
  raw: Json | undefined
): HighlightSpec | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const pre = Array.isArray(raw['pre_tags'])
    ? asText(raw['pre_tags'][0])
    : '<em>';
  const post = Array.isArray(raw['post_tags'])
    ? asText(raw['post_tags'][0])
    : '</em>';
  const num = (o: JsonObject, k: string, d: number): number =>
    typeof o[k] === 'number'
      ? (o[k] as number)
      : typeof raw[k] === 'number'
        ? (raw[k] as number)
        : d;
  const entries = Array.isArray(raw['fields'])
    ? raw['fields'].filter(isObject).flatMap(o => Object.entries(o))
    : isObject(raw['fields'])
      ? Object.entries(raw['fields'])
      : [];
  const fields = entries.map(([name, def]) => {
    const o = isObject(def) ? def : {};
    return {
      name,
      fragmentSize: num(o, 'fragment_size', 100),
      fragments: num(o, 'number_of_fragments', 5)
    };
  });
  return { fields, pre, post };
}

/** The analysed terms a query looks for in one field (terms of match, term, phrase and multi_match clauses). */
export function queryTerms(
  query: Json | undefined,
  field: string,
  out = new Set<string>()
): Set<string> {
  if (Array.isArray(query)) {
    for (const q of query) {
      queryTerms(q, field, out);
    }
    return out;
  }
  if (!isObject(query)) {
    return out;
  }
  for (const [kind, body] of Object.entries(query)) {
    if (
      [
        'match',
        'match_phrase',
        'match_phrase_prefix',
        'match_bool_prefix',
        'term'
      ].includes(kind) &&
      isObject(body)
    ) {
      const spec = body[field];
      if (spec !== undefined) {
        for (const t of tokenize(
          asText(isObject(spec) ? (spec['query'] ?? spec['value']) : spec)
        )) {
          out.add(t);
        }
      }
    } else if (
      kind === 'terms' &&
      isObject(body) &&
      Array.isArray(body[field])
    ) {
      for (const v of body[field] as Json[]) {
        for (const t of tokenize(asText(v))) {
          out.add(t);
        }
      }
    } else if (
      kind === 'multi_match' &&
      isObject(body) &&
      Array.isArray(body['fields'])
    ) {
      if (body['fields'].some(f => asText(f).split('^')[0] === field)) {
        for (const t of tokenize(asText(body['query']))) {
          out.add(t);
        }
      }
    } else if (isObject(body) || Array.isArray(body)) {
      queryTerms(body as Json, field, out);
    }
  }
  return out;
}

/** Passages of one value: whole when short; else windows of about `size` characters ending at a word end. */
function passages(value: string, size: number): [number, number][] {
  if (value.length <= size) {
    return [[0, value.length]];
  }
  const out: [number, number][] = [];
  let start = 0;
  while (start < value.length) {
    let end = Math.min(value.length, start + size);
    while (end < value.length && /[\p{L}\p{N}_]/u.test(value[end] as string)) {
      end++;
    }
    out.push([start, end]);
    start = end;
    while (
      start < value.length &&
      !/[\p{L}\p{N}_]/u.test(value[start] as string)
    ) {
      start++;
    }
  }
  return out;
}

function tagged(
  text: string,
  terms: Set<string>,
  pre: string,
  post: string
): { text: string; hits: number } {
  let hits = 0;
  const out = text.replace(/[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}]+)*/gu, word => {
    if (!terms.has(word.toLowerCase())) {
      return word;
    }
    hits++;
    return `${pre}${word}${post}`;
  });
  return { text: out, hits };
}

export function highlightHit(
  spec: HighlightSpec,
  query: Json | undefined,
  index: IndexData,
  view: DocView
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const f of spec.fields) {
    const field = index.mapping.resolve(f.name);
    if (
      !field ||
      (field.type !== 'text' &&
        field.type !== 'match_only_text' &&
        field.type !== 'keyword')
    ) {
      continue;
    }
    const terms = queryTerms(query, f.name);
    if (terms.size === 0) {
      continue;
    }
    const fragments: string[] = [];
    for (const v of rawValues(view, field)) {
      const value = asText(v);
      if (field.type === 'keyword') {
        if (terms.has(value.toLowerCase())) {
          fragments.push(`${spec.pre}${value}${spec.post}`);
        }
        continue;
      }
      for (const [s, e] of passages(value, f.fragmentSize)) {
        const t = tagged(value.slice(s, e), terms, spec.pre, spec.post);
        if (t.hits > 0) {
          fragments.push(t.text);
        }
      }
    }
    if (fragments.length > 0) {
      out[f.name] =
        f.fragments === 0 ? fragments : fragments.slice(0, f.fragments);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// ---------------------------------------------------------------------------------------------

/** The `fields` option: values of mapped fields read from _source (dates in their format); nested fields grouped per nested object. */
export function fieldsOption(
  specs: DocvalueSpec[],
  index: IndexData,
  view: DocView
): JsonObject | undefined {
  const out: JsonObject = {};
  const leaves = index.mapping.leafFields();
  const nestedGroups = new Map<
    string,
    { field: ResolvedField; format: string | undefined }[]
  >();
  for (const spec of specs) {
    const re = new RegExp(
      `^${spec.field
        .split('*')
        .map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`
    );
    for (const field of leaves.filter(f => re.test(f.name))) {
      if (field.nestedPath !== undefined) {
        const group = nestedGroups.get(field.nestedPath) ?? [];
        group.push({ field, format: spec.format });
        nestedGroups.set(field.nestedPath, group);
        continue;
      }
      const values = sourceValues(field, view, spec.format);
      if (values.length > 0) {
        out[field.name] = values;
      }
    }
  }
  for (const [path, group] of nestedGroups) {
    const objects: Json[] = [];
    for (const obj of pathValuesOf(view, path)) {
      const nestedView: DocView = {
        source: view.source,
        nestedPath: path,
        nested: obj
      };
      const entry: JsonObject = {};
      for (const { field, format } of group) {
        const values = sourceValues(field, nestedView, format);
        if (values.length > 0) {
          entry[field.name.slice(path.length + 1)] = values;
        }
      }
      if (Object.keys(entry).length > 0) {
        objects.push(entry);
      }
    }
    if (objects.length > 0) {
      out[path] = objects;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function pathValuesOf(view: DocView, path: string): JsonObject[] {
  const out: JsonObject[] = [];
  const walk = (node: Json | undefined, parts: string[]): void => {
    if (Array.isArray(node)) {
      return node.forEach(n => walk(n, parts));
    }
    if (!isObject(node)) {
      return;
    }
    if (parts.length === 0) {
      out.push(node);
      return;
    }
    walk(node[parts[0] as string], parts.slice(1));
  };
  walk(view.source, path.split('.'));
  return out;
}

function sourceValues(
  field: ResolvedField,
  view: DocView,
  format: string | undefined
): Json[] {
  if (
    field.type === 'date' ||
    field.type === 'date_nanos' ||
    field.type === 'boolean' ||
    field.type === 'keyword' ||
    field.type === 'float'
  ) {
    return docValues(view, field).map(v => docValueOut(field, v, format));
  }
  return rawValues(view, field).filter(v => v !== null && !isObject(v));
}

/** The collapse field's value, as a collapsed hit shows it under `fields`. */
export function collapseValue(
  name: string,
  index: IndexData,
  view: DocView
): JsonObject {
  const field = index.mapping.resolve(name);
  const first = field ? docValues(view, field)[0] : undefined;
  return {
    [name]: [
      first === undefined
        ? null
        : docValueOut(field as ResolvedField, first, undefined)
    ]
  };
}

/** The key a hit collapses on: its first doc value of the field (missing values collapse together). */
export function collapseKey(
  name: string,
  index: IndexData,
  view: DocView
): string {
  const field = index.mapping.resolve(name);
  const first = field ? docValues(view, field)[0] : undefined;
  return first === undefined ? '\u0000none' : String(first);
}
