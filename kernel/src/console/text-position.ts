/** Offsets to 1-based line/column, computed only when a message needs them. */
export interface Position {
  line: number;
  column: number;
}

export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  let next = text.indexOf('\n');
  while (next !== -1 && next < offset) {
    line++;
    lineStart = next + 1;
    next = text.indexOf('\n', lineStart);
  }
  return { line, column: offset - lineStart + 1 };
}

export function lineEndAt(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
}
