/** The official @elastic/elasticsearch 8.x client (it checks the product header) against the stand-in over HTTPS. */
import { Client } from '@elastic/elasticsearch';
import { createElasticsearchSandbox } from '../../src/elasticsearch';
import { listen, type ListeningServer } from '../../src/serve';
import { generateCertificates } from '../../src/tls';

let server: ListeningServer;
let client: Client;

beforeAll(async () => {
  const sandbox = createElasticsearchSandbox({
    version: '8.15.0',
    security: true,
    password: 'pw-client'
  });
  const certs = await generateCertificates();
  server = await listen(sandbox.handler, {
    port: 0,
    tls: { cert: certs.cert, key: certs.key }
  });
  client = new Client({
    node: server.url,
    auth: { username: 'elastic', password: 'pw-client' },
    tls: { ca: certs.ca }
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

it('runs common operations successfully', async () => {
  const info = await client.info();
  expect(info.version.number).toBe('8.15.0');

  await client.indices.create({
    index: 'books',
    mappings: {
      properties: { title: { type: 'text' }, year: { type: 'long' } }
    }
  });
  expect(await client.indices.exists({ index: 'books' })).toBe(true);
  expect(await client.indices.exists({ index: 'nope' })).toBe(false);

  const indexed = await client.index({
    index: 'books',
    id: '1',
    document: { title: 'Dune', year: 1965 },
    refresh: true
  });
  expect(indexed.result).toBe('created');
  const got = await client.get<{ title: string }>({ index: 'books', id: '1' });
  expect(got._source?.title).toBe('Dune');

  const bulk = await client.bulk({
    refresh: true,
    operations: [
      { index: { _index: 'books', _id: '2' } },
      { title: 'Emma', year: 1815 },
      { index: { _index: 'books', _id: '3' } },
      { title: 'Ulysses', year: 1922 }
    ]
  });
  expect(bulk.errors).toBe(false);

  const found = await client.search<{ title: string }>({
    index: 'books',
    query: { match: { title: 'emma' } }
  });
  expect(found.hits.hits.map(h => h._id)).toEqual(['2']);

  const cat = await client.cat.indices({ format: 'json' });
  expect(cat.map(r => r.index)).toContain('books');

  const pit = await client.openPointInTime({
    index: 'books',
    keep_alive: '1m'
  });
  const page = await client.search({
    pit: { id: pit.id, keep_alive: '1m' },
    sort: [{ year: 'asc' }, { _shard_doc: 'asc' }],
    size: 2
  });
  expect(page.hits.hits.map(h => h._id)).toEqual(['2', '3']);
  const rest = await client.search({
    pit: { id: page.pit_id as string },
    sort: [{ year: 'asc' }, { _shard_doc: 'asc' }],
    size: 2,
    search_after: page.hits.hits[1]?.sort as never
  });
  expect(rest.hits.hits.map(h => h._id)).toEqual(['1']);
  expect((await client.closePointInTime({ id: pit.id })).succeeded).toBe(true);

  const deleted = await client.delete({
    index: 'books',
    id: '1',
    refresh: true
  });
  expect(deleted.result).toBe('deleted');
  expect((await client.count({ index: 'books' })).count).toBe(2);

  await expect(client.get({ index: 'books', id: '1' })).rejects.toMatchObject({
    meta: { statusCode: 404 }
  });
  await expect(client.search({ index: 'missing' })).rejects.toMatchObject({
    meta: {
      statusCode: 404,
      body: { error: { type: 'index_not_found_exception' } }
    }
  });
});
