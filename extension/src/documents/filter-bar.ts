import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';
import { toolbarButton } from './toolbar-button';
import type {
  Column,
  FilterOperator,
  FilterRow,
  GridView,
  OperatorInfo
} from '@searchbook/contracts/panel-protocol';
import {
  filterRowControls,
  labelled,
  type RowControls,
  rowFilter
} from './filter-row';
import {
  BETWEEN,
  describeFilter,
  filterable,
  nestedLeaves,
  NO_VALUE,
  sameFilter,
  sameView
} from './filter-view';

export const CASE_NOT_SUPPORTED = 'Not supported by this database';

let counter = 0;

/**
 * The document grid's filter bar: rows of (column, operator, value) joined by All or Any,
 * one raw row in the engine's own syntax, and the case control. Apply asks the grid to open
 * the view; a refused row shows the kernel's message under it. Every control has a label.
 *
 * The bar always says what the grid shows: a line under it names the filter applied (or that
 * none is), rows typed since are marked "not applied yet" with what Apply would change, and
 * removing an applied row un-applies it at once, so the bar never hides a filter in force.
 */
export class FilterBar extends Widget {
  readonly applied = new Signal<this, Omit<GridView, 'sort'>>(this);
  private readonly rows: RowControls[] = [];
  private readonly addButton = toolbarButton(
    'Add filter',
    'Add a filter row',
    () => this.addRow()
  );
  private readonly rowsNode = document.createElement('div');
  private readonly join = document.createElement('select');
  private readonly raw = document.createElement('input');
  private readonly rawError = document.createElement('div');
  private readonly matchCase = document.createElement('input');
  private readonly state = document.createElement('div');
  /** The filter the grid's rows were read with; the bar marks what differs from it. */
  private appliedView: Omit<GridView, 'sort'>;
  private readonly prefix = `searchbook-filter-${++counter}`;
  private columnNames: string[];
  private nestedColumns: Set<string>;
  /** What each operator is called and does on the grid's engine. */
  private readonly operators: ReadonlyMap<FilterOperator, OperatorInfo>;

  constructor(
    columns: readonly Column[],
    options: {
      /** Whether Match case starts ticked (the settings' default). */
      matchCase?: boolean;
      matchCaseSupported: boolean;
      rawPlaceholder: string;
      operators: readonly OperatorInfo[];
    }
  ) {
    super();
    this.operators = new Map(
      options.operators.map(info => [info.operator, info])
    );
    this.addClass('searchbook-FilterBar');
    this.node.setAttribute('role', 'search');
    this.node.setAttribute('aria-label', 'Filter documents');
    this.columnNames = filterable(columns);
    this.nestedColumns = nestedLeaves(columns);

    const head = this.head(options);
    this.rowsNode.className = 'searchbook-FilterBar-rows';
    const rawRow = this.rawRow(options.rawPlaceholder);
    this.node.append(head, this.rowsNode, rawRow);
    this.appliedView = this.view();
    // Anything typed or chosen may part the bar from the grid: say so as it happens.
    this.node.addEventListener('input', () => this.showState());
    this.node.addEventListener('change', () => this.showState());
    this.showState();
  }

  /** The head row: the join, the case control (or why there is none), the buttons, and the line saying the filter in force. */
  private head(options: {
    matchCase?: boolean;
    matchCaseSupported: boolean;
  }): HTMLElement {
    const head = document.createElement('div');
    head.className = 'searchbook-FilterBar-head';
    for (const [value, text] of [
      ['all', 'All'],
      ['any', 'Any']
    ] as const) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      this.join.append(option);
    }
    const join = labelled(this.join, 'Match', `${this.prefix}-join`);
    this.matchCase.type = 'checkbox';
    // String filters ignore case until asked to match it (or the settings say otherwise).
    this.matchCase.checked = options.matchCase ?? false;
    const matchCase = labelled(
      this.matchCase,
      'Match case',
      `${this.prefix}-case`
    );
    if (!options.matchCaseSupported) {
      this.matchCase.disabled = true;
      this.matchCase.checked = false;
      this.matchCase.title = CASE_NOT_SUPPORTED;
      matchCase.label.title = CASE_NOT_SUPPORTED;
      this.matchCase.setAttribute('aria-description', CASE_NOT_SUPPORTED);
    }
    const caseNote = document.createElement('span');
    caseNote.className = 'searchbook-FilterBar-note';
    caseNote.textContent = options.matchCaseSupported ? '' : CASE_NOT_SUPPORTED;
    head.append(
      join.label,
      join.control,
      matchCase.control,
      matchCase.label,
      caseNote,
      this.addButton,
      toolbarButton('Apply', 'Filter the grid through the engine', () =>
        this.apply()
      ),
      toolbarButton('Clear', 'Remove every filter', () => this.clear())
    );

