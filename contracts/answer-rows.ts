/**
 * Grid rows from documents: the one row builder (rowBuilder) of the kernel's grids and of the
 * rows rebuilt from the engine's answer kept in the notebook, so each answer is stored once and
 * every grid of it shows the same rows.
 */
import type { Column } from './columns';
import { type JsonObject, type JsonValue, isJsonObject } from './json';
import { fieldRecord, hasField, ownValue } from './own-fields';
import { parseExactJson } from './exact-json';
import { documentCountOfText, documentSpansOfText } from './answer-count';
import type { DocumentLayout, HitsPayload, TablePayload } from './mime-types';
import { type KeptAnswer, swappedAnswerText } from './answer-format';

export type Row = Record<string, JsonValue>;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value);
}

/** Objects flatten to dotted paths; arrays stay whole (they render as JSON). The rows of tables. */
export function flattenDocument(
  doc: JsonObject,
  prefix = '',
  into: Row = fieldRecord()
): Row {
  for (const [key, value] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) {
      flattenDocument(value, path, into);
    } else {
      into[path] = value;
    }
  }
  return into;
}

/** One table row per element of an array answer (or of JSONL lines). */
export function tableRows(answer: JsonValue): Row[] {
  return (Array.isArray(answer) ? answer : [answer]).map(value =>
    isObject(value) ? flattenDocument(value) : { value }
  );
}

/** The value at a path; through an array, the list of each element's value. */
export function valueAt(
  value: JsonValue | undefined,
  path: readonly (string | number)[]
): JsonValue | undefined {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string | number;
    if (Array.isArray(current)) {
      if (typeof key === 'number') {
        current = current[key];
      } else {
        return current.map(element => valueAt(element, path.slice(i)) ?? null);
      }
    } else if (isObject(current)) {
      current = ownValue(current, String(key));
    } else {
      return undefined;
    }
  }
  return current;
}

/** The documents array an answer holds under `layout.at` (an object there is one document). */
export function documentsOf(
  answer: JsonValue,
  layout: Pick<DocumentLayout, 'at'>
): JsonValue[] {
  const at = valueAt(answer, layout.at);
  return Array.isArray(at) ? at : isObject(at) ? [at] : [];
}

/**
 * One row per document of an answer kept in the notebook: the leading columns from the
 * element, then the document's fields as rowBuilder places them.
 */
export function documentRows(
  answer: JsonValue,
  layout: DocumentLayout,
  columns: readonly Column[],
  limit = Number.POSITIVE_INFINITY
): Row[] {
  const documents = documentsOf(answer, layout);
  return (limit < documents.length ? documents.slice(0, limit) : documents).map(
    documentRow(layout, columns)
  );
}

/** Builds the row of one element of the documents array (see documentRows). */
export function documentRow(
  layout: DocumentLayout,
  columns: readonly Column[]
): (element: JsonValue) => Row {
  const build = rowBuilder(columns);
  const meta = Object.entries(layout.meta);
  return element => {
    const row: Row = fieldRecord();
    for (const [name, path] of meta) {
      row[name] = valueAt(element, path) ?? null;
    }
    return build(row, valueAt(element, layout.source) ?? {});
  };
}

/** Whether an object has a field: no array of its keys made for every object of every document. */
function hasKeys(object: JsonObject): boolean {
  for (const key in object) {
    if (hasField(object, key)) {
      return true;
    }
  }
  return false;
}

/** A leaf under an array of objects: its column, and its path inside one element. */
export interface ElementLeaf {
  name: string;
  path: string[];
}

