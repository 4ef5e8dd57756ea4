/**
 * What Elasticsearch 8 answers (root and product header, security errors, not found and
 * validation, point in time, documents and indices, search responses) against the 8.15
 * stand-in over real sockets.
 */
import { call, ndjson, start, BASIC, type Running } from './helpers';

let es: Running;
beforeAll(async () => {
  es = await start({ version: '8.15.0', security: true });
  await call(es, 'PUT', '/items', {
    mappings: {
      properties: {
        name: {
          type: 'text',
          fields: { keyword: { type: 'keyword', ignore_above: 256 } }
        },
        price: { type: 'float' },
        parts: { type: 'nested' }
      }
    }
  });
  const lines: unknown[] = [];
  for (let i = 1; i <= 30; i++) {
    lines.push({ index: { _index: 'items', _id: String(i) } });
    lines.push({
      name: i % 2 ? `Red Widget ${i}` : `Blue Gadget ${i}`,
      price: i,
      parts: [
        { color: 'red', size: i },
        { color: 'blue', size: i + 100 }
      ]
    });
  }
  const res = await call(es, 'POST', '/_bulk?refresh=true', ndjson(lines));
  expect(res.body.errors).toBe(false);
});
afterAll(async () => es.close());

const WWW = [
  'Basic realm="security", charset="UTF-8"',
  'Bearer realm="security"',
  'ApiKey'
];

describe('root and product header', () => {
  it('GET / answers name, cluster_name, version and the tagline, with X-elastic-product', async () => {
    const res = await call(es, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
    expect(Object.keys(res.body)).toEqual([
      'name',
      'cluster_name',
      'cluster_uuid',
      'version',
      'tagline'
    ]);
    expect(Object.keys(res.body.version)).toEqual([
      'number',
      'build_flavor',
      'build_type',
      'build_hash',
      'build_date',
      'build_snapshot',
      'lucene_version',
      'minimum_wire_compatibility_version',
      'minimum_index_compatibility_version'
    ]);
    expect(res.body.version.number).toBe('8.15.0');
    expect(res.body.version.build_flavor).toBe('default');
    expect(res.body.tagline).toBe('You Know, for Search');
  });

  it('sends the product header on errors too', async () => {
    const res = await call(es, 'GET', '/missing-index/_search');
    expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
  });
});

describe('security errors', () => {
  it('401 without credentials quotes path and query, with the 8.15 WWW-Authenticate values', async () => {
    const res = await call(es, 'GET', '/items/_search?size=1', undefined, {
      'x-no-auth': '1'
    });
    expect(res.status).toBe(401);
    const cause = {
      type: 'security_exception',
      reason:
        'missing authentication credentials for REST request [/items/_search?size=1]',
      header: { 'WWW-Authenticate': WWW }
    };
    expect(res.body).toEqual({
      error: { root_cause: [cause], ...cause },
      status: 401
    });
    expect(res.headers['www-authenticate']).toEqual(WWW);
  });

  it('401 for a wrong password names the user', async () => {
    const res = await call(es, 'GET', '/', undefined, {
      authorization: 'Basic ' + Buffer.from('elastic:nope').toString('base64')
    });
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('security_exception');
    expect(res.body.error.reason).toBe(
      'unable to authenticate user [elastic] for REST request [/]'
    );
  });

  it('401 for an unknown API key', async () => {
    const res = await call(es, 'GET', '/', undefined, {
      authorization: 'ApiKey ' + Buffer.from('abc:def').toString('base64')
    });
    expect(res.status).toBe(401);
    expect(res.body.error.reason).toBe(
      'unable to authenticate with provided credentials and anonymous access is not allowed for this request'
    );
  });

  it('creates API keys (id, name, api_key, encoded) that authenticate with ApiKey <encoded>', async () => {
    const created = await call(es, 'POST', '/_security/api_key', {
      name: 'all-access'
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual([
      'id',
      'name',
      'api_key',
      'encoded'
    ]);
    expect(Buffer.from(created.body.encoded, 'base64').toString()).toBe(
      `${created.body.id}:${created.body.api_key}`
    );
    const res = await call(es, 'GET', '/items/_count', undefined, {
      authorization: `ApiKey ${created.body.encoded}`
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(30);
  });

  it('a key limited to some indices gets 403 elsewhere, without WWW-Authenticate', async () => {
    await call(es, 'PUT', '/secret', {});
    const created = await call(es, 'POST', '/_security/api_key', {
      name: 'items-reader',
      role_descriptors: {
        reader: {
          cluster: ['monitor'],
          indices: [{ names: ['items'], privileges: ['read'] }]
        }
      }
    });
    const auth = { authorization: `ApiKey ${created.body.encoded}` };
    expect(
      (await call(es, 'GET', '/items/_search', undefined, auth)).status
    ).toBe(200);
    const res = await call(es, 'GET', '/secret/_search', undefined, auth);
    expect(res.status).toBe(403);
    const reason = `action [indices:data/read/search] is unauthorized for API key id [${created.body.id}] of user [elastic] on indices [secret], this action is granted by the index privileges [read,all]`;
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'security_exception', reason }],
        type: 'security_exception',
        reason
      },
      status: 403
    });
    expect(res.headers['www-authenticate']).toBeUndefined();
    const write = await call(es, 'PUT', '/items/_doc/x', { name: 'x' }, auth);
    expect(write.status).toBe(403);
    expect(write.body.error.reason).toContain(
      'action [indices:data/write/index] is unauthorized'
    );
  });
});

