/**
 * How an engine's body is read (drivers/transport.ts): JSON to the value of its UTF-8 text,
 * its bytes kept as sent for the notebook; JSONL to its lines; anything else as text.
 */
import fc from 'fast-check';
import { decoded } from '../../kernel/src/driver-core/http/answer-body';

const body = (bytes: Buffer, contentType = 'application/json') =>
  decoded({
    status: 200,
    headers: { 'content-type': contentType },
    bytes,
    elapsedMs: 1
  }).body;
const padding = 'plain ascii text '.repeat(100);

test('any JSON answer, with few or many characters past ASCII, parses to the value of its UTF-8 text, and its bytes are kept as sent', () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ stringUnit: 'binary' }),
      fc.nat(3),
      (value, pad) => {
        const text = JSON.stringify({ padding: padding.repeat(pad), value });
        const bytes = Buffer.from(text, 'utf8');
        const got = body(bytes);
        expect(got).toEqual({
          kind: 'json',
          value: JSON.parse(text) as unknown,
          bytes
        });
      }
    ),
    { numRuns: 500 }
  );
});

test('characters of every UTF-8 length come back exactly, at the edges of the body too', () => {
  for (const text of [
    '"ü"',
    '["São Paulo","Zürich"]',
    `{"a":"→${padding}…","b":"😀"}`,
    `["${padding}ã"]`,
    '"\u00ff\u0100\u07ff\u0800\uffff\u{10000}\u{10ffff}"'
  ]) {
    expect(body(Buffer.from(text, 'utf8'))).toMatchObject({
      kind: 'json',
      value: JSON.parse(text) as unknown
    });
  }
});

test('a byte-order mark is dropped, as before', () => {
  const bytes = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(`{"city":"München","pad":"${padding}"}`, 'utf8')
  ]);
  expect(body(bytes)).toEqual({
    kind: 'json',
    value: { city: 'München', pad: padding },
    bytes: bytes.subarray(3)
  });
});

test('what is not JSON stays what it was: a backslash before a letter past ASCII, bytes that are not UTF-8, JSONL, plain text', () => {
  // `\ü` is no JSON escape; escaping the ü would have made it read as `\\u00fc`.
  expect(body(Buffer.from(`{"a":"\\ü ${padding}"}`, 'utf8'))).toEqual({
    kind: 'text',
    text: `{"a":"\\ü ${padding}"}`
  });
  const notUtf8 = Buffer.from([0x22, 0xff, 0x66, 0xc3, 0xbc, 0x22]);
  expect(body(notUtf8)).toMatchObject({
    kind: 'json',
    value: new TextDecoder().decode(notUtf8).slice(1, -1)
  });
  expect(
    body(Buffer.from('{"a":"ü"}\n{"b":"ã"}\n', 'utf8'), 'application/jsonl')
  ).toEqual({ kind: 'jsonl', values: [{ a: 'ü' }, { b: 'ã' }] });
  expect(body(Buffer.from('Bad Gateway: ü', 'utf8'), 'text/plain')).toEqual({
    kind: 'text',
    text: 'Bad Gateway: ü'
  });
  expect(body(Buffer.alloc(0))).toEqual({ kind: 'empty' });
});

test('an answer nested deeper than the kernel walks is text with a notice; brackets inside strings do not count', () => {
  const deep = `${'{"a":'.repeat(1001)}1${'}'.repeat(1001)}`;
  const read = decoded({
    status: 200,
    headers: { 'content-type': 'application/json' },
    bytes: Buffer.from(deep, 'utf8'),
    elapsedMs: 1
  });
  expect(read.body).toEqual({ kind: 'text', text: deep });
  expect(read.notice).toMatch(
    /^The answer nests arrays and objects deeper than 1000 levels/
  );
  const bracketsInStrings = JSON.stringify({
    a: '['.repeat(5000),
    b: '\\"[[[',
    c: [[1]]
  });
  const fine = decoded({
    status: 200,
    headers: { 'content-type': 'application/json' },
    bytes: Buffer.from(bracketsInStrings, 'utf8'),
    elapsedMs: 1
  });
  expect(fine.body).toMatchObject({
    kind: 'json',
    value: JSON.parse(bracketsInStrings) as unknown
  });
  expect(fine.notice).toBeUndefined();
  const atTheLimit = `${'['.repeat(1000)}${']'.repeat(1000)}`;
  expect(
    decoded({
      status: 200,
      headers: {},
      bytes: Buffer.from(atTheLimit),
      elapsedMs: 1
    }).body.kind
  ).toBe('json');
});
