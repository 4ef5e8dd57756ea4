/**
 * Statistics in aggregation and facet tables are painted short (grouped, two decimals or three
 * significant digits), but never as a value the engine did not send: digits are cut, not
 * rounded, and a cut value ends in "…".
 */
import fc from 'fast-check';
import { numberText } from '../../extension/src/datagrid/cell-text';

/** The painted text as a number (grouping and the mark taken out), and whether it is marked. */
function read(text: string): { value: number; marked: boolean } {
  const marked = text.endsWith('…');
  return {
    value: Number(text.replace(/…$/, '').replace(/[^\d.eE+-]/g, '')),
    marked
  };
}

it('paints whole numbers grouped and exact, never marked', () => {
  expect(numberText(1234567)).toBe('1,234,567');
  expect(numberText(-3)).toBe('-3');
  fc.assert(
    fc.property(fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), n => {
      expect(read(numberText(n))).toEqual({ value: n, marked: false });
    })
  );
});

it('cuts where it would round: 19.999 is 19.99…, not 20', () => {
  expect(numberText(19.999)).toBe('19.99…');
  expect(numberText(0.0019999)).toBe('0.00199…');
  expect(numberText(-252.2599)).toBe('-252.25…');
  expect(numberText(2.5)).toBe('2.5');
  expect(numberText(0.125)).toBe('0.125');
});

it('paints the start of any value, marked exactly when digits are left out', () => {
  fc.assert(
    fc.property(
      fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: -1e15,
        max: 1e15
      }),
      value => {
        const { value: shown, marked } = read(numberText(value));
        // Toward zero, never past the value.
        expect(Math.abs(shown)).toBeLessThanOrEqual(Math.abs(value));
        expect(shown === 0 || Math.sign(shown) === Math.sign(value)).toBe(true);
        expect(marked).toBe(shown !== value);
      }
    )
  );
});
