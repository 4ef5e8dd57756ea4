/** Curation in each version's shape (overrides up to 29, curation sets in 30), and in search. */
import { start, type Running } from './helpers';

const SCHEMA = {
  name: 'shop',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'brand', type: 'string', facet: true },
    { name: 'price', type: 'int32' }
  ]
};
const DOCS = [
  { id: 'a', title: 'apple phone', brand: 'apple', price: 900 },
  { id: 'b', title: 'budget phone', brand: 'nokia', price: 100 },
  { id: 'c', title: 'phone case', brand: 'acme', price: 10 },
  { id: 'd', title: 'desk lamp', brand: 'acme', price: 30 }
];
const PIN_LAMP = {
  rule: { query: 'phone', match: 'exact' },
  includes: [{ id: 'd', position: 1 }],
  excludes: [{ id: 'c' }]
};
const PIN_VIEW = {
  excludes: [{ id: 'c' }],
  filter_curated_hits: false,
  id: 'pin-lamp',
  includes: [{ id: 'd', position: 1 }],
  remove_matched_tokens: false,
  rule: { match: 'exact', query: 'phone' },
  stop_processing: true
};

async function search(
  t: Running,
  qs: string
): Promise<
  Record<string, unknown> & {
    hits: { document: { id: string }; curated?: boolean }[];
  }
> {
  const r = await t.call(
    'GET',
    `/collections/shop/documents/search?query_by=title&${qs}`
  );
  expect(r.status).toBe(200);
  return r.json() as Record<string, unknown> & {
    hits: { document: { id: string }; curated?: boolean }[];
  };
}
const idsOf = (b: { hits: { document: { id: string } }[] }): string[] =>
  b.hits.map(h => h.document.id);

