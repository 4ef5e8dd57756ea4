/**
 * The grid's view as an Elasticsearch search: filter rows as
 * `term`, `range`, `wildcard`, `terms`, `exists`, `prefix` and `regexp` clauses, the raw row as
 * a `query_string`, leaves of nested arrays in `nested` queries, and header sorts with text
 * fields on their keyword subfield. Pure: nothing here sends anything.
 */
import type { JsonValue } from '../../console/cell';
import type { Flavour } from './flavour';
import type {
  FilterRow,
  GridView,
  OperatorInfo,
  SortKey
} from '../../../../contracts/panel-protocol';
import type { FieldTree } from '../../driver-core/field-tree';
import {
  booleanValue,
  type LeafNode,
  listValue,
  numberValue,
  pairValue,
  type ResolvedColumn,
  resolveColumn,
  singleValue
} from '../../driver-core/grid-view';
import { filterRefusal } from '../../console/refusal';
import type { RankedSort } from './sorted-places';

const INTEGER = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
const NUMERIC = new Set([
  ...INTEGER,
  'double',
  'float',
  'half_float',
  'scaled_float'
]);
const DATES = new Set(['date', 'date_nanos']);

const ANY_CASE = 'In any case unless Match case is on.';

/**
 * The operators as this module sends them: string operators on a text field go through its
 * keyword subfield, and ignore case (`case_insensitive`) unless Match case is on.
 */
export const OPERATORS: OperatorInfo[] = [
  {
    operator: 'equals',
    label: 'equals',
    does: `The whole value is this (term; a text field through its keyword subfield, or as a phrase without one). ${ANY_CASE}`
  },
  {
    operator: 'not equals',
    label: 'not equals',
    does: `The whole value is not this. ${ANY_CASE}`
  },
  {
    operator: 'greater than',
    label: 'greater than',
    does: 'After this value: numbers, dates, and strings in keyword order (range gt).'
  },
  {
    operator: 'greater or equal',
    label: 'greater or equal',
    does: 'This value or after it (range gte).'
  },
  {
    operator: 'less than',
    label: 'less than',
    does: 'Before this value (range lt).'
  },
  {
    operator: 'less or equal',
    label: 'less or equal',
    does: 'This value or before it (range lte).'
  },
  {
    operator: 'between',
    label: 'between',
    does: 'From low to high, both included (low..high).'
  },
  {
    operator: 'in list',
    label: 'in list',
    does: `The whole value is one of these (a, b, c). ${ANY_CASE}`
  },
  {
    operator: 'not in list',
    label: 'not in list',
    does: `The whole value is none of these. ${ANY_CASE}`
  },
  {
    operator: 'contains',
    label: 'contains',
    does: `This text anywhere in the value (wildcard *text*; a text field without a keyword subfield: these words as a phrase). ${ANY_CASE}`
  },
  {
    operator: 'not contains',
    label: 'not contains',
    does: `This text nowhere in the value. ${ANY_CASE}`
  },
  {
    operator: 'starts with',
    label: 'starts with',
    does: `The value begins with this text (prefix). ${ANY_CASE}`
  },
  {
    operator: 'ends with',
    label: 'ends with',
    does: `The value ends with this text (wildcard *text). ${ANY_CASE}`
  },
  {
    operator: 'is null',
    label: 'is null',
    does: 'The field is missing or null (must_not exists).'
  },
  {
    operator: 'is not null',
    label: 'is not null',
    does: 'The field holds a value (exists).'
  },
  {
    operator: 'is empty',
    label: 'is empty',
    does: 'The field is missing, null or the empty string.'
  },
  {
    operator: 'is not empty',
    label: 'is not empty',
    does: 'The field holds a value other than the empty string.'
  },
  {
    operator: 'matches regex',
    label: 'matches regex',
    does: `The whole value matches this Lucene regular expression (regexp; add .* at either end to match inside it). ${ANY_CASE}`
  }
];

export interface SearchView {
  query: JsonValue | undefined;
  /** The sort the view asks for, without the point in time's tie-breaker. */
  sort: JsonValue[];
  /** The columns the sort holds, in order (the view's sort without those left out). */
  sortedBy: string[];
  notes: string[];
  /** The sort's one clause when rows can be placed in it by counting (sorted-places.ts). */
  rankedBy?: RankedSort;
}

