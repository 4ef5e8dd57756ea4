import type {
  Column,
  FilterOperator,
  FilterRow,
  GridView
} from '@searchbook/contracts/panel-protocol';

/** Operators that take no value, and those that take a list or two ends. */
export const NO_VALUE = new Set<FilterOperator>([
  'is null',
  'is not null',
  'is empty',
  'is not empty'
]);
export const LIST = new Set<FilterOperator>(['in list', 'not in list']);
export const BETWEEN = 'between';

/** Every column but the JSON column of an array of objects (its leaf columns filter instead). */
export function filterable(columns: readonly Column[]): string[] {
  const parents = new Set(
    columns.map(c => c.arrayParent).filter(p => p !== undefined)
  );
  return columns.filter(c => !parents.has(c.name)).map(c => c.name);
}

/** The leaf columns of arrays of objects: their rows may say which element they match. */
export function nestedLeaves(columns: readonly Column[]): Set<string> {
  return new Set(
    columns.filter(c => c.arrayParent !== undefined).map(c => c.name)
  );
}

export function sameFilter(a: FilterRow, b: FilterRow): boolean {
  return (
    a.column === b.column &&
    a.operator === b.operator &&
    JSON.stringify(a.value) === JSON.stringify(b.value) &&
    (a.element ?? '') === (b.element ?? '')
  );
}

export function sameView(
  a: Omit<GridView, 'sort'>,
  b: Omit<GridView, 'sort'>
): boolean {
  return (
    a.filters.length === b.filters.length &&
    a.filters.every((f, i) => {
      const other = b.filters[i];
      return other !== undefined && sameFilter(f, other);
    }) &&
    (a.filters.length < 2 || a.join === b.join) &&
    a.raw.trim() === b.raw.trim() &&
    (a.filters.length === 0 && a.raw.trim() === ''
      ? true
      : a.matchCase === b.matchCase)
  );
}

/** A filter as the bar's line names it (`brand equals "Acme" and n between "1".."5"`, operators by `label`); '' for none. */
export function describeFilter(
  view: Omit<GridView, 'sort'>,
  label: (operator: FilterOperator) => string = op => op
): string {
  const rows = view.filters.map(f => {
    const value =
      f.value === '' || (Array.isArray(f.value) && f.value.length === 0)
        ? ''
        : ` ${Array.isArray(f.value) ? f.value.map(v => JSON.stringify(v)).join(f.operator === BETWEEN ? '..' : ', ') : JSON.stringify(f.value)}`;
    return `${f.column} ${label(f.operator)}${value}`;
  });
  const raw = view.raw.trim();
  const parts = [
    ...(rows.length > 0
      ? [rows.join(view.join === 'any' ? ' or ' : ' and ')]
      : []),
    ...(raw !== '' ? [`raw ${raw}`] : [])
  ];
  if (parts.length === 0) {
    return '';
  }
  return `${parts.join(' and ')}${view.matchCase ? ' (match case)' : ''}`;
}
