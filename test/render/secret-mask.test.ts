/**
 * The mask over answers kept already encoded (the notebook's `answer` string): a secret is
 * found whether it is plain ASCII (looked for in the bytes) or holds characters an encoder may
 * write as `\u` escapes (looked for in the decoded text), and an answer without one is passed
 * on as the very same bytes.
 */
import { swapQuotes } from '../../contracts/answer-rows';
import { SecretMask } from '../../kernel/src/render/secret-mask';
import { swappedAnswer } from '../../kernel/src/render/swapped-answer';
import { EncodedString } from '../../kernel/src/protocol/encoded-string';

const answerOf = (document: Record<string, unknown>) =>
  swappedAnswer(
    Buffer.from(
      JSON.stringify({ found: false, _id: document._id, _source: document }),
      'utf8'
    )
  );
const shownText = (value: unknown): string =>
  value instanceof EncodedString ? value.value : JSON.stringify(value);

it.each([
  ['plain ASCII with quotes and a backslash', `pw-"quoted"-it's-\\-7f3a`],
  [
    'characters past ASCII, written as \\u escapes in the kept answer',
    'pässwörd→ключ-2024'
  ]
])(
  'a secret (%s) echoed in a kept answer is replaced by its ${env:NAME} form',
  (_, secret) => {
    const mask = new SecretMask();
    mask.add(secret, '${env:PW}');
    const kept = answerOf({ _id: secret, note: `the key is ${secret}` });
    // As the kept answer writes it: JSON-escaped, then quotes swapped.
    const written = swapQuotes(JSON.stringify(secret).slice(1, -1));
    expect(shownText(kept)).toContain(written);
    const masked = mask.output({ answer: kept }).answer;
    const text = shownText(masked);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(written);
    expect(text).toContain('${env:PW}');
    // Still the JSON text of the answer, quotes swapped back.
    expect(JSON.parse(swapQuotes(text))).toMatchObject({
      _id: '${env:PW}',
      _source: { note: 'the key is ${env:PW}' }
    });
  }
);

it('an answer that holds no secret is passed on as the same encoded bytes', () => {
  const mask = new SecretMask();
  mask.add('s3cr3t-password', '${env:PW}');
  const kept = answerOf({ _id: '1', note: 'nothing to hide' });
  expect(mask.output({ answer: kept }).answer).toBe(kept);
});
