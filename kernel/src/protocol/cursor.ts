/**
 * Jupyter counts cursor positions in Unicode code points; JavaScript strings index UTF-16
 * code units. These convert between the two so emoji and CJK before the cursor don't shift it.
 */
export function codePointToIndex(text: string, codePoint: number): number {
  let index = 0;
  for (let seen = 0; seen < codePoint && index < text.length; seen++) {
    const code = text.charCodeAt(index);
    index +=
      code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }
  return index;
}

export function indexToCodePoint(text: string, index: number): number {
  let points = 0;
  for (let i = 0; i < index && i < text.length; points++) {
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return points;
}
