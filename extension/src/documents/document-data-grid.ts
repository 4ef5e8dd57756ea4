import {
  BasicSelectionModel,
  type CellRenderer,
  type DataGrid
} from '@lumino/datagrid';
import { followNodeSize } from '../datagrid/follow-node-size';
import { type GridTheme, readGridTheme } from '../datagrid/grid-theme';
import { blitRegionsWhole } from '../datagrid/region-blits';
import { headerRenderers } from '../datagrid/header-renderers';
import { NullMarkRenderer } from '../datagrid/null-mark-renderer';
import type { EditableRowsModel, Mark } from './editable-rows-model';
import { HighlightRenderer } from './highlight-renderer';

/** The datagrid over a tab's rows: cells selected one by one or in ranges, blitted whole, sized with its node. */
export function setUpDocumentGrid(
  grid: DataGrid,
  model: EditableRowsModel,
  label: string
): void {
  blitRegionsWhole(grid);
  followNodeSize(grid);
  grid.addClass('searchbook-DocumentGrid-grid');
  grid.dataModel = model;
  grid.selectionModel = new BasicSelectionModel({
    dataModel: model,
    selectionMode: 'cell'
  });
  grid.node.setAttribute('role', 'grid');
  grid.node.setAttribute('aria-label', label);
}

/** Paints the grid with JupyterLab's theme as `node` has it now; returns the theme read. */
export function paintDocumentGrid(
  grid: DataGrid,
  model: EditableRowsModel,
  node: HTMLElement
): GridTheme {
  const theme = readGridTheme();
  grid.style = theme.style;
  grid.defaultSizes = {
    rowHeight: theme.rowHeight,
    columnWidth: 120,
    rowHeaderWidth: Math.max(
      48,
      String(model.rowCount('body')).length * 9 + 20
    ),
    columnHeaderHeight: theme.rowHeight
  };
  grid.cellRenderers.update(documentGridRenderers(model, theme, node));
  return theme;
}

/**
 * The document grid's renderers: cells with the engine's search matches marked, backgrounds
 * by their pending change (or cut value), deleted rows muted, a stored null said "null".
 */
function documentGridRenderers(
  model: EditableRowsModel,
  theme: GridTheme,
  node: HTMLElement
): Record<string, CellRenderer> {
  const markColors = readMarkColors(node);
  return {
    body: new NullMarkRenderer(
      new HighlightRenderer({
        marks: (row, column) => model.highlight(row, column),
        markColor: markColors.match,
        font: theme.font,
        backgroundColor: ({ row, column }) =>
          markColors[model.mark(row, column) ?? 'none'] ||
          (model.isCut(row, column) ? theme.cutBackground : ''),
        textColor: ({ row }) =>
          model.rowMark(row) === 'deleted' ? theme.mutedColor : theme.textColor,
        elideDirection: 'right'
      }),
      {
        isNull: (row, column) => model.isStoredNull(row, column),
        font: theme.font,
        color: theme.mutedColor
      }
    ),
    ...headerRenderers(theme, { elideColumnHeaders: true })
  };
}

/** Backgrounds of the editing marks, from JupyterLab's theme (the canvas cannot read CSS). */
function readMarkColors(
  node: HTMLElement
): Record<Mark | 'none' | 'match', string> {
  const css = getComputedStyle(node);
  const v = (name: string, fallback: string) =>
    css.getPropertyValue(name).trim() || fallback;
  return {
    none: '',
    changed: v('--jp-brand-color3', '#bbdefb'),
    new: v('--jp-success-color3', '#c8e6c9'),
    deleted: v('--jp-layout-color3', '#bdbdbd'),
    refused: v('--jp-error-color3', '#ffcdd2'),
    failed: v('--jp-error-color3', '#ffcdd2'),
    conflict: v('--jp-warn-color2', '#ffb74d'),
    match: v('--jp-search-selected-match-background-color', '#f5c800')
  };
}
