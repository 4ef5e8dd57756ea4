import type { DataGrid, DataModel } from '@lumino/datagrid';

/** The parts of Lumino 2's DataGrid painting this module wraps (private there; checked before use). */
interface PaintInternals {
  _buffer: HTMLCanvasElement;
  _drawCells(region: unknown): void;
  _blitContent(
    source: HTMLCanvasElement,
    x: number,
    y: number,
    w: number,
    h: number,
    dx: number,
    dy: number
  ): void;
}

/**
 * Copies a painted region from the grid's off-screen buffer to its canvas in one `drawImage`
 * instead of one per cell.
 *
 * Why: Lumino 2 blits every cell separately. Where the canvas is not GPU-backed (headless
 * Chromium, software rendering), each blit from a buffer that is then drawn into again makes
 * Chromium copy the whole buffer (copy-on-write of its snapshot): about 10 ms a cell, so a
 * first paint of 300 cells took over half a second. The cells of one region are painted side
 * by side into the buffer, each cleared first, so after the region is painted the buffer holds
 * exactly the pixels the per-cell blits would have copied, and one blit of their union is the
 * same picture. Regions with merged cells keep Lumino's own painting.
 *
 * Another Lumino without these methods keeps its own painting.
 */
export function blitRegionsWhole(grid: DataGrid): void {
  const internals = grid as unknown as Partial<PaintInternals>;
  const drawCells = internals._drawCells;
  const blit = internals._blitContent;
  if (typeof drawCells !== 'function' || typeof blit !== 'function') {
    return;
  }
  let union: { x1: number; y1: number; x2: number; y2: number } | null = null;
  let painting = false;
  const patched = grid as unknown as PaintInternals;
  patched._blitContent = function (
    this: PaintInternals,
    source,
    x,
    y,
    w,
    h,
    dx,
    dy
  ) {
    if (
      !painting ||
      source !== this._buffer ||
      x !== dx ||
      y !== dy ||
      w <= 0 ||
      h <= 0
    ) {
      blit.call(this, source, x, y, w, h, dx, dy);
      return;
    }
    union = union
      ? {
          x1: Math.min(union.x1, x),
          y1: Math.min(union.y1, y),
          x2: Math.max(union.x2, x + w),
          y2: Math.max(union.y2, y + h)
        }
      : { x1: x, y1: y, x2: x + w, y2: y + h };
  };
  patched._drawCells = function (this: PaintInternals, region) {
    // Merged cells are left out of the cell pass (painted after it), so the union would carry stale buffer pixels there.
    const name = (region as { region?: DataModel.CellRegion }).region;
    if (
      name === undefined ||
      grid.dataModel === null ||
      grid.dataModel.groupCount(name) > 0
    ) {
      drawCells.call(this, region);
      return;
    }
    painting = true;
    union = null;
    try {
      drawCells.call(this, region);
    } finally {
      painting = false;
      const done = union as {
        x1: number;
        y1: number;
        x2: number;
        y2: number;
      } | null;
      union = null;
      if (done) {
        blit.call(
          this,
          this._buffer,
          done.x1,
          done.y1,
          done.x2 - done.x1,
          done.y2 - done.y1,
          done.x1,
          done.y1
        );
      }
    }
  };
}
