/**
 * The answer a notebook keeps goes from the engine's bytes to the output's JSON in one pass
 * (render/swapped-answer.ts) and is copied into the message as bytes (protocol/encoded-string.ts).
 * What a frontend receives must be exactly what serialising the swapped string would give.
 */
import fc from 'fast-check';
import { serialise } from '../../kernel/src/protocol/encoded-string';
import { swapQuotes } from '../../kernel/src/render/answer-rows';
import { swappedAnswer } from '../../kernel/src/render/swapped-answer';

/** What the message would hold had the swapped answer been built as a string and serialised. */
const expected = (text: string) => JSON.stringify({ answer: swapQuotes(text), answerFormat: 'json, quotes swapped' });
const sent = (bytes: Buffer) => serialise({ answer: swappedAnswer(bytes), answerFormat: 'json, quotes swapped' }).toString('utf8');

test('any JSON answer, compact or indented, reaches the message as the swapped string and reads back as the engine sent it', () => {
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.constantFrom<undefined | number | string>(undefined, 2, '\t', '\r\n'), (value, indent) => {
      let text = JSON.stringify(value, null, typeof indent === 'string' && indent.includes('\n') ? undefined : indent);
      if (indent === '\r\n') text = `${text}\r\n`;
      expect(sent(Buffer.from(text, 'utf8'))).toBe(expected(text));
      expect(swapQuotes((JSON.parse(sent(Buffer.from(text, 'utf8'))) as { answer: string }).answer)).toBe(text);
    }),
    { numRuns: 500 },
  );
});

test('long answers with a few escapes, in buffers at any offset, take the word-at-a-time path to the same bytes', () => {
  const padding = 'lorem "ipsum" dolor '.repeat(400);
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 2 }), fc.nat(7), fc.boolean(), (value, offset, newline) => {
      const text = `${JSON.stringify({ before: padding, value, after: padding })}${newline ? '\n' : ''}`;
      const holder = Buffer.alloc(offset + Buffer.byteLength(text));
      holder.write(text, offset, 'utf8');
      expect(sent(holder.subarray(offset))).toBe(expected(text));
    }),
    { numRuns: 200 },
  );
});

test('bytes that are not UTF-8, or hold control characters JSON never has raw, are read as the text decoder reads them', () => {
  const long = 'x'.repeat(5000);
  const odd = [
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from('{"a":"\u0001\b\f"}', 'utf8'),
    Buffer.from([0x22, 0xc3, 0x22]),
    Buffer.from(`{"a":"${long}\u0001${long}","b":"it's"}`, 'utf8'),
    Buffer.from(`{"a":"${long}${long}\u001f"}`, 'utf8'),
  ];
  for (const bytes of odd) expect(sent(bytes)).toBe(expected(new TextDecoder().decode(bytes)));
});

test('several kept answers in one message land in their places; a document holding a look-alike of the splice marks stays text', () => {
  const a = Buffer.from('{"x":"it\'s"}', 'utf8');
  const b = Buffer.from('[1,"two"]', 'utf8');
  const forged = ['\u0001', 'searchbook:0', '\u0001'].join('');
  const content = { data: { first: { answer: swappedAnswer(a) }, html: `<td>${forged}</td>`, second: [swappedAnswer(b)] } };
  const received = JSON.parse(serialise(content).toString('utf8')) as typeof content & { data: { first: { answer: string }; second: string[] } };
  expect(swapQuotes(received.data.first.answer)).toBe(a.toString());
  expect(swapQuotes(received.data.second[0] as string)).toBe(b.toString());
  expect(received.data.html).toBe(`<td>${forged}</td>`);
  // Outside a message it is the plain string.
  expect(JSON.parse(JSON.stringify(content)) as unknown).toEqual(received);
});
