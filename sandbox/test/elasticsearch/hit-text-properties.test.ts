/**
 * A search page's hits are written straight to text (no hit objects), while a pretty answer is
 * still printed from the hits as values: on random documents (odd ids, unicode, 64-bit
 * integers, fields named like object properties) and random hit options (version, sequence
 * numbers, `_source` filtered or off, no stored fields, sorts with missing values, scores, a
 * point in time and its slices, 7.x and 8.x), both print the same JSON, digit for digit.
 */
import fc from 'fast-check';
import { parseJson, stringifyJson } from '../../src/elasticsearch/long-json';
import { call, ndjson, start, type Running } from './helpers';

const LONG = '9007199254740993';

const id = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map(String),
  fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }),
  fc.constantFrom('a"b', 'back\\slash', 'line\u2028sep', 'é', 'tab\t')
);
const value = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.constant(LONG),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
  fc.record({ city: fc.string({ maxLength: 6 }), zip: fc.integer() })
);
const source = fc
  .tuple(
    fc.option(fc.oneof(fc.integer(), fc.constant(LONG)), { nil: undefined }),
    fc.dictionary(
      fc.constantFrom('name', 'tags', '__proto__', 'constructor', 'z', 'ü'),
      value,
      { maxKeys: 5 }
    )
  )
  .map(([n, rest]) => (n === undefined ? rest : { n, ...rest }));

/** A document line for _bulk, with "9007199254740993" written as the bare 64-bit integer. */
const line = (doc: Record<string, unknown>): string =>
  JSON.stringify(doc).replace(`"${LONG}"`, LONG);

const options = fc.record(
  {
    version: fc.boolean(),
    seq_no_primary_term: fc.boolean(),
    _source: fc.constantFrom<unknown>(false, ['n', 'z*'], { excludes: ['n'] }),
    stored_fields: fc.constant('_none_'),
    sort: fc.constantFrom<unknown>(
      ['_doc'],
      [{ _doc: 'desc' }],
      [{ n: { order: 'desc', missing: '_first' } }],
      [{ n: 'asc' }, '_score'],
      ['_score']
    ),
    track_scores: fc.boolean(),
    from: fc.integer({ min: 0, max: 3 })
  },
  { requiredKeys: [] }
);

let v8: Running;
let v7: Running;
beforeAll(async () => {
  [v8, v7] = await Promise.all([
    start({ version: '8.15.0', security: false }),
    start({ version: '7.17.0', security: false })
  ]);
});
afterAll(async () => {
  await Promise.all([v8.close(), v7.close()]);
});

/** The compact answer, and the pretty one put back in compact form (took set to 0 in both). */
async function bothForms(
  es: Running,
  path: string,
  body: unknown
): Promise<[string, string]> {
  const compact = await call(es, 'POST', path, body);
  const pretty = await call(es, 'POST', `${path}?pretty`, body);
  expect(compact.status).toBe(pretty.status);
  const took = (text: string) => text.replace(/"took":\d+/, '"took":0');
  return [took(compact.text), took(stringifyJson(parseJson(pretty.text)))];
}

let made = 0;
it('hits written as text print as the same hits printed from their values', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.tuple(id, source), {
        minLength: 1,
        maxLength: 12,
        selector: ([key]) => key
      }),
      options,
      fc.boolean(),
      async (docs, asked, seven) => {
        const es = seven ? v7 : v8;
        const index = `hits-${made++}`;
        await call(es, 'PUT', `/${index}`, {
          mappings: {
            dynamic: false,
            properties: { n: { type: 'long' } }
          }
        });
        const bulk = docs
          .map(
            ([key, doc]) =>
              `${JSON.stringify({ index: { _index: index, _id: key } })}\n${line(doc)}\n`
          )
          .join('');
        const loaded = await call(es, 'POST', '/_bulk?refresh=true', bulk);
        expect(loaded.status).toBe(200);
        expect(loaded.body.errors).toBe(false);
        try {
          const [compact, pretty] = await bothForms(
            es,
            `/${index}/_search`,
            asked
          );
          expect(compact).toBe(pretty);
          const pit = await call(es, 'POST', `/${index}/_pit?keep_alive=1m`);
          if (pit.status === 200) {
            const paged = {
              ...asked,
              pit: { id: pit.body.id },
              sort: [{ _shard_doc: 'asc' }],
              size: 4,
              // The second half, after its first hit: a sliced cursor's second page.
              ...(docs.length >= 4
                ? { slice: { id: 1, max: 2 }, search_after: [0] }
                : {})
            };
            delete paged.from;
            const [a, b] = await bothForms(es, '/_search', paged);
            expect(a).toContain('"sort":[');
            expect(a).toBe(b);
          }
        } finally {
          await call(es, 'DELETE', `/${index}`);
        }
      }
    ),
    { numRuns: 120 }
  );
}, 120_000);

it('the same over a page of ten thousand hits read by an export', async () => {
  const docs = Array.from({ length: 10_000 }, (_, i) => [
    { index: { _index: 'big', _id: `d${i}` } },
    { n: i, name: `ü ${i}`, long: i === 5 ? LONG : i }
  ]).flat();
  await call(
    v8,
    'POST',
    '/_bulk?refresh=true',
    ndjson(docs).replace(`"${LONG}"`, LONG)
  );
  const pit = await call(v8, 'POST', '/big/_pit?keep_alive=1m');
  const [compact, pretty] = await bothForms(v8, '/_search', {
    size: 10_000,
    pit: { id: pit.body.id },
    sort: [{ _shard_doc: 'asc' }],
    track_total_hits: false
  });
  expect(compact).toBe(pretty);
  expect(compact).toContain(`"long":${LONG}`);
});
