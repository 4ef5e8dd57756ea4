/**
 * A page read on with `search_after` from a sort value holds the rows lacking the sorted field
 * wherever they are stored. One shard of two segments: `a` (f = 1) and `b` (no f) in the first,
 * `c` (f = 2) and `d` (f = 3) in the second; sorted by f going up, the rows after `c` are `d`,
 * then `b`. OpenSearch 2.19.1 leaves `b` out when the clause leaves `missing` to its default (its
 * segment's values all sort before 2), and answers nothing after the stand-in `b` sorts at; with
 * `"missing": "_last"` said outright, as the grid sends it, both engines answer every row.
 */
import { randomUUID } from 'node:crypto';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { jsonFromNode } from '../support/real-elasticsearch/launch';
import { answerFor } from '../support/real-node-differences';

const targets = elasticsearchTargets([], { newest: true }).filter(
  t => t.flavour === 'es-8.19' || t.flavour === 'opensearch-2.19'
);

describeEachTarget(
  targets,
  'search_after past a segment whose values all come before it',
  target => {
    const INDEX = `after-segments-${randomUUID().slice(0, 8)}`;
    let engine: RunningEsTarget;

    beforeAll(async () => {
      engine = await target.start({ security: false });
      await jsonFromNode(
        engine,
        'PUT',
        `/${INDEX}`,
        JSON.stringify({
          settings: {
            number_of_shards: 1,
            number_of_replicas: 0,
            refresh_interval: -1
          },
          mappings: {
            properties: { f: { type: 'double' }, id: { type: 'keyword' } }
          }
        })
      );
      // Each refreshed write is a segment of its own.
      for (const docs of [
        [{ id: 'a', f: 1 }, { id: 'b' }],
        [
          { id: 'c', f: 2 },
          { id: 'd', f: 3 }
        ]
      ]) {
        await jsonFromNode(
          engine,
          'POST',
          `/${INDEX}/_bulk?refresh=true`,
          docs
            .map(
              d =>
                `${JSON.stringify({ index: { _id: d.id } })}\n${JSON.stringify(d)}\n`
            )
            .join('')
        );
      }
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      if (engine) {
        await jsonFromNode(engine, 'DELETE', `/${INDEX}`).catch(
          () => undefined
        );
      }
      await engine?.close();
    });

    /** The ids a search_after search answers, sorted by f going up (with `missing` as given), then id. */
    const idsAfter = async (
      after: (string | number)[],
      missing: string | undefined
    ): Promise<string[]> => {
      const answer = (await jsonFromNode(
        engine,
        'POST',
        `/${INDEX}/_search`,
        JSON.stringify({
          size: 10,
          sort: [
            { f: { order: 'asc', ...(missing ? { missing } : {}) } },
            { id: 'asc' }
          ],
          search_after: after,
          track_total_hits: false,
          _source: false
        })
      )) as { hits: { hits: { _id: string }[] } };
      return answer.hits.hits.map(h => h._id);
    };

    it('the row lacking f, in a segment whose values all sort before the search_after, follows d', async () => {
      expect(await idsAfter([2, 'c'], undefined)).toEqual(
        answerFor(target, 'opensearch-skips-segments-before-search-after', {
          asEight: ['d', 'b'],
          otherwise: ['d']
        })
      );
      expect(await idsAfter([2, 'c'], '_last')).toEqual(['d', 'b']);
    });

    it('the rows after one lacking f (at the stand-in "Infinity") are the others lacking it', async () => {
      expect(await idsAfter(['Infinity', 'a'], undefined)).toEqual(
        answerFor(target, 'opensearch-skips-segments-before-search-after', {
          asEight: ['b'],
          otherwise: []
        })
      );
      expect(await idsAfter(['Infinity', 'a'], '_last')).toEqual(['b']);
    });
  }
);
