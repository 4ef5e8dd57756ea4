import { TextRenderer } from '@lumino/datagrid';

/**
 * Font heights for the grids' text renderers, measured together. Lumino's
 * `TextRenderer.measureFontHeight` measures each font the first time a cell is drawn in it, by
 * adding a node to the page and reading its height: each read recomputes the page's styles and
 * layout, and a grid's first paint asks for its header font and then its body font, so a
 * notebook opening paid twice, on top of the theme's own read. Here a theme's fonts are
 * measured in the same recalculation as its variables' read, the way Lumino measures them (the
 * same node, the same font), so each height, and where the text is drawn, is what Lumino would
 * have measured. Lumino's measure (shared by the page's grids) is wrapped to answer with these
 * heights; for every other font it measures as before.
 */

/** Heights measured here, by the font as the renderers name it. */
const measured = new Map<string, number>();
let wrapped = false;

/**
 * Starts measuring fonts written in CSS, variables allowed (`bold var(--size) var(--family)`):
 * their nodes go in now, before the variables are read, so the one style recalculation that
 * read may force covers them too. Call the function returned once the variables are read,
 * with `css` holding them and, for each of `cssFonts`, the font string the renderers will name.
 * A font that is not the CSS font with its variables written out (a size in other units, a
 * variable unset) is left to Lumino, which measures it when first drawn.
 */
export function probeFonts(
  cssFonts: readonly string[]
): (css: CSSStyleDeclaration, fonts: readonly string[]) => void {
  const nodes = cssFonts.map(measuringNode);
  document.body.append(...nodes);
  return (css, fonts) => {
    wrapLumino();
    fonts.forEach((font, i) => {
      const node = nodes[i];
      const written = cssFonts[i] && withVariables(cssFonts[i], css);
      if (node && written === font) {
        measured.set(font, node.offsetHeight);
      }
    });
    for (const node of nodes) {
      node.remove();
    }
  };
}

/** `cssFont` with each `var(--name)` replaced by the variable's value in `css`; undefined if one is unset. */
function withVariables(
  cssFont: string,
  css: CSSStyleDeclaration
): string | undefined {
  let unset = false;
  const written = cssFont.replace(/var\((--[\w-]+)\)/g, (_, name: string) => {
    const value = css.getPropertyValue(name).trim();
    unset ||= value === '';
    return value;
  });
  return unset ? undefined : written;
}

/**
 * Lumino's measure, answering first for the fonts measured here; any other font is Lumino's to
 * measure, as before.
 */
function wrapLumino(): void {
  if (wrapped) {
    return;
  }
  wrapped = true;
  const lumino = TextRenderer.measureFontHeight.bind(TextRenderer);
  TextRenderer.measureFontHeight = (font: string): number =>
    measured.get(font) ?? lumino(font);
}

/** A node styled as Lumino's own for measuring a font's height. */
function measuringNode(font: string): HTMLElement {
  const node = document.createElement('div');
  node.style.position = 'absolute';
  node.style.top = '-99999px';
  node.style.left = '-99999px';
  node.style.visibility = 'hidden';
  node.textContent = 'M';
  node.style.font = font;
  return node;
}
