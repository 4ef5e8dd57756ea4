/** @jest-environment jsdom */
/**
 * A grid shown for the first time paints its cells once: Lumino's repaint asked for on attach
 * is not run again after the first resize painted everything, and a change asked for after
 * that paint is still drawn.
 */
import './support/dom';
import { DataGrid, JSONModel } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { skipRepaintsAlreadyDone } from '../../extension/src/datagrid/repaints-already-done';

// jsdom lays nothing out: every node measures as the grid's place in a notebook output would.
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
    configurable: true,
    get: () => 400
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get: () => 300
  });
});

/** Paints of every cell of the grid, as its own painting calls them. */
function wholePaints(grid: DataGrid): () => number {
  const painting = grid as unknown as {
    paintContent(x: number, y: number, width: number, height: number): void;
  };
  const paint = painting.paintContent;
  let whole = 0;
  painting.paintContent = function (x, y, width, height) {
    if (
      x <= 0 &&
      y <= 0 &&
      x + width >= grid.viewportWidth &&
      y + height >= grid.viewportHeight
    ) {
      whole++;
    }
    paint.call(this, x, y, width, height);
  };
  return () => whole;
}

function shownGrid(skip: boolean): { grid: DataGrid; whole: () => number } {
  const grid = new DataGrid();
  grid.dataModel = new JSONModel({
    data: [
      { a: 1, b: 'x' },
      { a: 2, b: 'y' }
    ],
    schema: { fields: [{ name: 'a' }, { name: 'b' }] }
  });
  if (skip) {
    skipRepaintsAlreadyDone(grid);
  }
  MessageLoop.flush();
  const whole = wholePaints(grid);
  // As in a notebook: attached (Lumino asks for a repaint), then laid out before that runs.
  Widget.attach(grid, document.body);
  MessageLoop.sendMessage(grid, Widget.Msg.FitRequest);
  MessageLoop.flush();
  return { grid, whole };
}

it("Lumino alone paints a newly shown grid's cells twice (what this removes)", () => {
  const { grid, whole } = shownGrid(false);
  expect(whole()).toBe(2);
  Widget.detach(grid);
});

it('paints a newly shown grid once', () => {
  const { grid, whole } = shownGrid(true);
  expect(whole()).toBe(1);
  Widget.detach(grid);
});

it('still draws a change asked for after that paint', () => {
  const { grid, whole } = shownGrid(true);
  // What a model change or a theme asks of the grid (protected in Lumino's typings).
  (grid as unknown as { repaintContent(): void }).repaintContent();
  MessageLoop.flush();
  expect(whole()).toBe(2);
  Widget.detach(grid);
});
