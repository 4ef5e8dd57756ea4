/**
 * Positions in error bodies: ES names the line and column of the request body token a
 * parsing error is about. The sandbox finds the token by its key in the raw body text.
 */
import type { EsError } from './errors';

/** 1-based line and column of a key's name, or of the value after it, in `text`; undefined when absent. */
export function keyPosition(
  text: string,
  key: string,
  at: 'key' | 'value'
): { line: number; col: number } | undefined {
  const quoted = JSON.stringify(key);
  const re = new RegExp(
    `${quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*`,
    'g'
  );
  const m = re.exec(text);
  if (!m) {
    return undefined;
  }
  const offset = at === 'key' ? m.index : m.index + m[0].length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return { line, col };
}

/** The error body with `"line":1,"col":1` and `[1:1]` replaced by the located position. */
export function locateInBody(
  body: unknown,
  text: string,
  locate: NonNullable<EsError['locate']>
): unknown {
  const pos = keyPosition(text, locate.key, locate.at);
  if (!pos) {
    return body;
  }
  const json = JSON.stringify(body)
    .replaceAll('"line":1,"col":1', `"line":${pos.line},"col":${pos.col}`)
    .replaceAll('[1:1]', `[${pos.line}:${pos.col}]`);
  return JSON.parse(json) as unknown;
}

/** Lucene's LevenshteinDistance similarity: 1 - edits / longer length. */
function similarity(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(
        up + 1,
        (prev[j - 1] as number) + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1)
      );
      diag = up;
    }
  }
  return 1 - (prev[b.length] as number) / Math.max(a.length, b.length);
}

/** ES's " did you mean any of [...]?" suffix: candidates more than half similar, most similar first. */
export function didYouMean(
  name: string,
  candidates: readonly string[]
): string {
  const close = candidates
    .map(c => ({ c, s: similarity(name, c) }))
    .filter(x => x.s > 0.5)
    .sort((x, y) => y.s - x.s || (x.c < y.c ? -1 : 1))
    .map(x => x.c);
  if (close.length === 0) {
    return '';
  }
  return close.length === 1
    ? ` did you mean [${close[0]}]?`
    : ` did you mean any of [${close.join(', ')}]?`;
}
