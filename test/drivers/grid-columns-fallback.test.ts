/**
 * A mapping that cannot be read never fails a search nor holds it for long: a server on
 * loopback answers searches like Elasticsearch and answers `_mapping` with an error, an
 * unexpected shape, or not at all. The grid then takes its columns from the documents.
 */
import { createServer, type Server } from 'node:http';
import type { Connection } from '../../kernel/src/connections/open-connection';
import { STRUCTURE_TIMEOUT_MS } from '../../kernel/src/driver-core/structure-cache';
import { connect, request } from './helpers';
import { hitsOf } from './grid-helpers';

let server: Server;
let es: Connection;
const mappingRequests: string[] = [];

const SEARCH = {
  took: 1,
  timed_out: false,
  hits: {
    total: { value: 1, relation: 'eq' },
    max_score: 1,
    hits: [
      {
        _index: 'x',
        _id: '1',
        _score: 1,
        _source: { b: 1, a: { c: 'x' }, list: [{ k: 1 }] }
      }
    ]
  }
};

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    const [index, endpoint] =
      (req.url ?? '/').split('?')[0]?.split('/').filter(Boolean) ?? [];
    if (!index) {
      return res.end(
        JSON.stringify({
          name: 'n',
          version: { number: '8.15.0' },
          tagline: 'You Know, for Search'
        })
      );
    }
    if (endpoint === '_search') {
      return res.end(JSON.stringify(SEARCH));
    }
    if (req.method !== 'GET') {
      return res.end('{"acknowledged":true}');
    }
    mappingRequests.push(index);
    if (index === 'hang') {
      return;
    } // never answers
    if (index === 'broken') {
      res.statusCode = 500;
      return res.end(
        JSON.stringify({
          error: { type: 'exception', reason: 'boom' },
          status: 500
        })
      );
    }
    res.end(JSON.stringify({ [index]: { mappings: 'not an object' } }));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  es = await connect(
    `elasticsearch http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0} auth=none`
  );
});
afterAll(async () => {
  await es?.driver.close();
  server.closeAllConnections();
  await new Promise(resolve => server.close(resolve));
});

const DOCUMENT_COLUMNS = ['_id', '_index', '_score', 'b', 'a.c', 'list'];

it.each(['broken', 'odd'])(
  '%s mapping: the search shows, with columns from the documents',
  async index => {
    const hits = await hitsOf(es, request('GET', `/${index}/_search`));
    expect(hits.columns.map(c => c.name)).toEqual(DOCUMENT_COLUMNS);
    expect(hits.columns.slice(3).map(c => c.type)).toEqual([
      'number',
      'string',
      'array'
    ]);
    expect(hits.rows[0]).toMatchObject({ b: 1, 'a.c': 'x', list: [{ k: 1 }] });
  }
);

it('a mapping that never comes: the search shows after the time limit, and the next one does not wait again', async () => {
  const started = performance.now();
  const hits = await hitsOf(es, request('GET', '/hang/_search'));
  const waited = performance.now() - started;
  expect(hits.columns.map(c => c.name)).toEqual(DOCUMENT_COLUMNS);
  expect(waited).toBeGreaterThanOrEqual(STRUCTURE_TIMEOUT_MS - 100);
  expect(waited).toBeLessThan(STRUCTURE_TIMEOUT_MS + 2_000);
  const again = performance.now();
  await hitsOf(es, request('GET', '/hang/_search'));
  expect(performance.now() - again).toBeLessThan(1_000);
  expect(mappingRequests.filter(i => i === 'hang')).toHaveLength(1);
}, 20_000);

it('an interrupt while the mapping is read ends the wait at once', async () => {
  // A mapping change drops the remembered failure, so the next search reads the mapping again.
  // The change itself is no search answer, so it reads no mapping.
  const before = mappingRequests.length;
  await es.driver.console.send(
    request('PUT', '/hang/_mapping', '', {}),
    new AbortController().signal
  );
  expect(mappingRequests).toHaveLength(before);
  const controller = new AbortController();
  const started = performance.now();
  const pending = es.driver.console.send(
    request('GET', '/hang/_search'),
    controller.signal
  );
  setTimeout(() => controller.abort(), 200);
  const response = await pending;
  expect(response.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(mappingRequests).toHaveLength(before + 1);
});
