/**
 * An output counts its rows off the kept answer's text before building them: the count must be
 * the number of rows the grid then shows, for any answer, or no count at all (it is parsed).
 */
import fc from 'fast-check';
import {
  documentCountOfText,
  documentSpansOfText
} from '../../contracts/answer-count';
import {
  documentsOf,
  hitsPayloadRowReader,
  hitsPayloadRows,
  swapQuotes
} from '../../contracts/answer-rows';
import type { JsonValue } from '../../contracts/json';
import {
  HitsPayloadSchema,
  type HitsPayload
} from '../../contracts/mime-types';

/** Keys a document or an answer may hold, quotes, escapes and the path's own names included. */
const key = fc.oneof(
  fc.constantFrom('hits', 'docs', '_source', "it's", 'say "hi"', 'back\\slash'),
  fc.string({ maxLength: 6 })
);

const json: fc.Arbitrary<JsonValue> = fc.letrec(tie => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 8 }),
    fc.constantFrom("'", '"', '\\', "\\'", '\\"', ']', '}', ','),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 })
  )
})).value as fc.Arbitrary<JsonValue>;

const path = fc.array(fc.oneof(key, fc.nat({ max: 3 })), { maxLength: 3 });

/** An answer with something at `at` (a documents array most of the time). */
const answerWith = (at: (string | number)[]) =>
  fc
    .tuple(json, fc.array(json, { maxLength: 6 }), json, fc.boolean())
    .map(([around, documents, other, asArray]) => {
      let value: JsonValue = asArray ? documents : other;
      for (const step of [...at].reverse()) {
        value =
          typeof step === 'number'
            ? [...Array.from({ length: step }, () => around), value]
            : { before: around, [step]: value, after: around };
      }
      return value;
    });

const expected = (answer: JsonValue, at: (string | number)[]): number =>
  documentsOf(answer, { at }).length;

/** The payload of a `/_search` answer whose documents (its hits by default) a grid reads row by row. */
function searchPayload(
  answer: string,
  documents: HitsPayload['documents'] = {
    at: ['hits', 'hits'],
    source: ['_source'],
    meta: { _id: ['_id'] }
  }
): HitsPayload {
  return HitsPayloadSchema.parse({
    info: {
      connection: 'c',
      engine: 'elasticsearch',
      method: 'GET',
      path: '/i/_search',
      status: 200,
      elapsedMs: 1
    },
    columns: [],
    answer: swapQuotes(answer),
    documents,
    omittedRows: 0
  });
}

describe('counting the documents of a kept answer by its text', () => {
  it('agrees with the parsed answer wherever it gives a count', () => {
    fc.assert(
      fc.property(
        path.chain(at => fc.tuple(fc.constant(at), answerWith(at))),
        fc.boolean(),
        ([at, answer], indented) => {
          const text = swapQuotes(
            JSON.stringify(answer, null, indented ? 2 : undefined)
          );
          const count = documentCountOfText(text, at);
          if (count !== undefined) {
            expect(count).toBe(expected(answer, at));
          }
        }
      ),
      { numRuns: 2000 }
    );
  });

  it('counts the hits of a search answer, and any answer a path does not reach as none', () => {
    const answer = {
      took: 3,
      hits: {
        total: { value: 2, relation: 'eq' },
        hits: [
          { _id: "it's", _source: { name: 'a ] } , "quoted"' } },
          { _id: '2', _source: { tags: [[], {}], n: -1.5e3 } }
        ]
      }
    };
    const text = swapQuotes(JSON.stringify(answer));
    expect(documentCountOfText(text, ['hits', 'hits'])).toBe(2);
    expect(documentCountOfText(text, ['hits', 'hits', 0])).toBe(1);
    expect(documentCountOfText(text, ['hits', 'missing'])).toBe(0);
    expect(documentCountOfText(text, ['took'])).toBe(0);
    expect(documentCountOfText(swapQuotes('[1, 2, 3]'), [])).toBe(3);
  });

  it('takes the last of two members of one name, as JSON.parse does', () => {
    const text = swapQuotes('{"hits": [1, 2, 3], "hits": [4]}');
    expect(documentCountOfText(text, ['hits'])).toBe(1);
    expect(expected(JSON.parse(swapQuotes(text)) as JsonValue, ['hits'])).toBe(
      1
    );
    // On a longer path too, an earlier member it cannot read through left behind.
    const deeper = swapQuotes(
      '{"hits": [{"hits": [1]}], "took": 1, "hits": {"hits": [{"a": 1}, {"a": 2}]}}'
    );
    expect(documentCountOfText(deeper, ['hits', 'hits'])).toBe(2);
    const spans = documentSpansOfText(deeper, ['hits', 'hits']) ?? [];
    expect(
      [0, 2].map(i =>
        JSON.parse(swapQuotes(deeper.slice(spans[i], spans[i + 1])))
      )
    ).toEqual([{ a: 1 }, { a: 2 }]);
    // And the other way round: the last member is the one that cannot be read through.
    const last = swapQuotes('{"hits": {"hits": [1]}, "hits": [{"hits": [1]}]}');
    expect(documentCountOfText(last, ['hits', 'hits'])).toBeUndefined();
  });

  it('gives no count for a path through an array of objects, which the parse maps', () => {
    const text = swapQuotes('{"responses": [{"hits": [1]}, {"hits": [2]}]}');
    expect(documentCountOfText(text, ['responses', 'hits'])).toBeUndefined();
  });

  it('gives no count for text that is not JSON', () => {
    expect(documentCountOfText("{'hits': [1, 2", ['hits'])).toBeUndefined();
    expect(documentCountOfText("{'hits' [1]}", ['hits'])).toBeUndefined();
  });
});

