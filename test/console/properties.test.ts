import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import fc from 'fast-check';
import type { JsonValue, ParseResult } from '../../kernel/src/console/cell';
import { isComplete } from '../../kernel/src/console/is-complete';
import { parseCell } from '../../kernel/src/console/parse';
import { scope } from './helpers';

const UNSAFE_PATH =
  /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029\\@]|^\/\/|[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function checkResult(result: ParseResult): void {
  if (!result.ok) {
    expect('items' in result).toBe(false);
    expect(typeof result.refusal.ename).toBe('string');
    expect(result.refusal.message.length).toBeGreaterThan(0);
    expect(result.refusal.hint?.length).toBeGreaterThan(0);
    return;
  }
  for (const item of result.items) {
    if (item.kind !== 'request') {
      continue;
    }
    expect(item.path.startsWith('/')).toBe(true);
    expect(item.path).not.toMatch(UNSAFE_PATH);
    expect(decodeURIComponentLoose(item.path)).not.toMatch(
      /[\u0000-\u001f\u007f]|^\/\//
    );
    expect(item.path.toLowerCase().split('/')).not.toContain('_sql');
    expect(item.query).not.toMatch(/[\s\u0000-\u001f\u007f]/);
  }
}

function decodeURIComponentLoose(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) =>
    String.fromCharCode(parseInt(h, 16))
  );
}

function run(text: string): void {
  const s = scope({ TOKEN: 'tok\r\n//evil' });
  s.set('idx', 'products');
  s.set('evil', 'http://evil/');
  checkResult(parseCell(text, s, CONSOLE_WORDING));
  const complete = isComplete(text, CONSOLE_WORDING);
  expect(['complete', 'incomplete', 'invalid']).toContain(complete.status);
}

const piece = fc.constantFrom(
  'GET',
  'get',
  'POST',
  'DELETE',
  'HEAD',
  'SELECT',
  'FROM',
  ' ',
  ' ',
  '\n',
  '\n',
  '\r\n',
  '\t',
  '/',
  '//',
  '?',
  '&',
  '=',
  '_search',
  '_bulk',
  '_sql',
  '_msearch',
  'documents/import',
  'products',
  '%0d%0a',
  '%2F',
  '%5f',
  '@',
  '\\',
  'http://',
  ':',
  '{',
  '}',
  '[',
  ']',
  '"',
  '"""',
  ',',
  ':',
  '1',
  '-2.5e3',
  'true',
  'null',
  '#',
  '//',
  '%set x = ',
  '%vars',
  '%use',
  '%nope',
  '${idx}',
  '${evil}',
  '${nope}',
  '${env:TOKEN}',
  '${env:NOPE}',
  '${',
  '\u2028',
  '\u0000',
  'é',
  '\ud83d\ude00',
  '\ud800'
);

const nearValidCell = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom('GET', 'post', 'PUT', 'DELETE'),
          fc.array(piece, { maxLength: 6 })
        )
        .map(([m, p]) => `${m} /${p.join('')}`),
      fc.jsonValue().map(v => JSON.stringify(v, null, 1)),
      fc.jsonValue().map(v => JSON.stringify(v)),
      fc.array(piece, { maxLength: 12 }).map(p => p.join('')),
      fc.constantFrom(
        '# comment',
        '// comment',
        '',
        '%set x = 1',
        '%set y = {"a": ${idx}}',
        'GET /${x}/_search',
        'POST /_bulk'
      )
    ),
    { maxLength: 8 }
  )
  .map(lines => lines.join('\n'));

describe('any text yields requests or a refusal, never an exception', () => {
  test('fc.string', () =>
    fc.assert(fc.property(fc.string({ maxLength: 200 }), run), {
      numRuns: 2000
    }));
  test('full unicode', () =>
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), run),
      { numRuns: 1000 }
    ));
  test('binary-ish unicode (lone surrogates)', () =>
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), run), {
      numRuns: 1000
    }));
  test('token soup', () =>
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map(p => p.join('')),
        run
      ),
      { numRuns: 5000 }
    ));
  test('near-valid cells', () =>
    fc.assert(fc.property(nearValidCell, run), { numRuns: 3000 }));
});

// `${` inside a JSON string is a variable reference by design (use triple quotes for it literally).
const noTemplate = (v: unknown): boolean => !JSON.stringify(v).includes('${');

test('any JSON value survives as a body, and NDJSON as lines', () => {
  fc.assert(
    fc.property(
      fc.jsonValue().filter(noTemplate),
      fc.array(fc.jsonValue().filter(noTemplate), {
        minLength: 1,
        maxLength: 5
      }),
      fc.boolean(),
      (value, lines, pretty) => {
        const body = JSON.stringify(value, null, pretty ? 2 : undefined);
        const single = parseCell(
          `POST /p/_search\n${body}`,
          scope(),
          CONSOLE_WORDING
        );
        expect(single).toEqual({
          ok: true,
          items: [
            {
              kind: 'request',
              method: 'POST',
              path: '/p/_search',
              query: '',
              line: 1,
              body: { kind: 'json', value: JSON.parse(body) }
            }
          ]
        });
        const ndjson = parseCell(
          `POST /_bulk\n${lines.map(l => JSON.stringify(l)).join('\n')}`,
          scope(),
          CONSOLE_WORDING
        );
        expect(ndjson.ok && ndjson.items[0]).toMatchObject({
          body: {
            kind: 'ndjson',
            values: lines.map(l => JSON.parse(JSON.stringify(l)))
          }
        });
      }
    ),
    { numRuns: 500 }
  );
});

test('the positional parser agrees with JSON.parse on values holding templates', () => {
  fc.assert(
    fc.property(fc.jsonValue(), value => {
      const s = scope();
      s.set('v', JSON.parse(JSON.stringify(value)) as JsonValue);
      const result = parseCell(
        'POST /p/_doc\n{"wrapped": ${v}, "text": "${v}"}',
        s,
        CONSOLE_WORDING
      );
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      expect(result.ok && result.items[0]).toMatchObject({
        body: {
          kind: 'json',
          value: { wrapped: JSON.parse(JSON.stringify(value)), text }
        }
      });
    }),
    { numRuns: 500 }
  );
});
