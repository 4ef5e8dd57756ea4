import {
  FILTER_OPERATORS,
  type FilterOperator,
  type FilterRow
} from '@searchbook/contracts/panel-protocol';
import { BETWEEN, LIST, NO_VALUE } from './filter-view';
import { toolbarButton } from './toolbar-button';

/** The controls of one filter row of the bar. */
export interface RowControls {
  node: HTMLElement;
  column: HTMLSelectElement;
  operator: HTMLSelectElement;
  value: HTMLInputElement;
  element: HTMLInputElement;
  error: HTMLElement;
  /** Kept so that removing a row can hand the keyboard to its neighbour's Remove. */
  remove: HTMLElement;
}

/** What a filter row asks of its bar. */
export interface FilterRowHost {
  fillColumns(select: HTMLSelectElement): void;
  /** What an operator is called on the grid's engine. */
  operatorLabel(op: FilterOperator): string;
  /** An operator's tooltip. */
  advice(op: FilterOperator): string;
  /** The column is a leaf of an array of objects: the row may name its element. */
  isNested(column: string): boolean;
  /** Enter in the value: Apply. */
  apply(): void;
  remove(): void;
}

/** A control with its label, tied by id. */
export function labelled<T extends HTMLElement>(
  control: T,
  text: string,
  id: string
): { label: HTMLLabelElement; control: T } {
  const label = document.createElement('label');
  control.id = id;
  label.htmlFor = id;
  label.textContent = text;
  label.className = 'searchbook-FilterBar-label';
  return { label, control };
}

/**
 * A filter row's controls (column, operator, value, the nested array's element, Remove, and
 * where its refusal shows), each labelled, set to `preset`; `id` makes their ids unique.
 */
export function filterRowControls(
  id: string,
  n: number,
  host: FilterRowHost,
  preset?: Partial<FilterRow>
): RowControls {
  const node = document.createElement('div');
  node.className = 'searchbook-FilterBar-row';
  node.setAttribute('role', 'group');
  node.setAttribute('aria-label', `Filter row ${n}`);
  const column = labelled(
    document.createElement('select'),
    'Column',
    `${id}-column`
  );
  host.fillColumns(column.control);
  const operator = labelled(
    document.createElement('select'),
    'Operator',
    `${id}-operator`
  );
  for (const op of FILTER_OPERATORS) {
    const option = document.createElement('option');
    option.value = op;
    option.textContent = host.operatorLabel(op);
    option.title = host.advice(op);
    operator.control.append(option);
  }
  const value = labelled(
    document.createElement('input'),
    'Value',
    `${id}-value`
  );
  value.control.type = 'text';
  value.control.addEventListener(
    'keydown',
    e => e.key === 'Enter' && host.apply()
  );
  const element = labelled(
    document.createElement('input'),
    'Element',
    `${id}-element`
  );
  element.control.type = 'text';
  element.control.size = 3;
  element.control.title =
    'Rows on one nested array with the same element label must match the same element';
  const error = document.createElement('div');
  error.className = 'searchbook-FilterBar-error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const remove: HTMLElement = toolbarButton(
    'Remove',
    `Remove filter row ${n}`,
    () => host.remove()
  );
  remove.setAttribute('aria-label', `Remove filter row ${n}`);
  const controls: RowControls = {
    node,
    column: column.control,
    operator: operator.control,
    value: value.control,
    element: element.control,
    error,
    remove
  };
  const update = () => {
    const op = operator.control.value as FilterOperator;
    operator.control.title = host.advice(op);
    value.control.disabled = NO_VALUE.has(op);
    value.control.placeholder = LIST.has(op)
      ? 'a, b, c'
      : op === BETWEEN
        ? 'low..high'
        : '';
    const nested = host.isNested(column.control.value);
    element.label.hidden = !nested;
    element.control.hidden = !nested;
  };
  column.control.addEventListener('change', update);
  operator.control.addEventListener('change', update);
  if (preset?.column !== undefined) {
    column.control.value = preset.column;
  }
  if (preset?.operator !== undefined) {
    operator.control.value = preset.operator;
  }
  if (preset?.value !== undefined) {
    value.control.value = Array.isArray(preset.value)
      ? preset.value.join(', ')
      : preset.value;
  }
  update();
  node.append(
    column.label,
    column.control,
    operator.label,
    operator.control,
    value.label,
    value.control,
    element.label,
    element.control,
    remove,
    error
  );
  return controls;
}

/** One row as the filter it stands for. */
export function rowFilter(r: RowControls): FilterRow {
  const operator = r.operator.value as FilterOperator;
  const text = r.value.value;
  const value = NO_VALUE.has(operator)
    ? ''
    : LIST.has(operator)
      ? text
          .split(',')
          .map(v => v.trim())
          .filter(v => v !== '')
      : operator === BETWEEN
        ? text.split('..').map(v => v.trim())
        : text;
  const element = r.element.hidden ? '' : r.element.value.trim();
  return {
    column: r.column.value,
    operator,
    value,
    ...(element ? { element } : {})
  };
}