/**
 * The one way a document becomes a grid row, given the grid's columns: the kernel's grids and
 * fallbacks, the panel's pages and the notebook's outputs rebuilt from the answer all place
 * fields through here, so they cannot disagree.
 *
 * - A field whose column comes from the mapping or schema keeps its whole value, objects
 *   included; the columns of the leaves of an array of objects (`nested`, `object[]`, those
 *   with `arrayParent`) get one entry per element, `null` where an element omits the leaf (a
 *   single object where an array is mapped is an array of one).
 * - Any other object flattens to dotted names (an empty object stays `{}` in its own column).
 * - Any other value fills the column of its path; an array of objects where the mapping has
 *   a plain object also fills the mapped leaves under it, one entry per element.
 *
 * Columns of payloads from before `origin` existed keep their values whole, as their rows did.
 * Returns a function that fills `row` (the leading columns already set) from one document.
 */
export function rowBuilder(
  columns: readonly Column[]
): (row: Row, source: JsonValue) => Row {
  const place = fieldPlacer(columns);
  return (row, source) => {
    place(source, (name, value) => {
      row[name] = value;
    });
    return row;
  };
}

/** How rowBuilder places the fields under a grid's columns (see rowBuilder). */
export interface FieldPlacement {
  /** Paths whose value fills its column whole, objects included. */
  whole: ReadonlySet<string>;
  /** Under such a path, the leaves of an array of objects: one entry per element. */
  arrayLeaves: ReadonlyMap<string, readonly ElementLeaf[]>;
  /** Under a mapped object's path, the mapped leaves an array of objects there also fills. */
  mappedLeaves: ReadonlyMap<string, readonly ElementLeaf[]>;
}

export function fieldPlacement(columns: readonly Column[]): FieldPlacement {
  const whole = new Set<string>();
  const arrayLeaves = new Map<string, ElementLeaf[]>();
  const mappedLeaves = new Map<string, ElementLeaf[]>();
  const add = (
    into: Map<string, ElementLeaf[]>,
    under: string,
    name: string
  ) => {
    const list = into.get(under) ?? [];
    list.push({ name, path: name.slice(under.length + 1).split('.') });
    into.set(under, list);
  };
  for (const c of columns) {
    if (c.arrayParent !== undefined) {
      add(arrayLeaves, c.arrayParent, c.name);
      continue;
    }
    if (c.origin === 'documents' || c.origin === 'meta') {
      continue;
    }
    whole.add(c.name);
    if (c.origin === 'mapping') {
      for (
        let dot = c.name.indexOf('.');
        dot > 0;
        dot = c.name.indexOf('.', dot + 1)
      ) {
        add(mappedLeaves, c.name.slice(0, dot), c.name);
      }
    }
  }
  return { whole, arrayLeaves, mappedLeaves };
}

/** Receives each field of a document as rowBuilder places it: its column's name and value. */
export type PlaceField = (name: string, value: JsonValue) => void;

/**
 * rowBuilder's placing without the row: each field is handed to `set` in the order rowBuilder
 * assigns it (a later one for the same column replaces an earlier one), so a writer that
 * puts values straight into its own columns (a CSV line) builds no row a document.
 */
export function fieldPlacer(
  columns: readonly Column[]
): (source: JsonValue, set: PlaceField) => void {
  const { whole, arrayLeaves, mappedLeaves } = fieldPlacement(columns);
  // `prefix.key`, made once per grid: thousands of documents repeat the same paths.
  const paths = new Map<string, Map<string, string>>();
  const joined = (prefix: string, key: string): string => {
    if (!prefix) {
      return key;
    }
    let under = paths.get(prefix);
    if (!under) {
      paths.set(prefix, (under = new Map()));
    }
    let path = under.get(key);
    if (path === undefined) {
      under.set(key, (path = `${prefix}.${key}`));
    }
    return path;
  };
  const entries = (
    set: PlaceField,
    leaves: readonly ElementLeaf[],
    elements: readonly JsonValue[]
  ): void => {
    for (const leaf of leaves) {
      set(
        leaf.name,
        elements.map(element => valueAt(element, leaf.path) ?? null)
      );
    }
  };
  const walk = (object: JsonObject, prefix: string, set: PlaceField): void => {
    // for-in, not Object.entries: no pair arrays to collect for every field of every document.
    for (const key in object) {
      const value = object[key] as JsonValue;
      const path = joined(prefix, key);
      if (whole.has(path)) {
        set(path, value);
        const leaves = arrayLeaves.get(path);
        const elements = Array.isArray(value)
          ? value
          : isObject(value)
            ? [value]
            : undefined;
        if (leaves && elements) {
          entries(set, leaves, elements);
        }
        continue;
      }
      if (isObject(value) && hasKeys(value)) {
        walk(value, path, set);
        continue;
      }
      set(path, value);
      const leaves =
        Array.isArray(value) && value.some(isObject)
          ? mappedLeaves.get(path)
          : undefined;
      if (leaves) {
        entries(set, leaves, value as JsonValue[]);
      }
    }
  };
  return (source, set) => {
    if (isObject(source)) {
      walk(source, '', set);
    } else {
      set('value', source);
    }
  };
}

