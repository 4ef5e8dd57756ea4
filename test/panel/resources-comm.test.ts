/**
 * Typesense resources over the wire (kernel process, ZeroMQ, sandboxes imitating Typesense 29
 * and 30 over HTTP): aliases, synonym and curation sets with their items and the collections
 * that use them (30), each collection's synonyms and overrides (29), presets, stopwords and a
 * collection's schema; every change planned (nothing sent) before it is applied.
 */
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import { type PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

let kernel: KernelClient;
let comm: PanelCommClient;
const servers: Record<string, ListeningServer> = {};

const BOOKS = {
  name: 'books',
  fields: [
    { name: 'title', type: 'string', infix: true },
    { name: 'genre', type: 'string', facet: true, optional: true },
    { name: 'year', type: 'int32', sort: true },
    { name: 'author', type: 'object', optional: true },
    { name: 'author.name', type: 'string', optional: true }
  ],
  enable_nested_fields: true,
  default_sorting_field: 'year',
  token_separators: ['-'],
  symbols_to_index: ['+']
};

async function http(
  version: string,
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${servers[version]?.url}${path}`, {
    method,
    headers: {
      'x-typesense-api-key': SECRETS.TS_API_KEY,
      'content-type': 'application/json'
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  });
  return { status: r.status, json: await r.json() };
}

const conn = (version: string) => (version === '30.0' ? 'ts30' : 'ts29');

async function list(version: string, kind: string, parent?: string) {
  return (
    await comm.expect(
      {
        type: 'resourceList',
        connection: conn(version),
        target: { kind, ...(parent ? { parent } : {}) }
      },
      'resourceList'
    )
  ).entries;
}

async function change(
  version: string,
  op: 'put' | 'delete',
  kind: string,
  name: string,
  body?: unknown,
  parent?: string
) {
  const c = {
    target: { kind, ...(parent ? { parent } : {}) },
    op,
    name,
    ...(body !== undefined ? { body } : {})
  };
  const planned = await comm.expect(
    { type: 'resourcePlan', connection: conn(version), change: c },
    'resourcePlan'
  );
  const applied = await comm.expect(
    { type: 'resourceApply', connection: conn(version), change: c },
    'resourceApplied'
  );
  expect(applied.request).toEqual(planned.request);
  return planned.request;
}

beforeAll(async () => {
  for (const version of ['29.0', '30.0']) {
    const ts = createTypesenseSandbox({ version, apiKey: SECRETS.TS_API_KEY });
    servers[version] = await listen(ts.handler, { port: 0 });
    expect((await http(version, 'POST', '/collections', BOOKS)).status).toBe(
      201
    );
    ts.loadDocuments('books', [
      { id: '1', title: 'Wool sweater patterns', year: 2001, genre: 'craft' },
      { id: '2', title: 'Pullover knitting', year: 2003, genre: 'craft' }
    ]);
  }
  ({ kernel, comm } = await kernelWithPanelComm(
    [
      `%connect typesense ${servers['29.0']?.url} key=\${env:TS_API_KEY} name=ts29`,
      `%connect typesense ${servers['30.0']?.url} key=\${env:TS_API_KEY} name=ts30`
    ],
    SECRETS
  ));
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await Promise.all(Object.values(servers).map(s => s.close()));
});

test('each version offers its own kinds; what it lacks is disabled with the version that brings it', async () => {
  const kinds = async (c: string) =>
    (
      await comm.expect(
        { type: 'resourceKinds', connection: c },
        'resourceKinds'
      )
    ).kinds;
  const k29 = await kinds('ts29');
  const k30 = await kinds('ts30');
  const state = (ks: typeof k29, kind: string) =>
    ks.find(k => k.kind === kind)?.available;
  expect(state(k29, 'synonyms')).toBe(true);
  expect(state(k29, 'overrides')).toBe(true);
  expect(state(k29, 'synonymSets')).toBe(false);
  expect(k29.find(k => k.kind === 'curationSets')?.unavailableReason).toMatch(
    /Typesense 30/
  );
  expect(state(k30, 'synonymSets')).toBe(true);
  expect(state(k30, 'curationSets')).toBe(true);
  expect(state(k30, 'synonyms')).toBe(false);
  for (const ks of [k29, k30]) {
    expect(state(ks, 'aliases')).toBe(true);
    expect(state(ks, 'presets')).toBe(true);
    expect(state(ks, 'stopwords')).toBe(true);
  }
});

test.each(['29.0', '30.0'])(
  '%s: an alias is planned without sending, created, listed with its collection, searched through, repointed and deleted',
  async version => {
    const planned = await comm.expect(
      {
        type: 'resourcePlan',
        connection: conn(version),
        change: {
          target: { kind: 'aliases' },
          op: 'put',
          name: 'books_live',
          body: { collection_name: 'books' }
        }
      },
      'resourcePlan'
    );
    expect(planned.request).toEqual({
      method: 'PUT',
      path: '/aliases/books_live',
      body: { collection_name: 'books' }
    });
    expect((await http(version, 'GET', '/aliases')).json).toEqual({
      aliases: []
    });
    await change(version, 'put', 'aliases', 'books_live', {
      collection_name: 'books'
    });
    expect(await list(version, 'aliases')).toEqual([
      {
        name: 'books_live',
        value: { collection_name: 'books' },
        usedBy: ['books']
      }
    ]);
    const found = await http(
      version,
      'GET',
      '/collections/books_live/documents/search?q=*'
    );
    expect((found.json as { found: number }).found).toBe(2);
    await http(version, 'POST', '/collections', { ...BOOKS, name: 'books_v2' });
    await change(version, 'put', 'aliases', 'books_live', {
      collection_name: 'books_v2'
    });
    expect((await list(version, 'aliases'))[0]?.usedBy).toEqual(['books_v2']);
    const repointed = await http(
      version,
      'GET',
      '/collections/books_live/documents/search?q=*'
    );
    expect((repointed.json as { found: number }).found).toBe(0);
    expect(await change(version, 'delete', 'aliases', 'books_live')).toEqual({
      method: 'DELETE',
      path: '/aliases/books_live'
    });
    expect(await list(version, 'aliases')).toEqual([]);
  }
);

test('30: synonym and curation sets, their items and the collections that use them', async () => {
  await change('30.0', 'put', 'synonymSets', 'clothing', {
    items: [{ id: 'knit', synonyms: ['sweater', 'pullover'] }]
  });
  await http('30.0', 'PATCH', '/collections/books', {
    synonym_sets: ['clothing']
  });
  const sets = await list('30.0', 'synonymSets');
  expect(sets).toEqual([
    expect.objectContaining({ name: 'clothing', usedBy: ['books'] })
  ]);
  const { schema } = await comm.expect(
    { type: 'collectionSchema', connection: 'ts30', collection: 'books' },
    'collectionSchema'
  );
  expect(schema.synonymSets).toEqual(['clothing']);
  expect(schema.curationSets).toEqual([]);
  expect(await list('30.0', 'synonymSetItems', 'clothing')).toEqual([
    {
      name: 'knit',
      value: expect.objectContaining({ synonyms: ['sweater', 'pullover'] })
    }
  ]);
  const put = await change(
    '30.0',
    'put',
    'synonymSetItems',
    'wool',
    { synonyms: ['wool', 'fleece'] },
    'clothing'
  );
  expect(put).toMatchObject({
    method: 'PUT',
    path: '/synonym_sets/clothing/items/wool'
  });
  expect(
    (await list('30.0', 'synonymSetItems', 'clothing')).map(e => e.name).sort()
  ).toEqual(['knit', 'wool']);
  await change(
    '30.0',
    'delete',
    'synonymSetItems',
    'knit',
    undefined,
    'clothing'
  );
  expect(
    (await list('30.0', 'synonymSetItems', 'clothing')).map(e => e.name)
  ).toEqual(['wool']);

  await change('30.0', 'put', 'curationSets', 'promos', { items: [] });
  await change(
    '30.0',
    'put',
    'curationSetItems',
    'pin-pullover',
    {
      rule: { query: 'knitting', match: 'exact' },
      includes: [{ id: '2', position: 1 }]
    },
    'promos'
  );
  expect(await list('30.0', 'curationSetItems', 'promos')).toEqual([
    expect.objectContaining({
      name: 'pin-pullover',
      value: expect.objectContaining({ includes: [{ id: '2', position: 1 }] })
    })
  ]);
  expect(await list('30.0', 'curationSets')).toEqual([
    expect.objectContaining({ name: 'promos', usedBy: [] })
  ]);
  await change('30.0', 'delete', 'curationSets', 'promos');
  expect(await list('30.0', 'curationSets')).toEqual([]);
});

test('29: each collection’s synonyms and overrides; the 30 sets are refused before anything is sent', async () => {
  await change(
    '29.0',
    'put',
    'synonyms',
    'knit',
    { synonyms: ['sweater', 'pullover'] },
    'books'
  );
  expect(await list('29.0', 'synonyms', 'books')).toEqual([
    {
      name: 'knit',
      value: expect.objectContaining({ synonyms: ['sweater', 'pullover'] })
    }
  ]);
  await change(
    '29.0',
    'put',
    'overrides',
    'pin',
    {
      rule: { query: 'wool', match: 'exact' },
      includes: [{ id: '2', position: 1 }]
    },
    'books'
  );
  expect((await list('29.0', 'overrides', 'books')).map(e => e.name)).toEqual([
    'pin'
  ]);
  await change('29.0', 'delete', 'overrides', 'pin', undefined, 'books');
  expect(await list('29.0', 'overrides', 'books')).toEqual([]);
  const refused = await comm.call({
    type: 'resourcePlan',
    connection: 'ts29',
    change: {
      target: { kind: 'synonymSets' },
      op: 'put',
      name: 'x',
      body: { items: [] }
    }
  });
  expect(refused).toMatchObject({
    type: 'error',
    message: expect.stringContaining('Typesense 30')
  });
  const notJson = await comm.call({
    type: 'resourcePlan',
    connection: 'ts29',
    change: { target: { kind: 'presets' }, op: 'put', name: 'p', body: [1] }
  });
  expect(notJson).toMatchObject({
    type: 'error',
    message: expect.stringContaining('JSON object')
  });
});

test.each(['29.0', '30.0'])(
  '%s: presets and stopwords are added, listed, edited and deleted',
  async version => {
    await change(version, 'put', 'presets', 'recent', {
      value: { query_by: 'title', sort_by: 'year:desc' }
    });
    await change(version, 'put', 'presets', 'recent', {
      value: { query_by: 'title', sort_by: 'year:asc' }
    });
    expect(await list(version, 'presets')).toEqual([
      {
        name: 'recent',
        value: { value: { query_by: 'title', sort_by: 'year:asc' } }
      }
    ]);
    await change(version, 'put', 'stopwords', 'common', {
      stopwords: ['the', 'of'],
      locale: 'en'
    });
    const [common] = await list(version, 'stopwords');
    expect(common?.name).toBe('common');
    expect(common?.value).toMatchObject({ locale: 'en' });
    await change(version, 'delete', 'presets', 'recent');
    await change(version, 'delete', 'stopwords', 'common');
    expect(await list(version, 'presets')).toEqual([]);
    expect(await list(version, 'stopwords')).toEqual([]);
  }
);

test.each(['29.0', '30.0'])(
  '%s: a collection’s schema, read-only, with the cell that adds a field',
  async version => {
    const { schema } = await comm.expect(
      {
        type: 'collectionSchema',
        connection: conn(version),
        collection: 'books'
      },
      'collectionSchema'
    );
    expect(schema).toMatchObject({
      name: 'books',
      defaultSortingField: 'year',
      tokenSeparators: ['-'],
      symbolsToIndex: ['+'],
      enableNestedFields: true
    });
    const field = (n: string) => schema.fields.find(f => f.name === n);
    expect(field('title')).toMatchObject({ type: 'string', infix: true });
    expect(field('genre')).toMatchObject({ facet: true, optional: true });
    expect(field('year')).toMatchObject({ type: 'int32', sort: true });
    expect(field('author.name')).toMatchObject({ nested: true });
    expect(schema.addFieldCell.split('\n')[0]).toBe('PATCH /collections/books');
    if (version === '29.0') {
      // Sets come with 30: a 29 schema names none, and the view says nothing of them.
      expect(schema.synonymSets).toBeUndefined();
      expect(schema.curationSets).toBeUndefined();
    }
  }
);

test.each(['29.0', '30.0'])(
  '%s: a schema view says which fields are vectors (num_dim, vec_dist, hnsw_params) and what auto-embeds them, never a credential',
  async version => {
    const created = await http(version, 'POST', '/collections', {
      name: 'passages',
      fields: [
        { name: 'text', type: 'string' },
        { name: 'vec', type: 'float[]', num_dim: 4, vec_dist: 'ip' },
        {
          name: 'text_embedding',
          type: 'float[]',
          embed: {
            from: ['text'],
            model_config: {
              model_name: 'openai/text-embedding-3-small',
              api_key: 'sk-embedding-secret'
            }
          }
        }
      ]
    });
    expect(created.status).toBe(201);
    const { schema } = await comm.expect(
      {
        type: 'collectionSchema',
        connection: conn(version),
        collection: 'passages'
      },
      'collectionSchema'
    );
    const field = (n: string) => schema.fields.find(f => f.name === n);
    expect(field('vec')).toMatchObject({
      type: 'float[]',
      vector: {
        numDim: 4,
        vecDist: 'ip',
        hnswParams: { M: 16, ef_construction: 200 }
      }
    });
    expect(field('text_embedding')).toMatchObject({
      vector: { numDim: 1536, vecDist: 'cosine' },
      embed: { from: ['text'], modelName: 'openai/text-embedding-3-small' }
    });
    expect(field('text')?.vector).toBeUndefined();
    expect(field('text')?.embed).toBeUndefined();
    expect(JSON.stringify(schema)).not.toContain('sk-em');
    await http(version, 'DELETE', '/collections/passages');
  }
);

async function refusal(
  version: string,
  kind: string,
  body: unknown,
  parent?: string
) {
  const reply = await comm.call({
    type: 'resourcePlan',
    connection: conn(version),
    change: {
      target: { kind, ...(parent ? { parent } : {}) },
      op: 'put',
      name: 'mistyped',
      body
    }
  });
  expect(reply).toMatchObject({ type: 'error' });
  const applied = await comm.call({
    type: 'resourceApply',
    connection: conn(version),
    change: {
      target: { kind, ...(parent ? { parent } : {}) },
      op: 'put',
      name: 'mistyped',
      body
    }
  });
  expect(applied).toMatchObject({ type: 'error' });
  return (reply as { message: string }).message;
}

test('30: set items of the wrong shape are refused naming the key to fix and what to write, and nothing reaches the server', async () => {
  const kinds = (
    await comm.expect(
      { type: 'resourceKinds', connection: 'ts30' },
      'resourceKinds'
    )
  ).kinds;
  expect(kinds.find(k => k.kind === 'synonymSets')?.items).toBe(
    'synonymSetItems'
  );
  expect(kinds.find(k => k.kind === 'curationSets')?.items).toBe(
    'curationSetItems'
  );
  await change('30.0', 'put', 'synonymSets', 'shapes', { items: [] });
  await change('30.0', 'put', 'curationSets', 'shapes', { items: [] });

  expect(
    await refusal('30.0', 'synonymSetItems', { synonym: ['a', 'b'] }, 'shapes')
  ).toMatch(/^"synonyms": write a list of words.*For example \{"synonyms"/);
  expect(
    await refusal(
      '30.0',
      'synonymSetItems',
      { synonyms: ['a', 'b'], root: 3 },
      'shapes'
    )
  ).toMatch(/^"root": .*Nothing was sent\.$/);
  expect(
    await refusal(
      '30.0',
      'curationSetItems',
      { rule: { query: 'apple' }, includes: [{ id: '1', position: 1 }] },
      'shapes'
    )
  ).toMatch(/^"rule": give the rule a "query" with "match"/);
  expect(
    await refusal(
      '30.0',
      'curationSetItems',
      {
        rule: { query: 'apple', match: 'exact' },
        includes: [{ id: '1', position: 0 }]
      },
      'shapes'
    )
  ).toMatch(/^"includes\[0\]\.position": positions start at 1/);
  expect(
    await refusal(
      '30.0',
      'curationSetItems',
      { rule: { query: 'apple', match: 'exact' } },
      'shapes'
    )
  ).toMatch(/say what the rule does: "includes", "excludes"/);
  expect(
    await refusal('30.0', 'synonymSets', {
      items: [{ synonyms: ['a', 'b'] }]
    })
  ).toMatch(/^"items\[0\]\.id": give each item an "id"/);

  expect(
    (await http('30.0', 'GET', '/synonym_sets/shapes/items')).json
  ).toEqual([]);
  expect(
    (await http('30.0', 'GET', '/curation_sets/shapes/items')).json
  ).toEqual([]);
  expect(
    (await list('30.0', 'synonymSets')).find(s => s.name === 'shapes')?.value
  ).toEqual({ items: [] });
  await change('30.0', 'delete', 'synonymSets', 'shapes');
  await change('30.0', 'delete', 'curationSets', 'shapes');
});

test('29: a collection’s synonyms and overrides of the wrong shape are refused the same way, and nothing reaches the server', async () => {
  expect(
    await refusal(
      '29.0',
      'synonyms',
      { synonyms: 'sweater, pullover' },
      'books'
    )
  ).toMatch(/^"synonyms": write a list of words, as in \["blazer", "coat"\]/);
  expect(
    await refusal(
      '29.0',
      'overrides',
      { rule: { query: 'wool', match: 'fuzzy' }, excludes: [{ id: '1' }] },
      'books'
    )
  ).toMatch(/^"rule\.match": write "exact" or "contains"/);
  expect(
    await refusal(
      '29.0',
      'overrides',
      {
        rule: { query: 'wool', match: 'exact' },
        replace_query: 'fleece',
        remove_matched_tokens: true
      },
      'books'
    )
  ).toMatch(/either "replace_query" or "remove_matched_tokens"/);
  expect(await refusal('29.0', 'stopwords', { stopwords: [] })).toMatch(
    /^"stopwords": write at least one stopword/
  );
  expect(await refusal('29.0', 'aliases', { collection: 'books' })).toMatch(
    /^"collection_name": write the name of the collection/
  );
  for (const path of [
    '/collections/books/synonyms',
    '/collections/books/overrides',
    '/stopwords',
    '/aliases'
  ]) {
    const { status, json } = await http('29.0', 'GET', path);
    expect(status).toBe(200);
    expect(JSON.stringify(json)).not.toContain('mistyped');
  }
  expect(
    (await http('29.0', 'GET', '/collections/books/synonyms/mistyped')).status
  ).toBe(404);
});