    this.state.className = 'searchbook-FilterBar-state';
    this.state.setAttribute('role', 'status');
    this.state.setAttribute('aria-label', 'Filter in force');
    // In the head row, after the buttons: it takes no line of its own where the tab has room.
    head.append(this.state);
    return head;
  }

  /** The raw row: a filter in the engine's own syntax, and where its refusal shows. */
  private rawRow(placeholder: string): HTMLElement {
    const rawRow = document.createElement('div');
    rawRow.className = 'searchbook-FilterBar-row';
    this.raw.type = 'text';
    this.raw.placeholder = placeholder;
    this.raw.addEventListener(
      'keydown',
      e => e.key === 'Enter' && this.apply()
    );
    const raw = labelled(this.raw, 'Raw filter', `${this.prefix}-raw`);
    this.rawError.className = 'searchbook-FilterBar-error';
    this.rawError.setAttribute('role', 'alert');
    this.rawError.hidden = true;
    rawRow.append(raw.label, raw.control, this.rawError);
    return rawRow;
  }

  /** The grid shows rows read with this filter: the bar says so, and marks what differs from it. */
  markApplied(view: Omit<GridView, 'sort'>): void {
    this.appliedView = {
      filters: view.filters,
      join: view.join,
      raw: view.raw,
      matchCase: view.matchCase
    };
    this.showState();
  }

  /** Whether the controls hold what the grid shows (nothing typed since the last Apply). */
  get inForce(): boolean {
    return sameView(this.view(), this.appliedView);
  }

  /** New columns arrived with a block: offer them too. */
  setColumns(columns: readonly Column[]): void {
    this.columnNames = filterable(columns);
    this.nestedColumns = nestedLeaves(columns);
    for (const row of this.rows) {
      const chosen = row.column.value;
      this.fillColumns(row.column);
      row.column.value = chosen;
    }
  }

  addRow(preset?: Partial<FilterRow>): void {
    const n = this.rows.length + 1;
    const controls = filterRowControls(
      `${this.prefix}-row${counter}-${n}-${Math.random().toString(36).slice(2, 6)}`,
      n,
      {
        fillColumns: select => this.fillColumns(select),
        operatorLabel: op => this.operators.get(op)?.label ?? op,
        advice: op => this.advice(op),
        isNested: column => this.nestedColumns.has(column),
        apply: () => this.apply(),
        remove: () => this.removeRow(controls)
      },
      preset
    );
    this.rowsNode.append(controls.node);
    this.rows.push(controls);
    this.showState();
  }

  /**
   * Removes a row; one the grid's rows were filtered by is un-applied at once (the grid reads
   * again without it), so the bar never shows fewer filters than are in force. Other rows
   * typed since the last Apply stay as typed, still marked not applied.
   */
  private removeRow(controls: RowControls): void {
    const removed = rowFilter(controls);
    const at = this.rows.indexOf(controls);
    const hadKeyboard = controls.node.contains(document.activeElement);
    this.rows.splice(at, 1);
    controls.node.remove();
    if (hadKeyboard) {
      // The row's Remove is gone with it: the keyboard goes to the row now in its place.
      const successor = this.rows[at] ?? this.rows[at - 1];
      (successor?.remove ?? this.addButton).focus();
    }
    const applied = this.appliedView.filters;
    const wasApplied = applied.findIndex(f => sameFilter(f, removed));
    if (wasApplied >= 0) {
      this.clearRefusals();
      this.applied.emit({
        ...this.appliedView,
        filters: applied.filter((_, i) => i !== wasApplied)
      });
    }
    this.showState();
  }

  /**
   * Drops the rows still waiting for a value (one Ctrl-F added to have somewhere to type):
   * a row added for the user ("Filter by this value") must not be refused for their blank.
   */
  dropBlankRows(): void {
    for (const row of [...this.rows]) {
      const op = row.operator.value as FilterOperator;
      if (!NO_VALUE.has(op) && row.value.value.trim() === '') {
        this.rows.splice(this.rows.indexOf(row), 1);
        row.column.closest('.searchbook-FilterBar-row')?.remove();
      }
    }
  }

  /** The keyboard to the filters: the first row's value (a new row's column when there is none). */
  focusFirst(): void {
    if (this.rows.length === 0) {
      this.addRow();
    }
    const first = this.rows[0];
    const control =
      first && !first.value.disabled && first.value.value !== ''
        ? first.value
        : first?.column;
    control?.focus();
  }

  /** Puts a view back in the controls ("Back to the previous filter"). */
  setView(view: Omit<GridView, 'sort'>): void {
    for (const row of this.rows) {
      row.node.remove();
    }
    this.rows.length = 0;
    this.clearRefusals();
    for (const filter of view.filters) {
      const value =
        Array.isArray(filter.value) && filter.operator === BETWEEN
          ? filter.value.join('..')
          : filter.value;
      this.addRow({ ...filter, value });
      const added = this.rows[this.rows.length - 1];
      if (added && filter.element !== undefined) {
        added.element.value = filter.element;
      }
    }
    this.join.value = view.join;
    this.raw.value = view.raw;
    if (!this.matchCase.disabled) {
      this.matchCase.checked = view.matchCase;
    }
  }

  /** The kernel refused a row: its message under that row (or the raw row); nothing was sent. */
  showRefusal(row: number | 'raw', message: string): void {
    const target = row === 'raw' ? this.rawError : this.rows[row]?.error;
    if (!target) {
      return;
    }
    target.textContent = message;
    target.hidden = false;
  }

  clearRefusals(): void {
    for (const el of [this.rawError, ...this.rows.map(r => r.error)]) {
      el.textContent = '';
      el.hidden = true;
    }
  }

  /** The filter part of the view as the controls hold it. */
  view(): Omit<GridView, 'sort'> {
    const filters = this.rows.map(r => rowFilter(r));
    return {
      filters,
      join: this.join.value === 'any' ? 'any' : 'all',
      raw: this.raw.value,
      matchCase: !this.matchCase.disabled && this.matchCase.checked
    };
  }

  private apply(): void {
    this.clearRefusals();
    this.applied.emit(this.view());
  }

  /**
   * The line under the bar and the marks on its rows: what the grid's rows were read with, and
   * what the controls hold that they were not (until Apply).
   */
  private showState(): void {
    const applied = this.appliedView;
    const left = [...applied.filters];
    for (const row of this.rows) {
      const at = left.findIndex(f => sameFilter(f, rowFilter(row)));
      const inForce = at >= 0;
      if (inForce) {
        left.splice(at, 1);
      }
      row.node.classList.toggle('searchbook-mod-unapplied', !inForce);
      if (inForce) {
        row.node.removeAttribute('aria-description');
      } else {
        row.node.setAttribute('aria-description', 'Not applied yet');
      }
    }
    const rawInForce = this.raw.value.trim() === applied.raw.trim();
    this.raw.classList.toggle('searchbook-mod-unapplied', !rawInForce);
    const shown = describeFilter(
      applied,
      op => this.operators.get(op)?.label ?? op
    );
    const pending = !this.inForce;
    this.state.classList.toggle('searchbook-mod-unapplied', pending);
    this.state.textContent = pending
      ? `${shown === '' ? 'No filter applied' : `Filter applied: ${shown}`}. Changes not applied yet: Apply or Enter.`
      : shown === ''
        ? 'No filter applied.'
        : `Filter applied: ${shown}.`;
  }

  private clear(): void {
    for (const row of this.rows) {
      row.node.remove();
    }
    this.rows.length = 0;
    this.raw.value = '';
    this.apply();
  }

  /** An operator's tooltip: what it matches on this engine, or why it cannot be used and what serves. */
  private advice(op: FilterOperator): string {
    const info = this.operators.get(op);
    return info?.unavailable ?? info?.does ?? '';
  }

  private fillColumns(select: HTMLSelectElement): void {
    select.replaceChildren(
      ...this.columnNames.map(name => {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = name;
        return option;
      })
    );
  }
}