describe('not found and validation', () => {
  it('missing index: 404 index_not_found_exception', async () => {
    const res = await call(es, 'GET', '/nope/_search');
    const cause = {
      type: 'index_not_found_exception',
      reason: 'no such index [nope]',
      'resource.type': 'index_or_alias',
      'resource.id': 'nope',
      index_uuid: '_na_',
      index: 'nope'
    };
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { root_cause: [cause], ...cause },
      status: 404
    });
  });

  it('missing document: 404 found:false (no _type in 8.x)', async () => {
    const res = await call(es, 'GET', '/items/_doc/999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ _index: 'items', _id: '999', found: false });
  });

  it('deleting a missing document: 404 result not_found', async () => {
    const res = await call(es, 'DELETE', '/items/_doc/999');
    expect(res.status).toBe(404);
    expect(res.body.result).toBe('not_found');
  });

  it('updating a missing document: 404 document_missing_exception "[id]: document missing"', async () => {
    const res = await call(es, 'POST', '/items/_update/999', { doc: { a: 1 } });
    expect(res.status).toBe(404);
    expect(res.body.error.root_cause[0]).toEqual({
      type: 'document_missing_exception',
      reason: '[999]: document missing',
      index_uuid: expect.any(String),
      shard: '0',
      index: 'items'
    });
  });

  it('updating a missing document with if_seq_no: still 404 document_missing_exception (read before the versions are compared, as 8.19.21 answers)', async () => {
    const res = await call(
      es,
      'POST',
      '/items/_update/999?if_seq_no=1&if_primary_term=1',
      { doc: { a: 1 } }
    );
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('document_missing_exception');
  });

  it('an update\'s refused value is placed in the merged document (8.19.21: [1:15] for {"n":5,"host":...}); an ip that is not one is refused', async () => {
    await call(es, 'PUT', '/hosts', {
      mappings: { properties: { host: { type: 'ip' }, n: { type: 'integer' } } }
    });
    await call(es, 'PUT', '/hosts/_doc/1?refresh=true', { n: 5 });
    const res = await call(es, 'POST', '/hosts/_update/1', {
      doc: { host: 'not-an-ip' }
    });
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(
      "[1:15] failed to parse field [host] of type [ip] in document with id '1'. Preview of field's value: 'not-an-ip'"
    );
    expect(res.body.error.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: "'not-an-ip' is not an IP string literal."
    });
  });

  it('_update with _source=true answers the stored document in `get`, a noop too (as 8.19.21 does)', async () => {
    await call(es, 'PUT', '/hosts/_doc/2?refresh=true', {
      n: 1,
      host: '10.0.0.1'
    });
    const updated = await call(
      es,
      'POST',
      '/hosts/_update/2?refresh=wait_for&_source=true',
      { doc: { n: 2 } }
    );
    expect(updated.body.get).toEqual({
      _seq_no: updated.body._seq_no,
      _primary_term: 1,
      found: true,
      _source: { n: 2, host: '10.0.0.1' }
    });
    const noop = await call(es, 'POST', '/hosts/_update/2?_source=true', {
      doc: { n: 2 }
    });
    expect(noop.body.result).toBe('noop');
    expect(noop.body.get._source).toEqual({ n: 2, host: '10.0.0.1' });
    expect(
      (await call(es, 'POST', '/hosts/_update/2', { doc: { n: 3 } })).body.get
    ).toBeUndefined();
  });

  it('result window: 400 search_phase_execution_exception with the illegal_argument root cause', async () => {
    const res = await call(es, 'POST', '/items/_search', {
      from: 10000,
      size: 1
    });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause).toEqual([
      {
        type: 'illegal_argument_exception',
        reason:
          'Result window is too large, from + size must be less than or equal to: [10000] but was [10001]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.'
      }
    ]);
  });

  it('the window follows index.max_result_window', async () => {
    expect(
      (
        await call(es, 'PUT', '/items/_settings', {
          index: { max_result_window: 20 }
        })
      ).body
    ).toEqual({ acknowledged: true });
    const res = await call(es, 'POST', '/items/_search', {
      from: 15,
      size: 10
    });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].reason).toContain(
      'must be less than or equal to: [20] but was [25]'
    );
    await call(es, 'PUT', '/items/_settings', {
      index: { max_result_window: 10000 }
    });
    expect(
      (await call(es, 'GET', '/items/_settings')).body.items.settings.index
        .max_result_window
    ).toBe('10000');
  });

  it('sorting on a text field: 400 with the 8.5+ "Fielddata is disabled" prefix', async () => {
    const res = await call(es, 'POST', '/items/_search', {
      sort: [{ name: 'asc' }]
    });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toBe(
      'illegal_argument_exception'
    );
    expect(res.body.error.root_cause[0].reason).toBe(
      'Fielddata is disabled on [name] in [items]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [name] in order to load field data by uninverting the inverted index. Note that this can use significant memory.'
    );
  });

  it('sorting on _id: 400 in 8.x', async () => {
    const res = await call(es, 'POST', '/items/_search', { sort: ['_id'] });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason:
        'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled'
    });
  });
});

