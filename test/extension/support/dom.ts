/**
 * jsdom lacks a canvas and ResizeObserver; the datagrid needs both to attach. The canvas mock
 * is the one JupyterLab's own grid tests use; ResizeObserver only has to exist, since jsdom
 * does no layout.
 */
import 'jest-canvas-mock';

class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

const globals = globalThis as { ResizeObserver?: unknown };
globals.ResizeObserver ??= InertResizeObserver;

// @lumino/dragdrop (a datagrid dependency) subclasses DragEvent when it loads.
const dragGlobals = globalThis as { DragEvent?: unknown };
dragGlobals.DragEvent ??= class DragEvent extends MouseEvent {};
