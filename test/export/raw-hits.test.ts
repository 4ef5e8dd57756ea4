/**
 * Reading an export page from the bytes Elasticsearch sends: the lines are the
 * engine's own bytes for `_index`, `_id` and `_source`, whatever the strings hold; answers of
 * another shape are not taken for pages; the next page's start guessed from the answer's ends
 * is the last hit's sort, or no guess at all.
 */
import {
  guessNextPage,
  HitRanges,
  readRawHits
} from '../../kernel/src/engines/elasticsearch/raw-hits';
import { exactJson } from '../../contracts/exact-json';

const scratch = () => ({
  ranges: new HitRanges(),
  output: (size: number) => Buffer.alloc(size)
});
const read = (text: string) => readRawHits(Buffer.from(text), scratch());
const answer = (hits: string[], extra = '') =>
  `{"pit_id":"cGl0PQ==","took":3,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"max_score":null,"hits":[${hits.join(',')}]}${extra}}`;

const tricky =
  '{"note":"a } ] { [ \\" \\\\","sort":[1,2],"n":12345678901234567890,"x":1.0}';

it("copies each hit's _index, _id and _source into a line, byte for byte, and reads the last hit's sort", () => {
  const page = read(
    answer([
      `{"_index":"i","_id":"a\\"b","_score":null,"_source":${tricky},"sort":[5]}`,
      '{"_index":"i","_id":"c","_score":null,"sort":[9]}'
    ])
  );
  expect(page?.count).toBe(2);
  expect(page?.jsonl.toString()).toBe(
    `{"_index":"i","_id":"a\\"b","_source":${tricky}}\n{"_index":"i","_id":"c","_source":{}}\n`
  );
  expect(page?.lastSort).toEqual([9]);
  expect(page?.pitId).toBe('cGl0PQ==');
});

it('puts a pretty-printed source on one line', () => {
  const page = read(
    answer([
      '{"_index":"i","_id":"a","_source":{\n  "a": [1,\n 2]\n},"sort":[1]}'
    ])
  );
  expect(page?.jsonl.toString()).toBe(
    '{"_index":"i","_id":"a","_source":{"a":[1,2]}}\n'
  );
});

it('keeps every literal of a pretty-printed source it puts on one line as written, blanks in strings too', () => {
  const page = read(
    answer([
      '{"_index":"i","_id":"a","_source":{\n  "n": 123456789012345678,\n  "d": [9007199254740993, 1.0, -0.0, 1e400, 1E-400],\n\t"s": " a \\" b ",\r\n  "t" : true\n},"sort":[1]}'
    ])
  );
  expect(page?.jsonl.toString()).toBe(
    '{"_index":"i","_id":"a","_source":{"n":123456789012345678,"d":[9007199254740993,1.0,-0.0,1e400,1E-400],"s":" a \\" b ","t":true}}\n'
  );
});

it('an empty page, an answer that is not a search page, and shard failures', () => {
  expect(read(answer([]))).toMatchObject({ count: 0, lastSort: undefined });
  expect(read('{"error":{"type":"x"},"status":500}')).toBeUndefined();
  expect(read('{"hits":{"hits":[{"_id":"a","sort":[1]}]}}')).toBeUndefined();
  expect(read('{"hits":{"hits":[')).toBeUndefined();
  const failed = read(
    '{"_shards":{"total":2,"successful":1,"failed":1,"failures":[{"shard":1,"reason":{"type":"t","reason":"disk broke"}}]},"hits":{"hits":[]}}'
  );
  expect(failed?.shardFailures).toEqual(['disk broke']);
});

it("guesses the next page from the answer's ends: the last hit's own sort (not one inside a source), or nothing when the answer ends otherwise", () => {
  const hits = [
    `{"_index":"i","_id":"a","_score":null,"_source":${tricky},"sort":[41]}`,
    `{"_index":"i","_id":"b","_score":null,"_source":${tricky},"sort":[42]}`
  ];
  expect(guessNextPage(Buffer.from(answer(hits)))).toEqual({
    after: [42],
    pitId: 'cGl0PQ=='
  });
  expect(
    guessNextPage(Buffer.from(answer(hits, ',"aggregations":{}')))
  ).toBeUndefined();
  expect(guessNextPage(Buffer.from(answer([])))).toBeUndefined();
});

it('decodes the hits straight from the answer for CSV, in order across chunks, long numbers exact', () => {
  const long =
    '{"_index":"i","_id":"L","_source":{"n":9007199254740993,"d":0.10000000000000000555},"sort":[0]}';
  const many = Array.from(
    { length: 3_000 },
    (_, i) =>
      `{"_index":"i","_id":"d${i}","_score":null,"_source":{"pad":"${'x'.repeat(40)}","i":${i}},"sort":[${i + 1}]}`
  );
  const page = read(
    answer([
      long,
      '{"_index":"i","_id":"c","_score":null,"sort":[9]}',
      '{"_index":"i","_id":"p","_source":{\n  "a": [1,\n 2]\n},"sort":[1]}',
      ...many
    ])
  );
  const hits: unknown[] = [];
  page?.eachHit(hit => hits.push(hit));
  expect(hits).toHaveLength(3_003);
  expect(exactJson((hits[0] as { _source: unknown })._source)).toBe(
    '{"n":9007199254740993,"d":0.10000000000000000555}'
  );
  expect(hits[1]).toMatchObject({ _id: 'c' });
  expect(hits[1]).not.toHaveProperty('_source');
  expect(hits[2]).toMatchObject({ _id: 'p', _source: { a: [1, 2] } });
  expect(
    hits.slice(3).map(h => (h as { _source: { i: number } })._source.i)
  ).toEqual(many.map((_, i) => i));
});