describe('point in time', () => {
  it('pages through a PIT with _shard_doc and search_after, then closes it', async () => {
    const opened = await call(es, 'POST', '/items/_pit?keep_alive=1m');
    expect(opened.status).toBe(200);
    expect(Object.keys(opened.body)).toEqual(['id']);
    // Writes after opening stay invisible to the PIT.
    await call(es, 'PUT', '/items/_doc/late?refresh=true', {
      name: 'late',
      price: 1
    });
    const seen: string[] = [];
    let after: unknown[] | undefined;
    let pitId = opened.body.id as string;
    for (let page = 0; page < 10; page++) {
      const res = await call(es, 'POST', '/_search', {
        size: 7,
        pit: { id: pitId, keep_alive: '1m' },
        sort: [{ price: 'asc' }, { _shard_doc: 'asc' }],
        ...(after ? { search_after: after } : {})
      });
      expect(res.status).toBe(200);
      pitId = res.body.pit_id;
      const hits = res.body.hits.hits as { _id: string; sort: unknown[] }[];
      if (hits.length === 0) {
        break;
      }
      seen.push(...hits.map(h => h._id));
      after = hits[hits.length - 1]?.sort;
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
    const closed = await call(es, 'DELETE', '/_pit', { id: pitId });
    expect(closed.body).toEqual({ succeeded: true, num_freed: 1 });
    const again = await call(es, 'DELETE', '/_pit', { id: pitId });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ succeeded: true, num_freed: 0 });
    await call(es, 'DELETE', '/items/_doc/late?refresh=true');
  });

  it('an index in the path with a pit: 400 action_request_validation_exception', async () => {
    const opened = await call(es, 'POST', '/items/_pit?keep_alive=1m');
    const res = await call(es, 'POST', '/items/_search', {
      pit: { id: opened.body.id }
    });
    expect(res.status).toBe(400);
    const reason =
      'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;';
    expect(res.body).toEqual({
      error: {
        root_cause: [{ type: 'action_request_validation_exception', reason }],
        type: 'action_request_validation_exception',
        reason
      },
      status: 400
    });
  });

  it('_shard_doc without a pit: 400', async () => {
    const res = await call(es, 'POST', '/items/_search', {
      sort: ['_shard_doc']
    });
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(
      'Validation Failed: 1: [_shard_doc] sort field cannot be used without [point in time];'
    );
  });

  it('keep_alive is required', async () => {
    const res = await call(es, 'POST', '/items/_pit');
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(
      'Validation Failed: 1: [keep_alive] is not specified;'
    );
  });

  it('an expired PIT: 404 search_context_missing_exception', async () => {
    const opened = await call(es, 'POST', '/items/_pit?keep_alive=50ms');
    await new Promise(r => setTimeout(r, 120));
    const res = await call(es, 'POST', '/_search', {
      pit: { id: opened.body.id }
    });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause[0].type).toBe(
      'search_context_missing_exception'
    );
    expect(res.body.error.root_cause[0].reason).toMatch(
      /^No search context found for id \[\d+\]$/
    );
  });
});

