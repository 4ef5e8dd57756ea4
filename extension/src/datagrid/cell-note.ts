import type { DataGrid } from '@lumino/datagrid';
import { cellCorner } from './cell-corner';

/** A note under one cell of the grid (why a typed value was refused), as a tooltip over the canvas. */
export class CellNote {
  private readonly node = document.createElement('div');

  constructor(private readonly grid: DataGrid) {
    this.node.className = 'searchbook-CellNote';
    this.node.setAttribute('role', 'tooltip');
    this.node.hidden = true;
    grid.node.append(this.node);
  }

  /** Scrolls the cell into view and shows `text` under it. */
  show(row: number, column: number, text: string): void {
    this.grid.scrollToCell(row, column);
    requestAnimationFrame(() => {
      const { x, y } = cellCorner(this.grid, row, column);
      this.node.textContent = text;
      this.node.style.left = `${Math.max(0, x)}px`;
      this.node.style.top = `${Math.max(0, y)}px`;
      this.node.hidden = false;
    });
  }

  hide(): void {
    this.node.hidden = true;
  }
}
