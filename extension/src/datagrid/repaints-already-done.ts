import type { DataGrid } from '@lumino/datagrid';

/** The parts of Lumino 2's DataGrid repainting this module wraps (private there; checked before use). */
interface RepaintInternals {
  repaintContent(): void;
  repaintRegion(...args: unknown[]): void;
  paintContent(x: number, y: number, width: number, height: number): void;
  _onViewportPaintRequest(msg: unknown): void;
}

/**
 * Drops a queued repaint of the grid's cells that a whole paint has already done.
 *
 * Why: Lumino asks for a repaint of every cell when a grid is attached, and its first resize
 * after that (from no size to its own) paints every cell too, before the queued request runs:
 * each grid built while a notebook scrolls was painted whole twice in the same frame. A
 * request is dropped only when the whole grid was painted after every repaint asked for, so
 * a change asked for after that paint is still drawn.
 *
 * Another Lumino without these methods keeps its own painting.
 */
export function skipRepaintsAlreadyDone(grid: DataGrid): void {
  const internals = grid as unknown as Partial<RepaintInternals>;
  const {
    repaintContent,
    repaintRegion,
    paintContent,
    _onViewportPaintRequest
  } = internals;
  if (
    typeof repaintContent !== 'function' ||
    typeof repaintRegion !== 'function' ||
    typeof paintContent !== 'function' ||
    typeof _onViewportPaintRequest !== 'function'
  ) {
    return;
  }
  /** Repaints asked for so far. */
  let asked = 0;
  /** `asked` when the grid was last painted whole; -1: never. */
  let paintedWholeAt = -1;
  const patched = grid as unknown as RepaintInternals;
  patched.repaintContent = function (this: RepaintInternals) {
    asked++;
    repaintContent.call(this);
  };
  patched.repaintRegion = function (this: RepaintInternals, ...args) {
    asked++;
    repaintRegion.apply(this, args);
  };
  patched.paintContent = function (
    this: RepaintInternals,
    x,
    y,
    width,
    height
  ) {
    if (
      x <= 0 &&
      y <= 0 &&
      x + width >= grid.viewportWidth &&
      y + height >= grid.viewportHeight &&
      grid.viewportWidth > 0 &&
      grid.viewportHeight > 0
    ) {
      paintedWholeAt = asked;
    }
    paintContent.call(this, x, y, width, height);
  };
  patched._onViewportPaintRequest = function (this: RepaintInternals, msg) {
    if (paintedWholeAt === asked) {
      return;
    }
    _onViewportPaintRequest.call(this, msg);
  };
}
