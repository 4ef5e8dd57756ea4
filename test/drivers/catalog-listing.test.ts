/**
 * One listing of a connection's indices or collections serves the side panel and completion:
 * the panel lists the targets with their counts, completion also offers what the list leaves
 * out (aliases, hidden indices); a cell that creates a target shows in both at once. Against
 * the sandbox engines over HTTP.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../kernel/src/connections/open-connection';
import { connect, request, SECRETS } from './helpers';

let sandbox: RunningSandbox;
let es: Connection;
let ts: Connection;
const signal = () => new AbortController().signal;
const names = (listing: { targets: { name: string }[] }) =>
  listing.targets.map(t => t.name);

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 5
  });
  es = await connect(
    `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
  );
  ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`);
});
afterAll(async () => {
  await es?.driver.close();
  await ts?.driver.close();
  await sandbox?.close();
});

describe('Elasticsearch catalog', () => {
  it('lists indices with counts for the panel, and aliases apart', async () => {
    expect(
      (
        await es.driver.console.send(
          request('PUT', '/listed-one', '', {
            mappings: { properties: { n: { type: 'long' } } }
          }),
          signal()
        )
      ).status
    ).toBe(200);
    expect(
      (
        await es.driver.console.send(
          request('PUT', '/listed-one/_alias/listed-alias'),
          signal()
        )
      ).status
    ).toBe(200);
    expect(
      (
        await es.driver.console.send(
          request('PUT', '/listed-one/_doc/1', 'refresh=true', { n: 1 }),
          signal()
        )
      ).status
    ).toBe(201);
    const listing = await es.driver.catalog.listTargets(signal());
    expect(listing.targets.find(t => t.name === 'listed-one')?.count).toBe(1);
    expect(names(listing)).not.toContain('listed-alias');
    expect(listing.unlisted).toContain('listed-alias');
  });

  it('gives completion the same names, and an index a cell creates at once', async () => {
    const fresh = await es.driver.catalog.listTargets(signal());
    const recent = await es.driver.catalog.listTargets(signal(), {
      recent: true
    });
    expect(names(recent)).toEqual(names(fresh));
    expect(recent.unlisted).toEqual(fresh.unlisted);
    expect(
      (await es.driver.console.send(request('PUT', '/made-later'), signal()))
        .status
    ).toBe(200);
    expect(
      names(await es.driver.catalog.listTargets(signal(), { recent: true }))
    ).toContain('made-later');
  });
});

describe('Typesense catalog', () => {
  it('lists collections with counts for the panel, aliases apart, and a collection a cell creates at once for completion', async () => {
    expect(
      (
        await ts.driver.console.send(
          request('PUT', '/aliases/shelf', '', { collection_name: 'books' }),
          signal()
        )
      ).status
    ).toBe(200);
    const listing = await ts.driver.catalog.listTargets(signal());
    expect(names(listing)).toContain('books');
    expect(
      listing.targets.find(t => t.name === 'books')?.count
    ).toBeGreaterThan(0);
    expect(names(listing)).not.toContain('shelf');
    expect(listing.unlisted).toContain('shelf');
    expect(
      names(await ts.driver.catalog.listTargets(signal(), { recent: true }))
    ).toEqual(names(listing));
    expect(
      (
        await ts.driver.console.send(
          request('POST', '/collections', '', {
            name: 'made_later',
            fields: [{ name: 'title', type: 'string' }]
          }),
          signal()
        )
      ).status
    ).toBe(201);
    expect(
      names(await ts.driver.catalog.listTargets(signal(), { recent: true }))
    ).toContain('made_later');
  });
});
