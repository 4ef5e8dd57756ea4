/**
 * jsdom lacks a canvas and ResizeObserver; the datagrid needs both to attach. The canvas mock
 * is the one JupyterLab's own grid tests use; ResizeObserver only has to exist, since jsdom
 * does no layout.
 */
import 'jest-canvas-mock';
import {
  TextDecoder as NodeTextDecoder,
  TextEncoder as NodeTextEncoder
} from 'node:util';

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

// Every browser has TextEncoder and TextDecoder (the stored answer is read with them); jsdom does not.
const textGlobals = globalThis as {
  TextEncoder?: unknown;
  TextDecoder?: unknown;
};
textGlobals.TextEncoder ??= NodeTextEncoder;
textGlobals.TextDecoder ??= NodeTextDecoder;
