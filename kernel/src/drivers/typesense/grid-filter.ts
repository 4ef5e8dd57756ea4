/**
 * The grid's view as Typesense search parameters (drivers.md 4.2 rule 3, 4.3, 7): filter rows
 * as one `filter_by` expression, the raw row verbatim, header sorts as `sort_by`. Operators the
 * engine cannot express and values it cannot quote are refused here, so nothing is sent.
 * Pure: nothing here sends anything.
 */
import type { FilterRow, GridView, SortKey } from '../../grid/grid-protocol';
import type { FieldTree } from '../field-tree';
import { booleanValue, listValue, numberValue, pairValue, resolveColumn, singleValue, ViewRefusal } from '../grid-view';

/** At most this many sort fields reach the engine (drivers.md 8). */
export const MAX_SORT_FIELDS = 3;
const INTEGER = new Set(['int32', 'int64']);
const NUMERIC = new Set([...INTEGER, 'float']);
/** The operators the engine has no filter for (drivers.md 4.3 rule 3). */
const INEXPRESSIBLE = new Set<FilterRow['operator']>(['is null', 'is not null', 'is empty', 'is not empty', 'matches regex', 'ends with']);
export const CASE_CONTROL_NOTE = 'Not supported by this database';

export interface SearchParameters {
  filter_by?: string;
  sort_by?: string;
}

export function searchOfView(view: GridView, tree: FieldTree | undefined): { parameters: SearchParameters; sortedBy: string[]; notes: string[] } {
  const filter = filterOfView(view, tree);
  const { sortBy, sortedBy, notes } = sortOfView(view.sort, tree);
  return { parameters: { ...(filter ? { filter_by: filter } : {}), ...(sortBy ? { sort_by: sortBy } : {}) }, sortedBy, notes };
}

interface Target {
  column: string;
  type: string;
  kind: 'integer' | 'number' | 'boolean' | 'string';
}

export function filterOfView(view: GridView, tree: FieldTree | undefined): string | undefined {
  const parts = view.filters.map((row, index) => rowFilter(row, index, targetOf(row, index, tree)));
  const raw = view.raw.trim();
  if (raw !== '') parts.push(parts.length === 0 ? raw : `(${raw})`);
  return parts.length === 0 ? undefined : parts.join(view.join === 'all' ? ' && ' : ' || ');
}

function targetOf(row: FilterRow, index: number, tree: FieldTree | undefined): Target {
  if (INEXPRESSIBLE.has(row.operator)) {
    throw new ViewRefusal(`Typesense cannot filter with "${row.operator}": the engine has no such filter. Use contains or a raw filter instead.`, index);
  }
  if (row.column === 'id') return { column: 'id', type: 'string', kind: 'string' };
  const column = resolveColumn(tree, row.column);
  if (column.kind === 'array' || column.kind === 'object') {
    throw new ViewRefusal(`${row.column} is the JSON column of an object or array: filter on its leaf columns (${row.column}.<field>).`, index);
  }
  // A field only documents hold is filtered as a string; the engine answers if the schema lacks it.
  const type = column.kind === 'leaf' ? column.node.type : 'string';
  const element = type.replace(/\[\]$/, '');
  return { column: row.column, type, kind: INTEGER.has(element) ? 'integer' : NUMERIC.has(element) ? 'number' : element === 'bool' ? 'boolean' : 'string' };
}

/** A value as the expression writes it: numbers and booleans bare, strings in backticks. */
function written(text: string, target: Target, index: number): string {
  if (text.includes('`')) {
    throw new ViewRefusal(`A filter value cannot hold a backtick (\`): Typesense has no escape for it inside a quoted value. Use contains or a raw filter instead.`, index);
  }
  switch (target.kind) {
    case 'integer':
    case 'number':
      return String(numberValue(text, target.column, target.type, target.kind === 'integer', index));
    case 'boolean':
      return String(booleanValue(text, target.column, target.type, index));
    case 'string':
      return `\`${text}\``;
  }
}

function numericOnly(row: FilterRow, target: Target, index: number): void {
  if (target.kind !== 'integer' && target.kind !== 'number') {
    throw new ViewRefusal(`"${row.operator}" works on numeric columns only; ${target.column} is a ${target.type} column: use equals or in list.`, index);
  }
}

function stringsOnly(row: FilterRow, target: Target, index: number): void {
  if (target.kind !== 'string') throw new ViewRefusal(`"${row.operator}" works on string columns; ${target.column} is a ${target.type} column: use equals or a range.`, index);
}

function rowFilter(row: FilterRow, index: number, target: Target): string {
  const field = row.column;
  const one = () => written(singleValue(row, index), target, index);
  const list = () => `[${listValue(row, index).map((v) => written(v, target, index)).join(',')}]`;
  switch (row.operator) {
    case 'equals':
      return `${field}:=${one()}`;
    case 'not equals':
      return `${field}:!=${one()}`;
    case 'greater than':
      numericOnly(row, target, index);
      return `${field}:>${one()}`;
    case 'greater or equal':
      numericOnly(row, target, index);
      return `${field}:>=${one()}`;
    case 'less than':
      numericOnly(row, target, index);
      return `${field}:<${one()}`;
    case 'less or equal':
      numericOnly(row, target, index);
      return `${field}:<=${one()}`;
    case 'between': {
      numericOnly(row, target, index);
      const [low, high] = pairValue(row, index);
      return `${field}:[${written(low, target, index)}..${written(high, target, index)}]`;
    }
    case 'in list':
      return `${field}:=${list()}`;
    case 'not in list':
      return `${field}:!=${list()}`;
    case 'contains':
      stringsOnly(row, target, index);
      return `${field}:${one()}`;
    case 'not contains':
      stringsOnly(row, target, index);
      return `${field}:!${one()}`;
    case 'starts with':
      stringsOnly(row, target, index);
      return `${field}:${one()}*`;
    default:
      // targetOf refused the rest before any value was read.
      throw new ViewRefusal(`Typesense cannot filter with "${row.operator}". Use contains or a raw filter instead.`, index);
  }
}

/** `sort_by` in click order: `sort: true` and numeric fields only, at most three; the rest dropped with a note. */
export function sortOfView(keys: SortKey[], tree: FieldTree | undefined): { sortBy: string | undefined; sortedBy: string[]; notes: string[] } {
  const fields: string[] = [];
  const sortedBy: string[] = [];
  const notes: string[] = [];
  const dropped = (column: string, why: string) => notes.push(`Not sorted by ${column}: ${why}; the rows keep their order for it.`);
  for (const key of keys) {
    const column = resolveColumn(tree, key.column);
    if (key.column === 'id') dropped('id', 'Typesense does not sort on id');
    else if (column.kind !== 'leaf' || column.node.sortable !== true) dropped(key.column, 'the schema does not declare it sort: true, and only those and numeric fields sort');
    else if (fields.length === MAX_SORT_FIELDS) dropped(key.column, `Typesense sorts on at most ${MAX_SORT_FIELDS} fields`);
    else {
      fields.push(`${key.column}:${key.direction}`);
      sortedBy.push(key.column);
    }
  }
  return { sortBy: fields.length ? fields.join(',') : undefined, sortedBy, notes };
}