describe('reading each document of a kept answer from its own text', () => {
  it('finds the text of each document, which parses alone to the document of the parsed answer', () => {
    fc.assert(
      fc.property(
        path.chain(at => fc.tuple(fc.constant(at), answerWith(at))),
        fc.boolean(),
        ([at, answer], indented) => {
          const text = swapQuotes(
            JSON.stringify(answer, null, indented ? 2 : undefined)
          );
          const spans = documentSpansOfText(text, at);
          if (spans !== undefined) {
            const slices = [];
            for (let i = 0; i < spans.length; i += 2) {
              slices.push(text.slice(spans[i], spans[i + 1]));
            }
            // Against the text parsed whole (the answer itself may hold a -0 the text writes as 0).
            const whole = JSON.parse(swapQuotes(text)) as JsonValue;
            expect(slices.map(s => JSON.parse(swapQuotes(s)))).toEqual(
              documentsOf(whole, { at })
            );
          }
        }
      ),
      { numRuns: 2000 }
    );
  });

  it('builds, one row at a time, the rows the whole answer gives, whole numbers past 2^53 included', () => {
    const answer = `{"took": 2, "hits": {"hits": [
      {"_id": "it's", "_source": {"n": 9007199254740993, "name": "a ] } , \\"q\\"", "o": {"p": [1, {"q": -0.0}]}}},
      {"_id": "2", "_source": {"n": 18446744073709551615, "__proto__": {"x": 1}, "tags": []}},
      {"_id": "3", "_source": {}}
    ]}}`;
    const payload = searchPayload(answer);
    const reader = hitsPayloadRowReader(payload);
    const whole = hitsPayloadRows(payload);
    expect(reader?.count).toBe(3);
    const one = [2, 0, 1].map(i => reader?.row(i));
    expect(one).toEqual([whole[2], whole[0], whole[1]]);
    // The long whole numbers read exactly, as the whole answer's parse reads them.
    expect(String(one[1]?.n)).toBe('9007199254740993');
    expect(String(one[2]?.n)).toBe('18446744073709551615');
  });

  it('reads any row of many the way the whole answer does, in any order, and a damaged document fails alone', () => {
    const hits = Array.from(
      { length: 123 },
      (_, i) =>
        `{"_id": "${i}", "_source": {"n": ${i === 77 ? '9007199254740993' : i}, "say": "it's ${i}"}}`
    );
    const answer = `{"hits": {"hits": [ ${hits.join(' ,\n ')} ]}}`;
    const payload = searchPayload(answer);
    const whole = hitsPayloadRows(payload);
    const reader = hitsPayloadRowReader(payload);
    expect(reader?.count).toBe(123);
    for (const i of [122, 0, 49, 50, 77, 99, 100, 1, 121]) {
      expect(reader?.row(i)).toEqual(whole[i]);
    }
    expect(String(reader?.row(77).n)).toBe('9007199254740993');
    expect(() => reader?.row(123)).toThrow(RangeError);
    // A document whose value no longer parses (its brackets still pair): its neighbours still read.
    const damaged = hitsPayloadRowReader(
      searchPayload(answer.replace('"n": 60,', '"n": 6 0,'))
    );
    expect(damaged?.row(61)).toEqual(whole[61]);
    expect(() => damaged?.row(60)).toThrow(SyntaxError);
    expect(damaged?.row(59)).toEqual(whole[59]);
  });

  it('reads no rows one at a time from an answer it cannot place', () => {
    const payload = searchPayload(
      '{"responses": [{"hits": [1]}, {"hits": [2]}]}',
      { at: ['responses', 'hits'], source: [], meta: {} }
    );
    expect(hitsPayloadRowReader(payload)).toBeUndefined();
  });
});
