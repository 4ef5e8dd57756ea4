/**
 * Elasticsearch keeps a document's source as the bytes the client sent, blanks and line breaks
 * included, and answers a get, a `_source`, an mget and a search hit with those bytes; an
 * update writes the merged source afresh, and a pretty answer indents from the values. The
 * stand-in does the same, so clients meet sources written by other tools as they would on a
 * real node (a real 8.19 node answered these requests with exactly these bytes).
 */
import { call, start, type Running } from './helpers';

const PRETTY = '  {\n  "a" : 1,\n  "b": "x"\n}\n\n';
const SPACED = '{"a" :  2 }';

let es: Running;

beforeAll(async () => {
  es = await start({ version: '8.19.0', security: false });
  const put = await call(es, 'PUT', '/sent/_doc/1?refresh=true', PRETTY, {
    'content-type': 'application/json'
  });
  expect(put.status).toBe(201);
  const bulk = await call(
    es,
    'POST',
    '/_bulk?refresh=true',
    `{"index":{"_index":"sent","_id":"2"}}\n${SPACED}\n`
  );
  expect(bulk.body.errors).toBe(false);
});

afterAll(async () => {
  await es.close();
});

it('answers a get, a _source and an mget with the source as it was sent', async () => {
  const one = await call(es, 'GET', '/sent/_doc/1');
  expect(one.text).toBe(
    `{"_index":"sent","_id":"1","_version":1,"_seq_no":0,"_primary_term":1,"found":true,"_source":${PRETTY}}`
  );
  expect((await call(es, 'GET', '/sent/_source/1')).text).toBe(PRETTY);
  const many = await call(es, 'POST', '/_mget', {
    docs: [{ _index: 'sent', _id: '2' }]
  });
  expect(many.text).toContain(`"found":true,"_source":${SPACED}}`);
});

it('carries the sent text in search hits, and indents pretty answers from the values', async () => {
  const hits = await call(es, 'POST', '/sent/_search', { sort: ['_doc'] });
  expect(hits.text).toContain(`"_source":${PRETTY}`);
  expect(hits.text).toContain(`"_source":${SPACED}`);
  const pretty = await call(es, 'POST', '/sent/_search?pretty', {
    sort: ['_doc']
  });
  expect(pretty.body.hits.hits[0]._source).toEqual({ a: 1, b: 'x' });
  expect(pretty.text).not.toContain(PRETTY);
});

it('writes an updated source afresh, and a filtered one from its values', async () => {
  const filtered = await call(es, 'GET', '/sent/_doc/1?_source_includes=b');
  expect(filtered.text).toContain('"_source":{"b":"x"}');
  await call(es, 'POST', '/sent/_update/1?refresh=true', { doc: { c: true } });
  const updated = await call(es, 'GET', '/sent/_source/1');
  expect(updated.text).toBe('{"a":1,"b":"x","c":true}');
});
