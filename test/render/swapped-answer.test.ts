/**
 * The answer a notebook keeps goes from the engine's bytes to the output's JSON in one pass
 * (render/swapped-answer.ts) and is copied into the message as bytes (protocol/encoded-string.ts).
 * What a frontend receives must be exactly what serialising the swapped string would give.
 */
import fc from 'fast-check';
import { serialise } from '../../kernel/src/protocol/encoded-string';
import { swapQuotes } from '../../contracts/answer-rows';
import { swappedAnswer } from '../../kernel/src/render/swapped-answer';

/**
 * What the message would hold had the swapped answer been built as a string and serialised,
 * parsed: the frame may write a wide character as an escape, never another value.
 */
const expected = (text: string) => ({
  answer: swapQuotes(text),
  answerFormat: 'json, quotes swapped'
});
const frame = (bytes: Buffer) =>
  serialise({
    answer: swappedAnswer(bytes),
    answerFormat: 'json, quotes swapped'
  }).toString('utf8');
const sent = (bytes: Buffer) => JSON.parse(frame(bytes)) as unknown;
/** The widest character of a frame decides how wide Python's str of it is. */
const widest = (text: string) =>
  Math.max(0, ...[...text].map(c => c.codePointAt(0) as number));

test('any JSON answer, compact or indented, reaches the message as the swapped string and reads back as the engine sent it', () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ stringUnit: 'binary' }),
      fc.constantFrom<undefined | number | string>(undefined, 2, '\t', '\r\n'),
      (value, indent) => {
        let text = JSON.stringify(
          value,
          null,
          typeof indent === 'string' && indent.includes('\n')
            ? undefined
            : indent
        );
        if (indent === '\r\n') {
          text = `${text}\r\n`;
        }
        expect(sent(Buffer.from(text, 'utf8'))).toEqual(expected(text));
        expect(
          swapQuotes(
            (sent(Buffer.from(text, 'utf8')) as { answer: string }).answer
          )
        ).toBe(text);
      }
    ),
    { numRuns: 500 }
  );
});

test('long answers with a few escapes, in buffers at any offset, take the word-at-a-time path to the same bytes', () => {
  const padding = 'lorem "ipsum" dolor '.repeat(400);
  fc.assert(
    fc.property(
      fc.jsonValue({ stringUnit: 'binary', maxDepth: 2 }),
      fc.nat(7),
      fc.boolean(),
      (value, offset, newline) => {
        const text = `${JSON.stringify({ before: padding, value, after: padding })}${newline ? '\n' : ''}`;
        const holder = Buffer.alloc(offset + Buffer.byteLength(text));
        holder.write(text, offset, 'utf8');
        expect(sent(holder.subarray(offset))).toEqual(expected(text));
      }
    ),
    { numRuns: 200 }
  );
});

test('bytes that are not UTF-8, or hold control characters JSON never has raw, are read as the text decoder reads them', () => {
  const long = 'x'.repeat(5000);
  const odd = [
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from('{"a":"\u0001\b\f"}', 'utf8'),
    Buffer.from([0x22, 0xc3, 0x22]),
    Buffer.from(`{"a":"${long}\u0001${long}","b":"it's"}`, 'utf8'),
    Buffer.from(`{"a":"${long}${long}\u001f"}`, 'utf8')
  ];
  for (const bytes of odd) {
    expect(sent(bytes)).toEqual(expected(new TextDecoder().decode(bytes)));
  }
});

test('an answer with a few wide characters (past U+00FF) reaches the frame with them escaped, so Python decodes it narrow; Latin-1 letters stay raw', () => {
  const padding = 'lorem ipsum dolor sit amet '.repeat(200);
  fc.assert(
    fc.property(
      fc.array(
        fc.constantFrom(
          '→',
          '…',
          '’',
          '€',
          '😀',
          '中',
          'ā',
          'α',
          'д',
          '߿',
          'ü',
          'ÿ',
          'ã',
          "'",
          '\n'
        ),
        { minLength: 1, maxLength: 20 }
      ),
      fc.boolean(),
      (inserts, pretty) => {
        const value = {
          before: padding,
          names: inserts.map((c, i) => `${c}${i}`),
          after: padding,
          nested: { city: 'São Paulo', note: inserts.join('') }
        };
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const received = frame(Buffer.from(text, 'utf8'));
        expect(widest(received)).toBeLessThanOrEqual(0xff);
        expect(received).toContain('São Paulo');
        expect(
          swapQuotes((JSON.parse(received) as { answer: string }).answer)
        ).toBe(text);
      }
    ),
    { numRuns: 200 }
  );
});

test('an answer made mostly of wide characters keeps them raw: escaping would double its bytes', () => {
  const text = JSON.stringify({
    title: '東京の天気は晴れです。'.repeat(500),
    id: 1
  });
  const received = frame(Buffer.from(text, 'utf8'));
  expect(Buffer.byteLength(received)).toBeLessThan(
    Buffer.byteLength(text) * 1.05
  );
  expect(swapQuotes((JSON.parse(received) as { answer: string }).answer)).toBe(
    text
  );
});

test('a large frame has the few wide characters of the JSON text the kernel writes itself (status lines, clipped cells) escaped; small frames and mostly-wide text stay raw', () => {
  const content = {
    text: `local: GET /products/_search → 200 in 5 ms`,
    rows: `<td>${'x'.repeat(199)}…</td>`.repeat(200),
    emoji: '😀'
  };
  const large = serialise(content).toString('utf8');
  expect(widest(large)).toBeLessThanOrEqual(0xff);
  expect(JSON.parse(large)).toEqual(content);
  const small = { text: 'local: GET /products/_search → 200 in 5 ms' };
  expect(serialise(small).toString('utf8')).toBe(JSON.stringify(small));
  const many = { text: '東京の天気は晴れです。'.repeat(5000) };
  expect(serialise(many).toString('utf8')).toBe(JSON.stringify(many));
});

test('several kept answers in one message land in their places; a document holding a look-alike of the splice marks stays text', () => {
  const a = Buffer.from('{"x":"it\'s"}', 'utf8');
  const b = Buffer.from('[1,"two"]', 'utf8');
  const forged = ['\u0001', 'searchbook:0', '\u0001'].join('');
  const content = {
    data: {
      first: { answer: swappedAnswer(a) },
      html: `<td>${forged}</td>`,
      second: [swappedAnswer(b)]
    }
  };
  const received = JSON.parse(
    serialise(content).toString('utf8')
  ) as typeof content & {
    data: { first: { answer: string }; second: string[] };
  };
  expect(swapQuotes(received.data.first.answer)).toBe(a.toString());
  expect(swapQuotes(received.data.second[0] as string)).toBe(b.toString());
  expect(received.data.html).toBe(`<td>${forged}</td>`);
  // Outside a message it is the plain string.
  expect(JSON.parse(JSON.stringify(content)) as unknown).toEqual(received);
});

test('a pretty-printed answer (the byte-by-byte path) escapes its few wide characters too', () => {
  const text = JSON.stringify(
    {
      lines: Array.from({ length: 400 }, (_, i) => `line ${i}`),
      arrow: 'a → b',
      face: '😀'
    },
    null,
    2
  );
  const received = frame(Buffer.from(text, 'utf8'));
  expect(widest(received)).toBeLessThanOrEqual(0xff);
  expect(swapQuotes((JSON.parse(received) as { answer: string }).answer)).toBe(
    text
  );
});