export function searchOfView(
  view: GridView,
  tree: FieldTree | undefined,
  flavour: Pick<Flavour, 'product'> = { product: 'Elasticsearch' }
): SearchView {
  const { sort, sortedBy, notes, rankedBy } = sortOfView(
    view.sort,
    tree,
    flavour
  );
  return {
    query: queryOfView(view, tree),
    sort,
    sortedBy,
    notes,
    ...(rankedBy ? { rankedBy } : {})
  };
}

/** A filter column: the field exact clauses use, how values are typed, and its nested array. */
interface Target {
  column: string;
  /** The indexed field itself (exists, ranges on numbers and dates). */
  field: string;
  /** The field exact string clauses use: the keyword subfield of a text field; undefined when a text field has none. */
  exact: string | undefined;
  type: string;
  kind: 'number' | 'integer' | 'date' | 'boolean' | 'string';
  nested?: string;
}

function not(clause: JsonValue): JsonValue {
  return { bool: { must_not: [clause] } };
}

function joined(clauses: JsonValue[], join: GridView['join']): JsonValue {
  if (clauses.length === 1) {
    return clauses[0] as JsonValue;
  }
  return join === 'all'
    ? { bool: { filter: clauses } }
    : { bool: { should: clauses, minimum_should_match: 1 } };
}

export function queryOfView(
  view: GridView,
  tree: FieldTree | undefined
): JsonValue | undefined {
  const clauses: JsonValue[] = [];
  // Nested rows grouped onto one element: one `nested` query each, placed where its first row is.
  const groups = new Map<
    string,
    { path: string; clauses: JsonValue[]; slot: number }
  >();
  view.filters.forEach((row, index) => {
    const target = filterTarget(row, index, tree);
    const clause = rowClause(row, index, target, view.matchCase);
    if (!target.nested) {
      clauses.push(clause);
      return;
    }
    if (row.element === undefined || row.element === '') {
      clauses.push({ nested: { path: target.nested, query: clause } });
      return;
    }
    const key = `${target.nested}\u0000${row.element}`;
    const group = groups.get(key);
    if (group) {
      group.clauses.push(clause);
    } else {
      groups.set(key, {
        path: target.nested,
        clauses: [clause],
        slot: clauses.length
      });
      clauses.push(null);
    }
  });
  for (const group of groups.values()) {
    clauses[group.slot] = {
      nested: { path: group.path, query: joined(group.clauses, view.join) }
    };
  }
  if (view.raw.trim() !== '') {
    clauses.push({ query_string: { query: view.raw } });
  }
  return clauses.length === 0 ? undefined : joined(clauses, view.join);
}

function filterTarget(
  row: FilterRow,
  index: number,
  tree: FieldTree | undefined
): Target {
  if (row.column === '_id') {
    return {
      column: '_id',
      field: '_id',
      exact: '_id',
      type: '_id',
      kind: 'string'
    };
  }
  if (row.column === '_index') {
    return {
      column: '_index',
      field: '_index',
      exact: '_index',
      type: '_index',
      kind: 'string'
    };
  }
  if (row.column === '_score') {
    throw filterRefusal(
      '_score is computed by each search and cannot be filtered: filter on a field, or write a raw filter.',
      index
    );
  }
  const column = resolveColumn(tree, row.column);
  return targetOf(column, index);
}

function targetOf(column: ResolvedColumn, index: number): Target {
  switch (column.kind) {
    case 'array':
      throw filterRefusal(
        `${column.path} is the JSON column of a nested array: it neither filters nor sorts; filter on its leaf columns (${column.path}.<field>).`,
        index
      );
    case 'object':
      throw filterRefusal(
        `${column.path} is an object: filter on its leaf columns (${column.path}.<field>).`,
        index
      );
    case 'unknown':
      // Only documents hold it: the engine indexed it by its dynamic rules, so the field itself is the best guess.
      return {
        column: column.path,
        field: column.path,
        exact: column.path,
        type: 'unmapped',
        kind: 'string'
      };
    case 'leaf': {
      const { node } = column;
      const nested =
        column.array?.type === 'nested' ? column.array.path : undefined;
      return {
        column: column.path,
        field: column.path,
        exact: exactField(column.path, node),
        type: node.type,
        kind: kindOf(node.type),
        ...(nested ? { nested } : {})
      };
    }
  }
}

function exactField(path: string, node: LeafNode): string | undefined {
  if (node.type !== 'text' && node.type !== 'match_only_text') {
    return path;
  }
  return node.exactSubfield ? `${path}.${node.exactSubfield}` : undefined;
}

