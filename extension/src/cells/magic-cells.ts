/**
 * searchbook's IPython magics in a notebook of another kernel (`%load_ext searchbook` in a
 * Python notebook): the magics' kernel answers the side panel and Copy as curl / Python
 * through that notebook's kernel, which passes the panel's comm on to it.
 */

/** Whether a cell of a non-searchbook kernel runs searchbook (`%%searchbook`, `%searchbook ...`). */
export function isMagicCell(source: string): boolean {
  return /(^|\s|=)%%?searchbook(\s|$)/.test(source);
}

/** Whether a notebook's cells load searchbook's magics, so its kernel can answer the panel. */
export function loadsMagics(sources: Iterable<string>): boolean {
  for (const source of sources) {
    if (/%load_ext\s+searchbook\b/.test(source)) {
      return true;
    }
  }
  return false;
}