const DOUBLE = 0x22;
const SINGLE = 0x27;

/**
 * Swaps every `"` and `'` of a text (its own inverse). Both are ASCII, so swapping UTF-8
 * bytes is safe; a byte loop is several times faster than a regular expression here.
 */
export function swapQuotes(text: string): string {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === DOUBLE) {
      bytes[i] = SINGLE;
    } else if (b === SINGLE) {
      bytes[i] = DOUBLE;
    }
  }
  return new TextDecoder().decode(bytes);
}

/** The engine's answer a payload keeps, as a JSON value. */
export function answerValue(payload: KeptAnswer): JsonValue | undefined {
  const answer = swappedAnswerText(payload);
  return answer === undefined
    ? undefined
    : (parseExactJson(swapQuotes(answer)) as JsonValue);
}

/** The rows of a hits payload: stored (older notebooks, answers too large to keep) or rebuilt from its answer. */
export function hitsPayloadRows(payload: HitsPayload): Row[] {
  if (payload.exactRows !== undefined) {
    return parseExactJson(swapQuotes(payload.exactRows)) as Row[];
  }
  if (payload.rows) {
    return payload.rows as Row[];
  }
  const answer = answerValue(payload);
  return answer !== undefined && payload.documents
    ? documentRows(answer, payload.documents, payload.columns)
    : [];
}

/** The rows of an aggregation table: exact where the payload keeps their exact text. */
export function aggregationRows(table: {
  rows: Record<string, unknown>[];
  exactRows?: string | undefined;
}): Row[] {
  return table.exactRows !== undefined
    ? (parseExactJson(swapQuotes(table.exactRows)) as Row[])
    : (table.rows as Row[]);
}

/** The rows of a table payload, stored or rebuilt from its answer. */
export function tablePayloadRows(payload: TablePayload): Row[] {
  if (payload.exactRows !== undefined) {
    return parseExactJson(swapQuotes(payload.exactRows)) as Row[];
  }
  if (payload.rows) {
    return payload.rows as Row[];
  }
  const answer = answerValue(payload);
  return answer !== undefined ? tableRows(answer) : [];
}

/**
 * How many rows a hits payload holds, without building them: an output shows its count at
 * once but builds its rows only when its grid is shown.
 */
export function hitsPayloadRowCount(payload: HitsPayload): number {
  if (payload.exactRows !== undefined || payload.rows) {
    return hitsPayloadRows(payload).length;
  }
  if (payload.rowCount !== undefined) {
    return payload.rowCount;
  }
  const answer = swappedAnswerText(payload);
  if (answer === undefined || !payload.documents) {
    return 0;
  }
  return (
    documentCountOfText(answer, payload.documents.at) ??
    documentsOf(answerValue(payload) ?? null, payload.documents).length
  );
}

/** How many rows a table payload holds, without flattening them. */
export function tablePayloadRowCount(payload: TablePayload): number {
  if (payload.exactRows !== undefined || payload.rows) {
    return tablePayloadRows(payload).length;
  }
  if (payload.rowCount !== undefined) {
    return payload.rowCount;
  }
  const answer = answerValue(payload);
  return answer === undefined ? 0 : Array.isArray(answer) ? answer.length : 1;
}

