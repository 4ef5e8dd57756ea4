/**
 * An export page's lines read back as values, a few hundred at a time: every line once and in
 * order whatever its length (lines longer than a whole batch included), blank lines skipped,
 * a last line without its newline read, and numbers a double cannot hold kept exact.
 */
import { eachJsonLine } from '../../kernel/src/driver-core/jsonl-lines';
import { ExactNumber } from '../../contracts/exact-json';

const values = (text: string): unknown[] => {
  const seen: unknown[] = [];
  eachJsonLine(Buffer.from(text), value => seen.push(value));
  return seen;
};

it('reads every line once, in order, across many batches and lines longer than a batch', () => {
  const lines = Array.from({ length: 5_000 }, (_, i) =>
    i % 997 === 0
      ? { i, long: 'é'.repeat(70_000 + i) }
      : { i, name: `line ${i}`, tags: ['a', 'b'] }
  );
  const text = `${lines.map(l => JSON.stringify(l)).join('\n')}\n`;
  expect(values(text)).toEqual(lines);
});

it('skips blank lines and reads a last line without its newline', () => {
  expect(values('{"a":1}\n\n{"b":2}\n\n\n{"c":[3]}')).toEqual([
    { a: 1 },
    { b: 2 },
    { c: [3] }
  ]);
  expect(values('')).toEqual([]);
  expect(values('\n\n')).toEqual([]);
});

it('keeps a long past 2^53 exact in whichever batch it falls', () => {
  const filler = Array.from({ length: 3_000 }, (_, i) =>
    JSON.stringify({ i, pad: 'x'.repeat(40) })
  );
  const text = `${[...filler, '{"n":12345678901234567890}'].join('\n')}\n`;
  const read = values(text);
  expect(read).toHaveLength(3_001);
  const last = read[3_000] as { n: ExactNumber };
  expect(last.n).toBeInstanceOf(ExactNumber);
  expect(last.n.text).toBe('12345678901234567890');
});

it('refuses a line that is not JSON, as JSON.parse does', () => {
  expect(() => values('{"a":1}\n{"b":\n')).toThrow(SyntaxError);
});