describe('documents and indices', () => {
  it('PUT creates (201) then updates (200) with the write body shape', async () => {
    const created = await call(es, 'PUT', '/docs/_doc/1', { title: 'one' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _index: 'docs',
      _id: '1',
      _version: 1,
      result: 'created',
      _shards: { total: 2, successful: 1, failed: 0 },
      _seq_no: 0,
      _primary_term: 1
    });
    const updated = await call(es, 'PUT', '/docs/_doc/1', { title: 'uno' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      _version: 2,
      result: 'updated',
      _seq_no: 1
    });
    const generated = await call(es, 'POST', '/docs/_doc', { title: 'auto' });
    expect(generated.status).toBe(201);
    expect(generated.body._id).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('_update with doc: updated, then noop for the same change', async () => {
    await call(es, 'PUT', '/docs/_doc/2', { title: 'two', n: 1 });
    const first = await call(es, 'POST', '/docs/_update/2', { doc: { n: 2 } });
    expect(first.body.result).toBe('updated');
    const second = await call(es, 'POST', '/docs/_update/2', { doc: { n: 2 } });
    expect(second.body.result).toBe('noop');
    expect(second.body._version).toBe(first.body._version);
    expect((await call(es, 'GET', '/docs/_doc/2')).body._source).toEqual({
      title: 'two',
      n: 2
    });
  });

  it('DELETE doc: deleted; DELETE index: acknowledged', async () => {
    expect((await call(es, 'DELETE', '/docs/_doc/1')).body.result).toBe(
      'deleted'
    );
    expect((await call(es, 'DELETE', '/docs')).body).toEqual({
      acknowledged: true
    });
  });

  it('refresh=true makes a write visible to the next search; without it the view waits for the refresh', async () => {
    await call(es, 'PUT', '/vis', { settings: { refresh_interval: '-1' } });
    await call(es, 'PUT', '/vis/_doc/1', { a: 1 });
    expect((await call(es, 'GET', '/vis/_search')).body.hits.total.value).toBe(
      0
    );
    expect((await call(es, 'GET', '/vis/_doc/1')).body.found).toBe(true);
    await call(es, 'PUT', '/vis/_doc/2?refresh=true', { a: 2 });
    expect((await call(es, 'GET', '/vis/_search')).body.hits.total.value).toBe(
      2
    );
  });

  it('creating an existing index: 400 resource_already_exists_exception', async () => {
    const res = await call(es, 'PUT', '/items', {});
    const uuid = (await call(es, 'GET', '/_cat/indices/items?format=json'))
      .body[0].uuid;
    expect(res.status).toBe(400);
    const cause = {
      type: 'resource_already_exists_exception',
      reason: `index [items/${uuid}] already exists`,
      index_uuid: uuid,
      index: 'items'
    };
    expect(res.body).toEqual({
      error: { root_cause: [cause], ...cause },
      status: 400
    });
  });

  it('dynamic mapping: text + keyword(256), long, float, boolean, date, object without type; nested kept', async () => {
    await call(es, 'PUT', '/dyn/_doc/1', {
      s: 'hello',
      i: 3,
      f: 1.5,
      b: true,
      d: '2024-05-01T10:00:00Z',
      o: { city: 'Paris' }
    });
    const res = await call(es, 'GET', '/dyn/_mapping');
    expect(res.body).toEqual({
      dyn: {
        mappings: {
          properties: {
            s: {
              type: 'text',
              fields: { keyword: { type: 'keyword', ignore_above: 256 } }
            },
            i: { type: 'long' },
            f: { type: 'float' },
            b: { type: 'boolean' },
            d: { type: 'date' },
            o: {
              properties: {
                city: {
                  type: 'text',
                  fields: { keyword: { type: 'keyword', ignore_above: 256 } }
                }
              }
            }
          }
        }
      }
    });
    expect(
      (await call(es, 'GET', '/items/_mapping')).body.items.mappings.properties
        .parts.type
    ).toBe('nested');
  });

  it('_mapping of an alias or pattern has one key per concrete index', async () => {
    await call(es, 'PUT', '/multi-a', {
      mappings: { properties: { a: { type: 'keyword' } } }
    });
    await call(es, 'PUT', '/multi-b', {
      mappings: { properties: { b: { type: 'long' } } }
    });
    await call(es, 'POST', '/_aliases', {
      actions: [{ add: { indices: ['multi-a', 'multi-b'], alias: 'multi' } }]
    });
    const viaAlias = await call(es, 'GET', '/multi/_mapping');
    expect(Object.keys(viaAlias.body).sort()).toEqual(['multi-a', 'multi-b']);
    const viaPattern = await call(es, 'GET', '/multi-*/_mapping');
    expect(viaPattern.body['multi-b']).toEqual({
      mappings: { properties: { b: { type: 'long' } } }
    });
  });

  it('_cat/indices?format=json: strings only, dataset.size from 8.11, dot-indices only with expand_wildcards=all', async () => {
    await call(es, 'PUT', '/.hidden-stuff', {});
    const res = await call(es, 'GET', '/_cat/indices?format=json');
    expect(res.status).toBe(200);
    const row = (res.body as Record<string, string>[]).find(
      r => r['index'] === 'items'
    ) as Record<string, string>;
    expect(Object.keys(row)).toEqual([
      'health',
      'status',
      'index',
      'uuid',
      'pri',
      'rep',
      'docs.count',
      'docs.deleted',
      'store.size',
      'pri.store.size',
      'dataset.size'
    ]);
    for (const v of Object.values(row)) {
      expect(typeof v).toBe('string');
    }
    // Lucene documents, as a real node counts them (checked by the differential corpus): the 30 items and their 60 nested parts.
    expect(row['docs.count']).toBe('90');
    expect(
      (res.body as { index: string }[]).some(r => r.index.startsWith('.'))
    ).toBe(false);
    const all = await call(
      es,
      'GET',
      '/_cat/indices?format=json&expand_wildcards=all'
    );
    expect(
      (all.body as { index: string }[]).some(r => r.index === '.hidden-stuff')
    ).toBe(true);
  });

  it('GET /_search and /i/_search accept a JSON body on GET', async () => {
    const res = await call(es, 'GET', '/items/_search', {
      query: { term: { 'name.keyword': 'Red Widget 3' } }
    });
    expect(res.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual([
      '3'
    ]);
  });

  it('_delete_by_query with wait_for_completion=false answers a task, and GET /_tasks reports it', async () => {
    await call(
      es,
      'POST',
      '/_bulk?refresh=true',
      ndjson([
        { index: { _index: 'dbq', _id: '1' } },
        { k: 'x' },
        { index: { _index: 'dbq', _id: '2' } },
        { k: 'y' }
      ])
    );
    const res = await call(
      es,
      'POST',
      '/dbq/_delete_by_query?wait_for_completion=false',
      { query: { term: { 'k.keyword': 'x' } } }
    );
    expect(res.status).toBe(200);
    expect(res.body.task).toMatch(/^[^:]+:\d+$/);
    let task:
      | {
          completed: boolean;
          response?: { deleted: number; failures: unknown[] };
        }
      | undefined;
    for (let i = 0; i < 50 && !task?.completed; i++) {
      task = (await call(es, 'GET', `/_tasks/${res.body.task}`)).body;
    }
    expect(task?.completed).toBe(true);
    expect(task?.response).toMatchObject({
      deleted: 1,
      version_conflicts: 0,
      failures: []
    });
  });

  it('_delete_by_query reports version conflicts per document', async () => {
    await call(es, 'PUT', '/dbq2', { settings: { refresh_interval: '-1' } });
    await call(es, 'PUT', '/dbq2/_doc/1?refresh=true', { k: 'x' });
    await call(es, 'PUT', '/dbq2/_doc/1', { k: 'x2' });
    const res = await call(
      es,
      'POST',
      '/dbq2/_delete_by_query?conflicts=proceed',
      { query: { match_all: {} } }
    );
    expect(res.status).toBe(200);
    expect(res.body.version_conflicts).toBe(1);
    expect(res.body.failures[0]).toMatchObject({
      index: 'dbq2',
      id: '1',
      status: 409,
      cause: { type: 'version_conflict_engine_exception' }
    });
  });
});

describe('search responses', () => {
  it('hits.total counts up to 10,000 by default (gte beyond), exactly with track_total_hits=true', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 10_050; i++) {
      lines.push({ index: { _index: 'big' } }, { n: i });
    }
    await call(es, 'POST', '/_bulk?refresh=true', ndjson(lines));
    const res = await call(es, 'GET', '/big/_search?size=1');
    expect(res.body.hits.total).toEqual({ value: 10000, relation: 'gte' });
    const exact = await call(es, 'POST', '/big/_search', {
      size: 0,
      track_total_hits: true,
      query: { range: { n: { gte: 0 } } }
    });
    expect(exact.body.hits.total).toEqual({ value: 10050, relation: 'eq' });
    expect(Object.keys(res.body)).toEqual([
      'took',
      'timed_out',
      '_shards',
      'hits'
    ]);
    expect(Object.keys(res.body.hits.hits[0])).toEqual([
      '_index',
      '_id',
      '_score',
      '_source'
    ]);
  });
});

describe('unknown endpoints', () => {
  it('an unknown path: 400 "no handler found" (flat error string)', async () => {
    const res = await call(es, 'GET', '/_nothing/here/at/all');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        'no handler found for uri [/_nothing/here/at/all] and method [GET]',
      status: 400
    });
  });

  it('a known path with the wrong method: 405 with the allowed methods', async () => {
    const res = await call(es, 'PUT', '/_search');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      error:
        'Incorrect HTTP method for uri [/_search] and method [PUT], allowed: [GET, POST]',
      status: 405
    });
  });
});

it('basic credentials are accepted (sanity)', async () => {
  expect(
    (await call(es, 'GET', '/', undefined, { authorization: BASIC })).status
  ).toBe(200);
});