/** Rows built one at a time when asked for: a grid builds only those it draws. */
export interface RowReader {
  readonly count: number;
  row(index: number): Row;
}

/** Where each document lies in the text of the answer a payload keeps, and that text's length. */
export interface DocumentPlaces {
  spans: readonly number[];
  textLength: number;
}

/**
 * Where the documents of a hits payload lie in its answer's text (see documentSpansOfText):
 * undefined for payloads that keep their rows, or an answer the scanner cannot place.
 */
export function hitsPayloadDocumentPlaces(
  payload: HitsPayload
): DocumentPlaces | undefined {
  const { documents } = payload;
  if (payload.exactRows !== undefined || payload.rows || !documents) {
    return undefined;
  }
  const answer = swappedAnswerText(payload);
  if (answer === undefined) {
    return undefined;
  }
  const spans = documentSpansOfText(answer, documents.at);
  return spans && { spans, textLength: answer.length };
}

/**
 * The rows of a hits payload that keeps its answer, each built from its own document's text
 * when asked for (the same row hitsPayloadRows builds at that index), the document parsed with
 * its neighbours (PARSED_TOGETHER); undefined where
 * hitsPayloadDocumentPlaces is (read the rows whole then). `places`: found before in the same
 * payload's text, so the text is not scanned again.
 */
export function hitsPayloadRowReader(
  payload: HitsPayload,
  places?: DocumentPlaces
): RowReader | undefined {
  const { documents } = payload;
  const answer = swappedAnswerText(payload);
  const found =
    places && places.textLength === answer?.length
      ? places
      : hitsPayloadDocumentPlaces(payload);
  if (!found || answer === undefined || !documents) {
    return undefined;
  }
  const { spans } = found;
  const build = documentRow(documents, payload.columns);
  const count = spans.length / 2;
  const documentText = (index: number): string => {
    const start = spans[2 * index];
    const end = spans[2 * index + 1];
    if (start === undefined || end === undefined) {
      throw new RangeError(`no document ${index} in this answer`);
    }
    return answer.slice(start, end);
  };
  /** The last run of documents parsed, by the index of its first. */
  let block: { from: number; values: readonly JsonValue[] } | undefined;
  const parsed = (index: number): JsonValue => {
    if (
      block &&
      index >= block.from &&
      index < block.from + block.values.length
    ) {
      return block.values[index - block.from] as JsonValue;
    }
    const from = index - (index % PARSED_TOGETHER);
    const to = Math.min(count, from + PARSED_TOGETHER);
    const values =
      index < count ? parsedRun(answer, spans, from, to) : undefined;
    if (!values) {
      // A run that does not parse whole (a document changed by hand): each on its own, as before.
      return parseExactJson(swapQuotes(documentText(index))) as JsonValue;
    }
    block = { from, values };
    return values[index - from] as JsonValue;
  };
  return { count, row: index => build(parsed(index)) };
}

/**
 * Documents a reader parses together: the rows a grid first reads (those it draws, those its
 * column widths are fitted to) are neighbours, and one swap and one parse of their run costs
 * a fraction of one per document while a notebook opens and its code has not warmed up yet.
 */
const PARSED_TOGETHER = 50;

/** The documents `from` to `to` (exclusive), parsed as one array; undefined if their run does not parse as that. */
function parsedRun(
  answer: string,
  spans: readonly number[],
  from: number,
  to: number
): readonly JsonValue[] | undefined {
  const start = spans[2 * from];
  const end = spans[2 * to - 1];
  if (start === undefined || end === undefined) {
    return undefined;
  }
  try {
    // Between two documents of the array stand only a comma and white space.
    const values = parseExactJson(
      `[${swapQuotes(answer.slice(start, end))}]`
    ) as JsonValue;
    return Array.isArray(values) && values.length === to - from
      ? values
      : undefined;
  } catch {
    return undefined;
  }
}
