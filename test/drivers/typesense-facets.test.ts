/**
 * Typesense facets (`facet_by`) shown as tables under the hits, shaped like Elasticsearch's
 * terms buckets so both engines' facets read and chart the same way; against the sandbox.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../kernel/src/connections/open-connection';
import { connect, request, SECRETS } from './helpers';
import { aggregationFooter } from '../../contracts/mime-types';
import { hitsOf } from './grid-helpers';
import { facetTables } from '../../kernel/src/engines/typesense/facets';
import { exactJson, parseExactJson } from '../../contracts/exact-json';
import type { JsonValue } from '../../contracts/json';

let sandbox: RunningSandbox;
let ts: Connection;

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
  ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`);
});
afterAll(async () => {
  await ts?.driver.close();
  await sandbox?.close();
});

describe('Typesense facets', () => {
  it('give one table of value and count per faceted field, counts adding up to the matches', async () => {
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/search',
        'q=*&query_by=title&facet_by=genre&max_facet_values=50&per_page=0'
      )
    );
    const genre = hits.aggregations?.find(a => a.name === 'genre');
    expect(genre?.rows.length).toBeGreaterThan(1);
    for (const row of genre?.rows ?? []) {
      expect(Object.keys(row)).toEqual(['key', 'doc_count']);
      expect(typeof row.key).toBe('string');
    }
    const counted = (genre?.rows ?? []).reduce(
      (sum, row) => sum + (row.doc_count as number),
      0
    );
    expect(counted).toBe(hits.total?.value);
  });

  it('add a stats table for a numeric facet', async () => {
    const signal = new AbortController().signal;
    const schema = {
      name: 'sizes',
      fields: [
        { name: 'label', type: 'string' },
        { name: 'size', type: 'int32', facet: true }
      ]
    };
    expect(
      (
        await ts.driver.console.send(
          request('POST', '/collections', '', schema),
          signal
        )
      ).status
    ).toBe(201);
    for (const [id, size] of [
      ['a', 3],
      ['b', 5],
      ['c', 5]
    ] as const) {
      expect(
        (
          await ts.driver.console.send(
            request('POST', '/collections/sizes/documents', '', {
              id,
              label: id,
              size
            }),
            signal
          )
        ).status
      ).toBe(201);
    }
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/sizes/documents/search',
        'q=*&query_by=label&facet_by=size'
      )
    );
    expect(hits.aggregations?.find(a => a.name === 'size')?.rows).toEqual([
      { key: '5', doc_count: 2 },
      { key: '3', doc_count: 1 }
    ]);
    const stats = hits.aggregations?.find(a => a.name === 'size stats')
      ?.rows[0];
    expect(stats).toEqual({ min: 3, max: 5, avg: 13 / 3, sum: 13 });
  });

  it("keep a stat past a double's precision with its digits in the stats table", () => {
    const [, stats] = facetTables(
      parseExactJson(
        '[{"field_name":"n","counts":[{"value":"9007199254740993","count":1}],"stats":{"min":9007199254740993,"max":9007199254740993,"avg":9.007199254740992e15,"total_values":1}}]'
      ) as JsonValue
    );
    expect(stats?.name).toBe('n stats');
    expect(exactJson(stats?.rows[0])).toBe(
      '{"min":9007199254740993,"max":9007199254740993,"avg":9007199254740992}'
    );
  });

  it('say under the table how many distinct values there are and whether the counts come from a sample', async () => {
    const req = request(
      'GET',
      '/collections/books/documents/search',
      'q=*&query_by=title&facet_by=genre&max_facet_values=2&per_page=0'
    );
    const response = await ts.driver.console.send(
      req,
      new AbortController().signal
    );
    const answer =
      response.body.kind === 'json'
        ? (response.body.value as {
            facet_counts: {
              stats: { total_values: number };
              sampled: boolean;
            }[];
          })
        : undefined;
    const facet = answer?.facet_counts[0];
    expect(facet?.sampled).toBe(false);
    const hits = await hitsOf(ts, req);
    const genre = hits.aggregations?.find(a => a.name === 'genre');
    // Two values shown of more: the count of distinct values says the table is not all of them.
    expect(genre?.rows).toHaveLength(2);
    expect(facet?.stats.total_values).toBeGreaterThan(2);
    expect(genre?.notes).toEqual([
      `${facet?.stats.total_values.toLocaleString('en-US')} distinct values in the results (total_values)`,
      'sampled: false (the counts are exact)'
    ]);
    expect(genre?.notShown).toBeUndefined();
  });

  it('say a facet with no values in the facet’s words, not as an aggregation without buckets', async () => {
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/search',
        'q=no-such-word-anywhere&query_by=title&facet_by=genre&per_page=0'
      )
    );
    const genre = hits.aggregations?.find(a => a.name === 'genre');
    expect(genre?.rows).toEqual([]);
    expect(aggregationFooter(genre ?? { rows: [] })[0]).toBe(
      'No values: the engine counted none for this facet.'
    );
  });

  it('leave a search without facet_by with no tables', async () => {
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/search',
        'q=*&query_by=title&per_page=1'
      )
    );
    expect(hits.aggregations ?? []).toEqual([]);
  });
});