function kindOf(type: string): Target['kind'] {
  if (INTEGER.has(type)) {
    return 'integer';
  }
  if (NUMERIC.has(type)) {
    return 'number';
  }
  if (DATES.has(type)) {
    return 'date';
  }
  if (type === 'boolean') {
    return 'boolean';
  }
  return 'string';
}

/** A value typed by the column's mapping, as the clause carries it. */
function typed(text: string, target: Target, index: number): JsonValue {
  switch (target.kind) {
    case 'integer':
    case 'number':
      return numberValue(
        text,
        target.column,
        target.type,
        target.kind === 'integer',
        index
      );
    case 'boolean':
      return booleanValue(text, target.column, target.type, index);
    case 'date':
      if (!/^\d+$/.test(text.trim()) && Number.isNaN(Date.parse(text))) {
        throw filterRefusal(
          `${target.column} is a ${target.type} column: "${text}" is not a date; write one such as 2024-05-31 or 2024-05-31T12:00:00Z.`,
          index
        );
      }
      return text.trim();
    case 'string':
      return text;
  }
}

function stringsOnly(row: FilterRow, target: Target, index: number): void {
  if (target.kind !== 'string' || target.type === 'ip') {
    throw filterRefusal(
      `"${row.operator}" works on text and keyword columns; ${target.column} is a ${target.type} column: use equals, a range, or a raw filter.`,
      index
    );
  }
}

/** The field exact string clauses use; a text field without a keyword subfield cannot take them. */
function exactOf(row: FilterRow, target: Target, index: number): string {
  if (target.exact !== undefined) {
    return target.exact;
  }
  throw filterRefusal(
    `${target.column} is a text field without a keyword subfield, so "${row.operator}" cannot match it exactly: use contains, or write a raw filter.`,
    index
  );
}

/** `*` and `?` are wildcard syntax; a value's own are escaped so they match themselves. */
function wildcardLiteral(text: string): string {
  return text.replace(/[\\*?]/g, c => `\\${c}`);
}

/** `case_insensitive` where the field takes it: strings, but not the `_id` and `_index` metadata fields. */
function caseOption(
  target: Target,
  matchCase: boolean
): { case_insensitive?: true } {
  return !matchCase &&
    target.kind === 'string' &&
    target.type !== '_id' &&
    target.type !== '_index'
    ? { case_insensitive: true }
    : {};
}

function rowClause(
  row: FilterRow,
  index: number,
  target: Target,
  matchCase: boolean
): JsonValue {
  const ci = caseOption(target, matchCase);
  const isText = target.exact === undefined;
  const term = (value: JsonValue): JsonValue =>
    isText
      ? { match_phrase: { [target.field]: value } }
      : { term: { [exactOf(row, target, index)]: { value, ...ci } } };
  const range = (bounds: Record<string, JsonValue>): JsonValue => {
    if (target.kind === 'boolean') {
      throw filterRefusal(
        `${target.column} is a boolean column: use equals true or false.`,
        index
      );
    }
    return {
      range: {
        [target.kind === 'string' ? exactOf(row, target, index) : target.field]:
          bounds
      }
    };
  };
  const inList = (): JsonValue => {
    const values = listValue(row, index).map(v => typed(v, target, index));
    if (isText || ci.case_insensitive) {
      return { bool: { should: values.map(term), minimum_should_match: 1 } };
    }
    return { terms: { [exactOf(row, target, index)]: values } };
  };
  const contains = (): JsonValue => {
    stringsOnly(row, target, index);
    const value = singleValue(row, index);
    return isText
      ? { match_phrase: { [target.field]: value } }
      : {
          wildcard: {
            [exactOf(row, target, index)]: {
              value: `*${wildcardLiteral(value)}*`,
              ...ci
            }
          }
        };
  };
  const present = (): JsonValue => ({ exists: { field: target.field } });
  const empty = (): JsonValue =>
    target.kind === 'string' && !isText
      ? {
          bool: {
            should: [
              not(present()),
              { term: { [exactOf(row, target, index)]: '' } }
            ],
            minimum_should_match: 1
          }
        }
      : not(present());

  switch (row.operator) {
    case 'equals':
      return term(typed(singleValue(row, index), target, index));
    case 'not equals':
      return not(term(typed(singleValue(row, index), target, index)));
    case 'greater than':
      return range({ gt: typed(singleValue(row, index), target, index) });
    case 'greater or equal':
      return range({ gte: typed(singleValue(row, index), target, index) });
    case 'less than':
      return range({ lt: typed(singleValue(row, index), target, index) });
    case 'less or equal':
      return range({ lte: typed(singleValue(row, index), target, index) });
    case 'between': {
      const [low, high] = pairValue(row, index);
      return range({
        gte: typed(low, target, index),
        lte: typed(high, target, index)
      });
    }
    case 'in list':
      return inList();
    case 'not in list':
      return not(inList());
    case 'contains':
      return contains();
    case 'not contains':
      return not(contains());
    case 'starts with':
      stringsOnly(row, target, index);
      return {
        prefix: {
          [exactOf(row, target, index)]: {
            value: singleValue(row, index),
            ...ci
          }
        }
      };
    case 'ends with':
      stringsOnly(row, target, index);
      return {
        wildcard: {
          [exactOf(row, target, index)]: {
            value: `*${wildcardLiteral(singleValue(row, index))}`,
            ...ci
          }
        }
      };
    case 'is null':
      return not(present());
    case 'is not null':
      return present();
    case 'is empty':
      return empty();
    case 'is not empty':
      return not(empty());
    case 'matches regex':
      stringsOnly(row, target, index);
      return {
        regexp: {
          [exactOf(row, target, index)]: {
            value: singleValue(row, index),
            ...ci
          }
        }
      };
  }
}

