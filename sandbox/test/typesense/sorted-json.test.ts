/** sortedJson: JSON with keys sorted at every depth (integer-like keys too), and 64-bit raw numbers. */
import fc from 'fast-check';
import { RawNumber, sortedJson } from '../../src/typesense/json';

/** The plain definition: sort the keys, write each member. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map(reference).join(',')}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter(k => obj[k] !== undefined)
    .sort();
  return `{${keys.map(k => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
}

it('equals the plain definition for any JSON value', () => {
  fc.assert(
    fc.property(fc.jsonValue(), value => {
      expect(sortedJson(value)).toBe(reference(value));
    }),
    { numRuns: 500 }
  );
});

it('sorts keys at every depth, skips undefined members, writes raw numbers and bigints with all digits', () => {
  const body = {
    z: 1,
    a: [{ y: true, b: null, u: undefined }],
    m: new RawNumber('1157451471441100899'),
    n: 2n ** 63n,
    s: 'x"<'
  };
  expect(sortedJson(body)).toBe(
    '{"a":[{"b":null,"y":true}],"m":1157451471441100899,"n":9223372036854775808,"s":"x\\"<","z":1}'
  );
});
