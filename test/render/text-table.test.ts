/**
 * The fallback tables' cell writers (render/text-table.ts) take shortcuts for the common
 * case; whatever the text, they must write what the plain definitions would.
 */
import fc from 'fast-check';
import {
  CLIP_PLAIN,
  escapeHtmlText,
  plainCell
} from '../../kernel/src/render/text-table';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;'
};
const unit = fc.constantFrom(
  'a',
  ' ',
  '&',
  '<',
  '>',
  '"',
  "'",
  '\n',
  '\t',
  '\u00a0',
  '\u2028',
  '\u0001',
  'é',
  '→',
  '😀'
);
// Short texts, texts either side of both clip lengths, and any UTF-16 at all.
const text = fc.oneof(
  fc.string({ unit }),
  fc.string({ unit, minLength: 30, maxLength: 260 }),
  fc.string({ unit: 'binary' })
);

test('a document value reaches the HTML fallback as text content: &, < and > written as entities (quotes need none between tags), nothing else changed', () => {
  fc.assert(
    fc.property(text, value => {
      expect(escapeHtmlText(value)).toBe(
        value.replace(/[&<>]/g, c => ENTITIES[c] as string)
      );
    }),
    { numRuns: 1000 }
  );
  expect(escapeHtmlText('<img src=x onerror="alert(1)">')).toBe(
    '&lt;img src=x onerror="alert(1)"&gt;'
  );
});

test('a plain-text cell is one line: every run of whitespace becomes one space, other control characters are escaped, then long values are clipped', () => {
  fc.assert(
    fc.property(text, value => {
      const folded = value
        .replace(/\s+/g, ' ')
        .replace(
          /[\u0000-\u001f\u007f-\u009f]/g,
          c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
        );
      expect(plainCell(value)).toBe(
        folded.length > CLIP_PLAIN
          ? `${folded.slice(0, CLIP_PLAIN - 1)}…`
          : folded
      );
    }),
    { numRuns: 1000 }
  );
  expect(plainCell('two\n\tlines  here')).toBe('two lines here');
  expect(plainCell('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
});
