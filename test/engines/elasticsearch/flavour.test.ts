/**
 * Which point in time each version reads grids and exports through, and the order that makes
 * every row's place unique there: a search_after page skips whatever ties with the previous
 * page's last row, so a tie-breaker that is not unique loses documents without a word.
 */
import { flavourOf } from '../../../kernel/src/engines/elasticsearch/flavour';

const readThrough = (number: string, distribution?: string) => {
  const flavour = flavourOf({
    number,
    ...(distribution ? { distribution } : {})
  });
  return {
    product: flavour.product,
    openPath: flavour.pointInTime?.openPath,
    tieBreakers: flavour.pointInTime?.tieBreakers,
    since: flavour.pointInTimeSince
  };
};

const INDEX_AND_ID = [{ _index: 'asc' }, { _id: 'asc' }];

it.each([
  ['7.9.3', undefined, undefined],
  ['7.10.2', '/_pit', INDEX_AND_ID],
  ['7.11.1', '/_pit', INDEX_AND_ID],
  ['7.12.0', '/_pit', [{ _shard_doc: 'asc' }]],
  ['7.17.29', '/_pit', [{ _shard_doc: 'asc' }]],
  ['8.19.21', '/_pit', [{ _shard_doc: 'asc' }]],
  ['9.5.3', '/_pit', [{ _shard_doc: 'asc' }]]
])(
  'Elasticsearch %s: point in time %s, rows ordered uniquely by %j',
  (version, openPath, tieBreakers) => {
    expect(readThrough(version)).toEqual({
      product: 'Elasticsearch',
      openPath,
      tieBreakers,
      since: '7.10'
    });
  }
);

it.each([
  ['1.3.19', undefined, undefined],
  ['2.3.0', undefined, undefined],
  ['2.4.0', '/_search/point_in_time', INDEX_AND_ID],
  ['2.19.1', '/_search/point_in_time', INDEX_AND_ID],
  ['3.3.2', '/_search/point_in_time', INDEX_AND_ID]
])(
  'OpenSearch %s: point in time %s, rows ordered uniquely by %j (it has no _shard_doc, and _doc ties across shards)',
  (version, openPath, tieBreakers) => {
    expect(readThrough(version, 'opensearch')).toEqual({
      product: 'OpenSearch',
      openPath,
      tieBreakers,
      since: '2.4'
    });
  }
);
