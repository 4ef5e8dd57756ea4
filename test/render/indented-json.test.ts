/**
 * The Raw JSON view lays out the engine's answer as JSON.stringify(value, null, 2) would, but
 * from the text: every literal reads as the engine wrote it.
 */
import fc from 'fast-check';
import { indentedJson } from '../../contracts/answer-text';

it('lays out any JSON value as JSON.stringify does with two spaces', () => {
  fc.assert(
    fc.property(fc.jsonValue(), value => {
      const compact = JSON.stringify(value);
      expect(indentedJson(compact)).toBe(JSON.stringify(value, null, 2));
      // Blanks between tokens, as an engine's pretty answer has them, change nothing.
      expect(indentedJson(JSON.stringify(value, null, '\t'))).toBe(
        JSON.stringify(value, null, 2)
      );
    })
  );
});

it('keeps each literal as written: 4.0, -0.0, 1e400, long numbers and escapes', () => {
  expect(
    indentedJson(
      '{"a" : 4.0, "b":[-0.0, 1e400, 12345678901234567890], "s":"\\u00e9 \\"x\\"", "e":{}, "l":[ ]}'
    )
  ).toBe(
    '{\n  "a": 4.0,\n  "b": [\n    -0.0,\n    1e400,\n    12345678901234567890\n  ],\n  "s": "\\u00e9 \\"x\\"",\n  "e": {},\n  "l": []\n}'
  );
});
