import type { DataGrid } from '@lumino/datagrid';
import { probeFonts } from './font-heights';

/**
 * The datagrid paints on a canvas, where CSS cannot reach, so its colours and fonts are read
 * from JupyterLab's theme variables and read again whenever the theme changes.
 */
export interface GridTheme {
  style: DataGrid.Style;
  font: string;
  headerFont: string;
  textColor: string;
  mutedColor: string;
  cutBackground: string;
  rowHeight: number;
  /** JupyterLab's border width, which the grid's outline takes on each side. */
  borderPx: number;
}

function cssVar(
  style: CSSStyleDeclaration,
  name: string,
  fallback: string
): string {
  const value = style.getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

/** The theme last read, and which theme it was read under. */
let shared: { key: string; theme: GridTheme } | undefined;

/**
 * The grid theme of the page's current JupyterLab theme, read once per theme and shared by
 * every grid: a computed-style read per grid forces the page's styles to be recalculated each
 * time, which a notebook of many grids pays once per grid. Its fonts' heights are measured
 * in the same recalculation (see probeFonts), not by the first grid to draw text, once a font.
 */
export function readGridTheme(): GridTheme {
  const body = document.body;
  const key = `${body.dataset.jpThemeName ?? ''}|${body.dataset.jpThemeLight ?? ''}`;
  if (shared?.key !== key) {
    const measureFonts = probeFonts([HEADER_FONT, BODY_FONT]);
    const css = getComputedStyle(body);
    const theme = readThemeFrom(css);
    measureFonts(css, [theme.headerFont, theme.font]);
    shared = { key, theme };
  }
  return shared.theme;
}

/** The grid's fonts as CSS, which readThemeFrom writes out from the same variables. */
const HEADER_FONT = 'bold var(--jp-ui-font-size1) var(--jp-ui-font-family)';
const BODY_FONT = 'var(--jp-ui-font-size1) var(--jp-code-font-family)';

function readThemeFrom(css: CSSStyleDeclaration): GridTheme {
  const fontSize = cssVar(css, '--jp-ui-font-size1', '13px');
  const fontFamily = cssVar(css, '--jp-ui-font-family', 'sans-serif');
  const codeFamily = cssVar(css, '--jp-code-font-family', 'monospace');
  const border = cssVar(css, '--jp-border-color2', '#e0e0e0');
  const brand = cssVar(css, '--jp-brand-color1', '#1976d2');
  const px = Number.parseFloat(fontSize) || 13;
  // Read once: the grid asks for a row's colour on every paint of every row, and a computed
  // style read while the page's layout is dirty recomputes it.
  const evenRows = cssVar(css, '--jp-layout-color0', '#ffffff');
  const oddRows = cssVar(css, '--jp-layout-color1', '#fafafa');
  return {
    style: {
      voidColor: evenRows,
      backgroundColor: evenRows,
      rowBackgroundColor: (i: number) => (i % 2 === 0 ? evenRows : oddRows),
      gridLineColor: border,
      headerBackgroundColor: cssVar(css, '--jp-layout-color2', '#eeeeee'),
      headerGridLineColor: cssVar(css, '--jp-border-color1', '#bdbdbd'),
      selectionFillColor: withAlpha(brand, 0.2),
      selectionBorderColor: brand,
      cursorBorderColor: brand,
      headerSelectionFillColor: withAlpha(brand, 0.25),
      headerSelectionBorderColor: brand
    },
    font: `${px}px ${codeFamily}`,
    headerFont: `bold ${px}px ${fontFamily}`,
    textColor: cssVar(css, '--jp-ui-font-color1', '#212121'),
    mutedColor: cssVar(css, '--jp-ui-font-color2', '#616161'),
    cutBackground: cssVar(css, '--jp-warn-color3', '#ffe0b2'),
    rowHeight: Math.round(px * 1.9),
    borderPx: Number.parseFloat(cssVar(css, '--jp-border-width', '1px')) || 0
  };
}

/** A translucent version of a theme colour, for selection fills that keep text readable. */
function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (!hex?.[1]) {
    return color;
  }
  const n = Number.parseInt(hex[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Calls back when JupyterLab switches theme (it marks the body) so canvases can repaint. */
export function onThemeChange(callback: () => void): () => void {
  const observer = new MutationObserver(callback);
  observer.observe(document.body, {
    attributes: true,
    attributeFilter: ['data-jp-theme-name', 'data-jp-theme-light']
  });
  return () => observer.disconnect();
}
