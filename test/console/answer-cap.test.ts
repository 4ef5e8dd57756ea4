/**
 * The answers `%set` reads are bounded: an answer over the cap is not kept, and an expression
 * over it says so, with the cap; named answers are limited in number.
 */
import {
  AnswerStore,
  MAX_ANSWER_BYTES,
  MAX_NAMED_ANSWERS
} from '../../kernel/src/console/answers';
import { AnswerReader } from '../../kernel/src/console/expression-results';
import { parseCell } from '../../kernel/src/console/parse';
import { VariableScope } from '../../kernel/src/console/variables';
import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';

const scope = new VariableScope(() => undefined);

it('an answer over the cap is not kept, and %set says so with the cap', () => {
  const answers = new AnswerStore();
  answers.record(
    'es: GET /big/_search',
    { hits: { hits: [] } },
    MAX_ANSWER_BYTES + 1
  );
  const parsed = parseCell(
    '%set ids = hits.hits[*]._id',
    scope,
    CONSOLE_WORDING,
    new AnswerReader(answers)
  );
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) {
    expect(parsed.refusal.message).toContain(
      'The last answer (es: GET /big/_search, 8,388,609 bytes, 1 byte more than 8 MB) was not kept: searchbook keeps answers of up to 8 MB for %set.'
    );
    expect(parsed.refusal.hint).toContain('fewer hits a page');
  }
});

it(`at most ${MAX_NAMED_ANSWERS} answers are named; naming again replaces`, () => {
  const answers = new AnswerStore();
  answers.record('es: GET /a/_count', { count: 1 }, 12);
  for (let i = 0; i < MAX_NAMED_ANSWERS; i++) {
    answers.name(`a${i}`);
  }
  expect(() => answers.name('one_more')).toThrow(
    `${MAX_NAMED_ANSWERS} answers are named already`
  );
  answers.record('es: GET /b/_count', { count: 2 }, 12);
  answers.name('a0');
  expect(answers.read('a0').value).toEqual({ count: 2 });
});
