/** /config, /operations/vote, and the features the sandbox answers "not available" for. */
import { start, type Running } from './helpers';

describe('Typesense sandbox: /config, vote, features not imitated', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '30.0' });
    await t.call('POST', '/collections', {
      body: { name: 'c', fields: [{ name: 'x', type: 'string' }] }
    });
  });
  afterAll(() => t.close());

  test('POST /config: 201 {"success":true}; typed keys are checked with the engine texts', async () => {
    const ok = await t.call('POST', '/config', {
      body: {
        'log-slow-requests-time-ms': 2000,
        'cache-num-entries': 50,
        unknown: 1
      }
    });
    expect([ok.status, ok.text]).toEqual([201, '{"success":true}']);
    const bad = await t.call('POST', '/config', {
      body: { 'enable-search-logging': 'yes' }
    });
    expect([bad.status, bad.json()]).toEqual([
      400,
      { message: 'Configuration `enable-search-logging` must be a boolean.' }
    ]);
    const neg = await t.call('POST', '/config', {
      body: { 'cache-num-entries': -1 }
    });
    expect(neg.json()).toEqual({
      message: 'Configuration `cache-num-entries` must be a positive integer.'
    });
    const notInt = await t.call('POST', '/config', {
      body: { 'log-slow-searches-time-ms': 'x' }
    });
    expect(notInt.json()).toEqual({
      message: 'Configuration `log-slow-searches-time-ms` must be an integer.'
    });
    const noKey = await t.call('POST', '/config', { body: {}, key: null });
    expect(noKey.status).toBe(401);
  });

  test('GET /operations/schema_changes (28+): no alter in progress', async () => {
    const r = await t.call('GET', '/operations/schema_changes');
    expect([r.status, r.text]).toEqual([200, '[]']);
  });

  test('POST /operations/vote: 200 {"success":true}', async () => {
    const r = await t.call('POST', '/operations/vote');
    expect([r.status, r.text]).toEqual([200, '{"success":true}']);
  });

  test.each([
    ['GET', '/analytics/rules', 'Analytics (rules and events)'],
    ['POST', '/analytics/events', 'Analytics (rules and events)'],
    ['GET', '/stemming/dictionaries', 'Stemming dictionaries'],
    ['POST', '/stemming/dictionaries/import', 'Stemming dictionaries'],
    [
      'GET',
      '/conversations/models',
      'Conversations (conversational search models)'
    ],
    ['POST', '/nl_search_models', 'Natural language search (nl_search_models)']
  ])('%s %s answers 501 naming the feature', async (method, path, feature) => {
    const r = await t.call(method, path, { body: {} });
    expect([r.status, r.json()]).toEqual([
      501,
      {
        message: `${feature} are not available in the Typesense sandbox; use a real Typesense server for this feature.`
      }
    ]);
  });

  test('searches asking for conversation or nl_query answer 501 naming the feature', async () => {
    const conv = await t.call(
      'GET',
      '/collections/c/documents/search?q=a&query_by=x&conversation=true'
    );
    expect([conv.status, (conv.json() as { message: string }).message]).toEqual(
      [
        501,
        'Conversations (conversational search models) are not available in the Typesense sandbox; use a real Typesense server for this feature.'
      ]
    );
    const nl = await t.call('POST', '/multi_search', {
      body: {
        searches: [{ collection: 'c', q: 'a', query_by: 'x', nl_query: true }]
      }
    });
    expect(
      (nl.json() as { results: { code: number }[] }).results[0]?.code
    ).toBe(501);
  });
});
