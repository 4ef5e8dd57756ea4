/**
 * A cell's text as said aloud: a blank cell says whether it holds null, an empty text, or
 * nothing (a field the document lacks), as the grid draws the first two apart.
 */
export function spokenValue(
  shown: string,
  isNull: boolean,
  value: unknown
): string {
  if (shown !== '') {
    return shown;
  }
  return isNull ? 'null' : value === '' ? 'empty' : 'no value';
}
