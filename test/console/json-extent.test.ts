/**
 * A value's size as written out, measured without writing it: the bytes and depth JSON.stringify
 * would give, whatever the value holds (keys named `__proto__` included), with parts held in
 * several places counted each time, and the bounds said as soon as they are passed.
 */
import fc from 'fast-check';
import { jsonExtent } from '../../kernel/src/console/json-extent';

const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object'
    ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
    : 0;

it('gives the bytes and depth of the JSON text, for any JSON value', () => {
  fc.assert(
    fc.property(fc.jsonValue(), value => {
      expect(jsonExtent(value, Infinity, Infinity)).toEqual({
        kind: 'within',
        bytes: Buffer.byteLength(JSON.stringify(value)),
        depth: depthOf(value)
      });
    }),
    { numRuns: 300 }
  );
});

it('counts a part held in several places each time, and says when a bound is passed', () => {
  fc.assert(
    fc.property(
      fc.jsonValue(),
      fc.integer({ min: 1, max: 8 }),
      (leaf, steps) => {
        let value: unknown = leaf;
        for (let i = 0; i < steps; i++) {
          value = [value, value];
        }
        const bytes = Buffer.byteLength(JSON.stringify(value));
        const depth = depthOf(value);
        expect(jsonExtent(value, Infinity, Infinity)).toEqual({
          kind: 'within',
          bytes,
          depth
        });
        expect(jsonExtent(value, bytes - 1, Infinity)).toEqual({
          kind: 'over',
          limit: 'bytes'
        });
        expect(jsonExtent(value, Infinity, depth - 1)).toEqual({
          kind: 'over',
          limit: 'depth'
        });
      }
    ),
    { numRuns: 200 }
  );
});

it('measures thirty doublings at once, where writing them out would take billions of bytes', () => {
  let value: unknown = { count: 1 };
  for (let i = 0; i < 30; i++) {
    value = [value, value];
  }
  expect(jsonExtent(value, 8 * 1024 * 1024, 1000)).toEqual({
    kind: 'over',
    limit: 'bytes'
  });
});