/** Header sorts in click order; those the engine cannot do (`_id`, a text field without a keyword subfield) are left out with a note. */
export function sortOfView(
  keys: SortKey[],
  tree: FieldTree | undefined,
  flavour: Pick<Flavour, 'product'> = { product: 'Elasticsearch' }
): {
  sort: JsonValue[];
  sortedBy: string[];
  notes: string[];
  rankedBy?: RankedSort;
} {
  const sort: JsonValue[] = [];
  const ranked: RankedSort[] = [];
  const sortedBy: string[] = [];
  const notes: string[] = [];
  const dropped = (column: string, why: string) =>
    notes.push(
      `Not sorted by ${column}: ${why}; the rows keep their order for it.`
    );
  for (const key of keys) {
    // OpenSearch sorts on _id; Elasticsearch 8 refuses it unless `indices.id_field_data.enabled` is set.
    const idSorts = flavour.product === 'OpenSearch';
    if (key.column === '_id' && !idSorts) {
      dropped('_id', 'Elasticsearch does not sort on _id');
      continue;
    }
    if (
      key.column === '_score' ||
      key.column === '_index' ||
      key.column === '_id'
    ) {
      sort.push({ [key.column]: { order: key.direction } });
      sortedBy.push(key.column);
      continue;
    }
    const column = resolveColumn(tree, key.column);
    if (column.kind === 'array') {
      dropped(
        key.column,
        'the JSON column of a nested array does not sort (its leaf columns do)'
      );
    } else if (column.kind === 'object') {
      dropped(key.column, 'an object does not sort');
    } else if (column.kind === 'unknown') {
      dropped(key.column, 'the mapping does not hold this field');
    } else {
      const field = exactField(column.path, column.node);
      if (field === undefined) {
        dropped(
          key.column,
          'a text field sorts only through a keyword subfield, and this one has none'
        );
      } else {
        const order: Record<string, JsonValue> = { order: key.direction };
        if (column.array?.type === 'nested') {
          order.nested = { path: column.array.path };
        }
        sort.push({ [field]: order });
        sortedBy.push(key.column);
        const values = rankedValues(column.node.type);
        if (values && !order.nested) {
          ranked.push({
            field,
            order: key.direction,
            values,
            date: column.node.type === 'date',
            type: column.node.type
          });
        }
      }
    }
  }
  const only = ranked[0];
  return {
    sort,
    sortedBy,
    notes,
    ...(only && sort.length === 1 ? { rankedBy: only } : {})
  };
}

/**
 * How a field's sort values count: whole numbers for integers and dates (epoch milliseconds),
 * doubles for the rest. Left out: `unsigned_long` and `date_nanos`, whose values pass what a
 * double holds exactly, and strings.
 */
function rankedValues(type: string): RankedSort['values'] | undefined {
  if (INTEGER.has(type) && type !== 'unsigned_long') {
    return 'integer';
  }
  if (type === 'date') {
    return 'integer';
  }
  return NUMERIC.has(type) ? 'number' : undefined;
}
