import { CommandRegistry } from '@lumino/commands';
import type { DataGrid } from '@lumino/datagrid';
import { Menu } from '@lumino/widgets';
import { exactJson } from '@searchbook/contracts/exact-json';
import { cellCorner } from '../datagrid/cell-corner';
import { selectCell } from '../datagrid/select-cell';
import { openMenuReturningFocus, returningFocus } from '../focus/focus-return';
import type { EditableRowsModel } from './editable-rows-model';
import { valueFilter } from './value-filter';

/** What a cell's menu runs. */
export interface CellMenuActions {
  showDocument(row: number): Promise<void>;
  editDocument(row: number): Promise<void>;
  duplicate(row: number): Promise<void>;
  filterBy(row: number, column: number, exclude: boolean): void;
  /** Why the cell's value cannot filter the grid, or undefined when it can. */
  whyNoFilter(row: number, column: number): string | undefined;
}

/**
 * A body cell's context menu (right-click, or Shift-F10 and the menu key on the active cell):
 * its document viewed or edited as JSON, its row duplicated, the grid filtered by its value or
 * without it, and Export… where the tab offers it.
 */
export class CellMenu {
  constructor(
    private readonly grid: DataGrid,
    private readonly model: EditableRowsModel,
    private readonly actions: CellMenuActions,
    private readonly options: {
      /** Puts the keyboard back on the grid's active cell (a menu closed). */
      focusGrid: () => void;
      /** Export… of the grid's view: the cell menu takes the place of JupyterLab's on body cells. */
      exportView?: () => void;
    }
  ) {
    grid.node.addEventListener('contextmenu', event => this.openMenu(event));
    // The keyboard's way to a context menu: Shift-F10 or the menu key, on the active cell.
    grid.node.addEventListener('keydown', event => {
      if (
        event.key === 'ContextMenu' ||
        (event.key === 'F10' && event.shiftKey)
      ) {
        this.openCursorMenu(event);
      }
    });
  }

  /** A right-click on a cell: it becomes the active cell, and its menu opens. */
  private openMenu(event: MouseEvent): void {
    const hit = this.grid.hitTest(event.clientX, event.clientY);
    if (hit.region !== 'body' || hit.row < 0 || hit.column < 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.openMenuAt(hit.row, hit.column, event.clientX, event.clientY, false);
  }

  /** The active cell's menu, opened below the cell. */
  private openCursorMenu(event: KeyboardEvent): void {
    const row = this.grid.selectionModel?.cursorRow ?? -1;
    const column = this.grid.selectionModel?.cursorColumn ?? -1;
    if (row < 0 || column < 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.grid.scrollToCell(row, column);
    const box = this.grid.node.getBoundingClientRect();
    const { x, y } = cellCorner(this.grid, row, column);
    this.openMenuAt(row, column, box.left + x, box.top + y, true);
  }

  private openMenuAt(
    row: number,
    column: number,
    x: number,
    y: number,
    fromKeyboard: boolean
  ): void {
    const selection = this.grid.selectionModel;
    if (selection) {
      selectCell(selection, row, column);
    }
    const at = this.model.rowAt(row);
    const stored = at?.kind === 'document' && at.key !== undefined;
    const commands = new CommandRegistry();
    const menu = new Menu({ commands });
    menu.addClass('searchbook-CellMenu');
    const add = (
      id: string,
      options: CommandRegistry.ICommandOptions
    ): void => {
      commands.addCommand(id, options);
      menu.addItem({ command: id });
    };
    add('searchbook:cell-document', {
      label: 'View document',
      caption: 'The whole document as JSON, with its metadata',
      isEnabled: () => stored,
      execute: () =>
        afterwardsOn(this.grid, () => this.actions.showDocument(row))
    });
    add('searchbook:cell-edit-document', {
      label: 'Edit document as JSON…',
      caption:
        'Edit the whole document as JSON; the changed fields become pending changes',
      isEnabled: () =>
        stored &&
        !(at?.kind === 'document' && at.deleted) &&
        !(at?.key && this.model.pending.rowOf(at.key)?.deleted),
      execute: () =>
        afterwardsOn(this.grid, () => this.actions.editDocument(row))
    });
    add('searchbook:cell-duplicate', {
      label: 'Duplicate row',
      caption: 'A new row with these values; its id is left for you to type',
      isEnabled: () => at !== undefined,
      execute: () => afterwardsOn(this.grid, () => this.actions.duplicate(row))
    });
    menu.addItem({ type: 'separator' });
    const why = this.actions.whyNoFilter(row, column);
    const col = this.model.columns[column];
    const shown = (exclude: boolean) => {
      if (why !== undefined || !col) {
        return why ?? '';
      }
      const made = valueFilter(
        col,
        this.model.storedValue(row, column),
        exclude
      );
      return 'row' in made
        ? `${made.row.column} ${made.row.operator}${made.row.value === '' ? '' : ` ${exactJson(made.row.value)}`}`
        : made.why;
    };
    for (const [exclude, id, label] of [
      [false, 'searchbook:cell-filter', 'Filter by this value'],
      [true, 'searchbook:cell-exclude', 'Exclude this value']
    ] as const) {
      add(id, {
        label,
        caption: shown(exclude),
        isEnabled: () => why === undefined,
        execute: () =>
          afterwardsOn(this.grid, () =>
            this.actions.filterBy(row, column, exclude)
          )
      });
    }
    const exportView = this.options.exportView;
    if (exportView) {
      menu.addItem({ type: 'separator' });
      add('searchbook:cell-export', {
        label: 'Export…',
        caption:
          'Write the documents this grid shows (under its filter) to a file next to the notebook',
        execute: () => exportView()
      });
    }
    // Escape, or an item picked, puts the keyboard back on the cell (before the item's dialog opens).
    openMenuReturningFocus(
      menu,
      { x, y },
      () => this.options.focusGrid(),
      fromKeyboard
    );
  }
}

/** A cell menu's action: once done, a keyboard that fell out (its dialog's control gone) is back on the cell. */
function afterwardsOn(grid: DataGrid, action: () => unknown): void {
  void returningFocus(grid.node, action);
}