describe.each(['26.0', '29.0'])('Typesense sandbox %s: overrides', version => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version });
    await t.call('POST', '/collections', { body: SCHEMA });
    t.sandbox.loadDocuments('shop', DOCS);
  });
  afterAll(() => t.close());

  test('PUT echoes the body with its id; GET answers the stored view with defaults', async () => {
    const put = await t.call('PUT', '/collections/shop/overrides/pin-lamp', {
      body: PIN_LAMP
    });
    expect(put.status).toBe(200);
    expect(put.json()).toEqual({ ...PIN_LAMP, id: 'pin-lamp' });
    expect(
      (await t.call('GET', '/collections/shop/overrides/pin-lamp')).json()
    ).toEqual(PIN_VIEW);
    expect((await t.call('GET', '/collections/shop/overrides')).json()).toEqual(
      { overrides: [PIN_VIEW] }
    );
  });

  test('an exact rule pins and hides; other queries are untouched', async () => {
    const hit = await search(t, 'q=phone');
    expect(idsOf(hit)).toEqual(['d', 'b', 'a']);
    expect(hit.hits[0]?.curated).toBe(true);
    expect(hit.found).toBe(3);
    expect(idsOf(await search(t, 'q=phone case'))).toEqual(['c']);
    expect(
      idsOf(await search(t, 'q=phone&enable_overrides=false')).sort()
    ).toEqual(['a', 'b', 'c']);
  });

  test('a contains rule with filter_by and metadata; remove_matched_tokens defaults on with filter_by', async () => {
    await t.call('PUT', '/collections/shop/overrides/cheap', {
      body: {
        rule: { query: 'cheap', match: 'contains' },
        filter_by: 'price:<200',
        metadata: { banner: 'deals' }
      }
    });
    const r = await search(t, 'q=cheap phone');
    expect(idsOf(r).sort()).toEqual(['b', 'c']);
    expect(r.metadata).toEqual({ banner: 'deals' });
    expect(
      (await t.call('GET', '/collections/shop/overrides/cheap')).json()
    ).toMatchObject({ remove_matched_tokens: true, filter_by: 'price:<200' });
  });

  test('request pinned_hits and hidden_hits', async () => {
    const r = await search(t, 'q=lamp&pinned_hits=a:1&hidden_hits=d');
    expect(idsOf(r)).toEqual(['a']);
  });

  test('refusals and DELETE', async () => {
    const noRule = await t.call('PUT', '/collections/shop/overrides/x', {
      body: { includes: [] }
    });
    expect([noRule.status, noRule.json()]).toEqual([
      400,
      { message: 'Missing `rule` definition.' }
    ]);
    const noAction = await t.call('PUT', '/collections/shop/overrides/x', {
      body: { rule: { query: 'a', match: 'exact' } }
    });
    expect(noAction.json()).toEqual({
      message:
        'Must contain one of: `includes`, `excludes`, `metadata`, `filter_by`, `sort_by`, `remove_matched_tokens`, `replace_query`.'
    });
    const badPos = await t.call('PUT', '/collections/shop/overrides/x', {
      body: { rule: { tags: ['t'] }, includes: [{ id: 'a' }] }
    });
    expect(badPos.json()).toEqual({
      message: 'Inclusion definition must define both `id` and `position` keys.'
    });
    const missing = await t.call('GET', '/collections/shop/overrides/zz');
    expect([missing.status, missing.json()]).toEqual([
      404,
      { message: 'override zz not found.' }
    ]);
    const del = await t.call('DELETE', '/collections/shop/overrides/pin-lamp');
    expect([del.status, del.text]).toEqual([200, '{"id":"pin-lamp"}']);
    const again = await t.call(
      'DELETE',
      '/collections/shop/overrides/pin-lamp'
    );
    expect([again.status, again.json()]).toEqual([
      404,
      { message: 'Could not find that `id`.' }
    ]);
    expect(idsOf(await search(t, 'q=phone')).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('Typesense sandbox 30.0: curation sets', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '30.0' });
  });
  afterAll(() => t.close());

  test('PUT a set answers its view; a collection may name it once it exists; list and get', async () => {
    const early = await t.call('POST', '/collections', {
      body: { ...SCHEMA, curation_sets: ['merch'] }
    });
    expect([early.status, early.json()]).toEqual([
      404,
      { message: 'Curation set `merch` not found.' }
    ]);
    const put = await t.call('PUT', '/curation_sets/merch', {
      body: { items: [{ ...PIN_LAMP, id: 'pin-lamp' }] }
    });
    expect([put.status, put.json()]).toEqual([
      200,
      { items: [PIN_VIEW], name: 'merch' }
    ]);
    expect(
      (
        await t.call('POST', '/collections', {
          body: { ...SCHEMA, curation_sets: ['merch'] }
        })
      ).status
    ).toBe(201);
    t.sandbox.loadDocuments('shop', DOCS);
    expect((await t.call('GET', '/curation_sets')).json()).toEqual([
      { items: [PIN_VIEW], name: 'merch' }
    ]);
    expect((await t.call('GET', '/collections/shop')).json()).toMatchObject({
      curation_sets: ['merch']
    });
  });

  test('the set named by the collection curates its searches', async () => {
    const r = await search(t, 'q=phone');
    expect(idsOf(r)).toEqual(['d', 'b', 'a']);
  });

  test('items: PUT echoes, GET, DELETE; tags rules fire only with override_tags', async () => {
    const put = await t.call('PUT', '/curation_sets/merch/items/promo', {
      body: { rule: { tags: ['promo'] }, includes: [{ id: 'c', position: 1 }] }
    });
    expect([put.status, put.json()]).toEqual([
      200,
      {
        id: 'promo',
        includes: [{ id: 'c', position: 1 }],
        rule: { tags: ['promo'] }
      }
    ]);
    expect(idsOf(await search(t, 'q=lamp&override_tags=promo'))).toEqual([
      'c',
      'd'
    ]);
    expect(idsOf(await search(t, 'q=lamp&override_tags=other,promo'))).toEqual([
      'c',
      'd'
    ]);
    expect(idsOf(await search(t, 'q=lamp'))).toEqual(['d']);
    expect(
      (await t.call('GET', '/curation_sets/merch/items/promo')).json()
    ).toMatchObject({ id: 'promo', rule: { tags: ['promo'] } });
    const del = await t.call('DELETE', '/curation_sets/merch/items/promo');
    expect([del.status, del.text]).toEqual([200, '{"id":"promo"}']);
    const miss = await t.call('GET', '/curation_sets/merch/items/promo');
    expect([miss.status, miss.json()]).toEqual([404, { message: 'Not Found' }]);
  });

  test('refusals; DELETE the set; per-collection overrides are gone in 30', async () => {
    const noId = await t.call('PUT', '/curation_sets/x', {
      body: { items: [PIN_LAMP] }
    });
    expect([noId.status, noId.json()]).toEqual([
      400,
      { message: 'Curation `id` not provided.' }
    ]);
    const unknown = await t.call('GET', '/curation_sets/ghost');
    expect([unknown.status, unknown.json()]).toEqual([
      404,
      { message: 'Curation index not found' }
    ]);
    const del = await t.call('DELETE', '/curation_sets/merch');
    expect([del.status, del.text]).toEqual([200, '{"name":"merch"}']);
    expect(idsOf(await search(t, 'q=phone')).sort()).toEqual(['a', 'b', 'c']);
    const old = await t.call('GET', '/collections/shop/overrides');
    expect([old.status, old.text]).toEqual([404, '{ "message": "Not Found"}']);
  });
});
