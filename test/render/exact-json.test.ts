/**
 * Exact JSON (contracts/exact-json.ts, exact-wire.ts): numbers a double cannot hold are read
 * as ExactNumbers and printed back with every digit; others stay plain numbers.
 */
import fc from 'fast-check';
import {
  ExactNumber,
  exactJson,
  holdsExactNumber,
  mayHoldLongNumber,
  nearestValue,
  parseExactJson
} from '../../contracts/exact-json';
import { fromExactWire, toExactWire } from '../../contracts/exact-wire';
import { JsonValueSchema } from '../../contracts/mime-types';

const whole = fc.oneof(
  fc.constantFrom(
    2n ** 53n - 1n,
    2n ** 53n + 1n,
    -(2n ** 53n) - 1n,
    -(2n ** 63n),
    2n ** 63n - 1n,
    2n ** 64n - 1n
  ),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n })
);

/** JSON values whose numbers are whole numbers in [-2^63, 2^64), printed compactly. */
const document = fc.letrec(tie => ({
  value: fc.oneof(
    { depthSize: 'small' },
    whole.map(n => n.toString()),
    fc.string().map(s => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
    tie('array'),
    tie('object')
  ),
  array: fc
    .array(tie('value') as fc.Arbitrary<string>, { maxLength: 4 })
    .map(items => `[${items.join(',')}]`),
  object: fc
    .uniqueArray(
      // Not array indexes: JavaScript objects put those first.
      fc.tuple(
        fc.string().map(k => `k${k}`),
        tie('value') as fc.Arbitrary<string>
      ),
      {
        maxLength: 4,
        selector: ([key]) => key
      }
    )
    .map(
      entries =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`
    )
})).value as fc.Arbitrary<string>;

it('reads and prints every whole number in [-2^63, 2^64) with its digits, anywhere in a document', () => {
  fc.assert(
    fc.property(document, text => {
      expect(exactJson(parseExactJson(text))).toBe(text);
    })
  );
});

it("keeps a number past a double's range as its text where nothing else in the answer is long", () => {
  const text = '{"x":1e400,"y":-1E-400,"z":1e+308}';
  const value = parseExactJson(text) as Record<string, unknown>;
  expect(value.x).toBeInstanceOf(ExactNumber);
  expect(value.y).toBeInstanceOf(ExactNumber);
  expect(value.z).toBe(1e308);
  expect(exactJson(value)).toBe(text);
});

it('keeps numbers a double holds as plain numbers, and the others as their text', () => {
  expect(
    parseExactJson('[9007199254740992, 1.5, 0.1, 40.71277618408203]')
  ).toEqual([9007199254740992, 1.5, 0.1, 40.71277618408203]);
  const kept = parseExactJson(
    '[9007199254740993, 0.12345678901234567, 1e400, 18446744073709551615]'
  ) as unknown[];
  expect(kept.every(v => v instanceof ExactNumber)).toBe(true);
  expect(kept.map(String)).toEqual([
    '9007199254740993',
    '0.12345678901234567',
    '1e400',
    '18446744073709551615'
  ]);
  expect(Number(kept[0])).toBe(9007199254740992);
  expect(nearestValue(kept)).toEqual([
    9007199254740992,
    Number('0.12345678901234567'),
    Infinity,
    18446744073709552000
  ]);
});

it('leaves digits inside strings alone, and keeps a field named __proto__ a field', () => {
  const value = parseExactJson(
    '{"__proto__": 9007199254740993, "id": "9007199254740993"}'
  ) as Record<string, unknown>;
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.keys(value)).toEqual(['__proto__', 'id']);
  expect(value.id).toBe('9007199254740993');
  expect(exactJson(value)).toBe(
    '{"__proto__":9007199254740993,"id":"9007199254740993"}'
  );
});

it('refuses text that is not JSON as JSON.parse does', () => {
  expect(() => parseExactJson('[09007199254740993]')).toThrow(SyntaxError);
  expect(() => new ExactNumber('12a')).toThrow(TypeError);
});

it('looks for long numbers as a regular expression would', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('1', '2', '.', 'a', '"', ' ') }),
      text => {
        expect(mayHoldLongNumber(text)).toBe(/[\d.]{16}/.test(text));
      }
    ),
    { numRuns: 2000 }
  );
});

it('a message holding an exact number crosses as its exact text; others as they are', () => {
  const plain = { v: 1, rows: [{ n: 1 }] };
  expect(toExactWire(plain)).toBe(plain);
  const exact = { v: 1, rows: [{ n: new ExactNumber('9007199254740993') }] };
  const wire = toExactWire(exact);
  expect(wire).toEqual({
    exactJson: '{"v":1,"rows":[{"n":9007199254740993}]}'
  });
  // JupyterLab's JSON.parse of the wire leaves the text whole.
  const back = fromExactWire(JSON.parse(JSON.stringify(wire)));
  expect(holdsExactNumber(back)).toBe(true);
  expect(exactJson(back)).toBe('{"v":1,"rows":[{"n":9007199254740993}]}');
  expect(fromExactWire(plain)).toBe(plain);
});

it("the contracts' JSON schema keeps an ExactNumber as it is", () => {
  const parsed = JsonValueSchema.parse({
    n: new ExactNumber('9007199254740993')
  }) as { n: unknown };
  expect(parsed.n).toBeInstanceOf(ExactNumber);
});
