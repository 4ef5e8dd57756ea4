/**
 * Documents whose field names are also names of JavaScript object properties (`constructor`,
 * `__proto__`, `toString`, ...), empty, very long or dotted, held by some documents and absent
 * from others, with the grid cell each field should fill. Documents are written as JSON text
 * and parsed, as an answer from the engine is, so `__proto__` is an own field of them.
 */
import fc from 'fast-check';
import type { JsonValue } from '../../kernel/src/console/cell';

export const HOSTILE_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
  `long${'g'.repeat(296)}`,
  'a.b',
  'name'
] as const;

/** An object holding hostile keys, one level under the document (`car.constructor`). */
const OBJECT_KEY = 'car';

/** Leaf values: short text (no markup), numbers, booleans, null and small arrays. */
const text = (minLength: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcXYZ019 '),
    minLength,
    maxLength: 10
  });
export const leafValue = (strings = false): fc.Arbitrary<JsonValue> =>
  strings
    ? text(1)
    : fc.oneof(
        text(0),
        fc.integer({ min: -1000, max: 1000 }),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 })
      );

export interface HostileDocument {
  /** The document as JSON text, its keys in the order written. */
  json: string;
  /** Each grid column the document fills (dotted path) and its value; absent columns are absent here. */
  cells: Map<string, JsonValue>;
}

/** `keys`: the names to draw from (an engine that refuses some names gets the others). `strings`: every leaf a string (one mapping type a field). */
/** `nested` false: no object fields (a Typesense schema without nested fields). */
export function hostileDocument(
  options: {
    keys?: readonly string[];
    strings?: boolean;
    nested?: boolean;
  } = {}
): fc.Arbitrary<HostileDocument> {
  const keys = options.keys ?? HOSTILE_KEYS;
  const fields = fc
    .subarray([...keys])
    .chain(names =>
      fc.tuple(
        ...names.map(name =>
          leafValue(options.strings).map(value => [name, value] as const)
        )
      )
    );
  const inner =
    options.nested === false
      ? fc.constant(undefined)
      : fc.option(fields, { nil: undefined });
  return fc.record({ top: fields, inner }).map(({ top, inner }) => {
    const cells = new Map<string, JsonValue>();
    const members = top.map(([name, value]) => {
      cells.set(name, value);
      return `${JSON.stringify(name)}:${JSON.stringify(value)}`;
    });
    if (inner) {
      if (inner.length === 0) {
        cells.set(OBJECT_KEY, {});
      }
      for (const [name, value] of inner) {
        cells.set(`${OBJECT_KEY}.${name}`, value);
      }
      members.push(
        `${JSON.stringify(OBJECT_KEY)}:{${inner.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`
      );
    }
    return { json: `{${members.join(',')}}`, cells };
  });
}

/** Several documents, at least one of them holding each name some other lacks (most runs). */
export const hostileDocuments = (
  options: Parameters<typeof hostileDocument>[0] = {}
): fc.Arbitrary<HostileDocument[]> =>
  fc.array(hostileDocument(options), { minLength: 1, maxLength: 6 });
