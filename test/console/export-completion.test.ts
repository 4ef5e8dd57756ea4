/**
 * Completion on a `%export` line: the index or collection, then the options with
 * their values (formats, the target's field names), each option offered once.
 */
import {
  complete,
  type CompletionContext
} from '../../kernel/src/introspection/complete';
import { loadEndpoints as loadEs } from '../../kernel/src/engines/elasticsearch/endpoints';
import { loadEndpoints as loadTs } from '../../kernel/src/engines/typesense/endpoints';

const fieldsOf: Record<string, string[]> = {
  products: ['name', 'name.keyword', 'price', 'tags'],
  books: ['title', 'author', 'year']
};

const context = (engine: 'elasticsearch' | 'typesense'): CompletionContext => ({
  engine,
  endpoints: engine === 'elasticsearch' ? loadEs : loadTs,
  targetNames: async () =>
    engine === 'elasticsearch'
      ? ['products', 'prod-archive', '.security']
      : ['books', 'authors'],
  // As the drivers do: a mapping's multi-fields only when subfields are wanted.
  fieldNames: async (target, options) =>
    (fieldsOf[target] ?? []).filter(
      f => options?.subfields !== false || !f.endsWith('.keyword')
    )
});

/** Completes where `|` is; the matches and the text each would leave. */
async function at(
  text: string,
  engine: 'elasticsearch' | 'typesense' = 'elasticsearch'
) {
  const cursor = text.indexOf('|');
  const plain = text.replace('|', '');
  const r = await complete(plain, cursor, context(engine));
  return {
    matches: r.matches,
    applied: r.matches.map(
      m => plain.slice(0, r.cursorStart) + m + plain.slice(r.cursorEnd)
    )
  };
}

test('the index or collection comes first, system indices only when asked for', async () => {
  expect((await at('%export |')).matches).toEqual(['prod-archive', 'products']);
  expect((await at('%export prod|')).applied).toEqual([
    '%export prod-archive',
    '%export products'
  ]);
  expect((await at('%export .s|')).matches).toEqual(['.security']);
  expect((await at('%export |', 'typesense')).matches).toEqual([
    'authors',
    'books'
  ]);
  expect((await at('  %export pr| out.jsonl')).applied).toEqual([
    '  %export prod-archive out.jsonl',
    '  %export products out.jsonl'
  ]);
});

test('the file name is not completed; after it the options, each once, slices= only for Elasticsearch', async () => {
  expect((await at('%export products |')).matches).toEqual([]);
  expect((await at('%export products out.jsonl |')).matches).toEqual([
    'format=',
    'fields=',
    'slices=',
    'overwrite'
  ]);
  expect((await at('%export books out.jsonl |', 'typesense')).matches).toEqual([
    'format=',
    'fields=',
    'overwrite'
  ]);
  expect(
    (await at('%export products "my file.csv" format=csv o|')).applied
  ).toEqual(['%export products "my file.csv" format=csv overwrite']);
  expect(
    (await at('%export products out.jsonl format=json overwrite |')).matches
  ).toEqual(['fields=', 'slices=']);
});

test("format= offers the formats; fields= the target's document fields (no multi-fields), after the last comma, without those already listed", async () => {
  expect((await at('%export products out format=|')).matches).toEqual([
    'format=jsonl',
    'format=csv',
    'format=json'
  ]);
  expect((await at('%export products out format=j|')).applied).toEqual([
    '%export products out format=jsonl',
    '%export products out format=json'
  ]);
  expect((await at('%export products out fields=|')).matches).toEqual([
    'name',
    'price',
    'tags'
  ]);
  expect((await at('%export products out fields=name,p|')).applied).toEqual([
    '%export products out fields=name,price'
  ]);
  expect(
    (await at('%export products out fields=price,|,tags overwrite')).matches
  ).toEqual(['name']);
  expect(
    (await at('%export books out fields=a|', 'typesense')).applied
  ).toEqual(['%export books out fields=author']);
});

test('a body line under %export and other magics are completed as before', async () => {
  expect((await at('%exp|')).matches).toEqual(['%export']);
  expect(
    (await at('%export products out.jsonl\n{"match": {"|')).matches
  ).toEqual([]);
});
