/**
 * A far jump in a grid sorted by a number or a date field, over the wire (kernel process,
 * ZeroMQ, the grid comm, the engine over HTTP): the rows shown at a jumped-to block are the
 * rows a block-by-block scroll shows there, going up and down, with missing, repeated and
 * several-to-a-document values, a tie longer than the result window, and a filter; and the
 * jump counts its way there instead of walking the rows before it. Two shards of several segments
 * each, a result window of 25 rows, on the sandbox and the real nodes alike.
 */
import { randomUUID } from 'node:crypto';
import type { SentRequest } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import { jsonFromNode } from '../support/real-elasticsearch/launch';
import {
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from './panel-comm-client';

const WINDOW = 25;
const DOCS = 300;
const BLOCK = 10;
/** Refreshed writes the documents are indexed in. */
const SEGMENTS = 3;
/** Blocks jumped to: past the window, within a tie, among the rows without a value, the last but one. */
const JUMPS = [4, 9, 13, 21, 27, 28];

/** A walk's step reads sort values only; counting reads aggregations. */
const isWalk = (r: SentRequest) =>
  r.path.includes('filter_path=pit_id,hits.hits.sort');
const isCount = (r: SentRequest) =>
  r.path.includes('filter_path=pit_id,aggregations');

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  'a far jump in a grid sorted by a number or date field',
  target => {
    const INDEX = `grid-sorted-${randomUUID().slice(0, 8)}`;
    let engine: RunningEsTarget;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    beforeAll(async () => {
      engine = await target.start({ security: false });
      await jsonFromNode(
        engine,
        'PUT',
        `/${INDEX}`,
        JSON.stringify({
          settings: {
            number_of_shards: 2,
            number_of_replicas: 0,
            max_result_window: WINDOW
          },
          mappings: {
            properties: {
              n: { type: 'long' },
              v: { type: 'integer' },
              f: { type: 'double' },
              k: { type: 'keyword' },
              at: { type: 'date' }
            }
          }
        })
      );
      const lines = Array.from({ length: DOCS }, (_, n) => {
        // v: missing on every 7th; 40 rows hold 5 (a tie longer than the window); every 11th holds two.
        const v =
          n % 7 === 0
            ? {}
            : n % 6 === 1
              ? { v: 5 }
              : { v: n % 11 === 0 ? [n % 17, 40 - (n % 13)] : n % 23 };
        const f = n % 9 === 0 ? {} : { f: ((n * 37) % 101) / 7 - 3 };
        // k: missing on every 5th, on every engine; few values, so long ties.
        const k = n % 5 === 0 ? {} : { k: `k${n % 4}` };
        // at: missing on every 8th (a date's missing rows sort by a stand-in epoch value).
        const at =
          n % 8 === 3
            ? {}
            : { at: Date.UTC(2024, 0, 1) + ((n * 13) % 50) * 3_600_000 };
        return `${JSON.stringify({ index: { _id: `s${n}` } })}\n${JSON.stringify({ n, ...v, ...f, ...k, ...at })}\n`;
      });
      // Written in three parts, each refreshed: each shard holds several segments, some of whose
      // values all sort before a later page's first value while rows there lack the field.
      for (let part = 0; part < SEGMENTS; part++) {
        await jsonFromNode(
          engine,
          'POST',
          `/${INDEX}/_bulk?refresh=true`,
          lines
            .slice((part * DOCS) / SEGMENTS, ((part + 1) * DOCS) / SEGMENTS)
            .join('')
        );
      }
      ({ kernel, comm } = await kernelWithPanelComm(
        [`%connect elasticsearch ${engine.url} name=es`],
        { ...SECRETS }
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (engine) {
        await jsonFromNode(engine, 'DELETE', `/${INDEX}`).catch(
          () => undefined
        );
      }
      await engine?.close();
    });

    const openSorted = async (view: Record<string, unknown>) =>
      expectReply(
        await comm.call({
          type: 'open',
          connection: 'es',
          target: INDEX,
          blockSize: BLOCK,
          view
        }),
        'opened'
      );
    const read = async (gridId: string, block: number) =>
      expectReply(await comm.call({ type: 'read', gridId, block }), 'block')
        .block;

    /** Every row's id in the view's order, read block by block from the top. */
    const scrolledIds = async (view: Record<string, unknown>) => {
      const grid = await openSorted(view);
      const ids = grid.first.keys?.map(k => k.id) ?? [];
      for (let block = 1; block * BLOCK < grid.total; block++) {
        ids.push(
          ...((await read(grid.gridId, block)).keys?.map(k => k.id) ?? [])
        );
      }
      await comm.call({ type: 'close', gridId: grid.gridId });
      expect(ids).toHaveLength(grid.total);
      expect(new Set(ids).size).toBe(grid.total);
      return ids;
    };

    const cases: [string, Record<string, unknown>][] = [
      ['n (unique) going down', { sort: [{ column: 'n', direction: 'desc' }] }],
      [
        'v (missing, repeated, a tie of 40, two to some documents) going up',
        { sort: [{ column: 'v', direction: 'asc' }] }
      ],
      ['v going down', { sort: [{ column: 'v', direction: 'desc' }] }],
      [
        'f (a double, missing on some) going up',
        { sort: [{ column: 'f', direction: 'asc' }] }
      ],
      [
        'at (a date, repeated, missing on some) going down, filtered to n > 40',
        {
          filters: [{ column: 'n', operator: 'greater than', value: '40' }],
          sort: [{ column: 'at', direction: 'desc' }]
        }
      ]
    ];

    const keywordCases: [string, Record<string, unknown>][] = [
      [
        'k (a keyword, missing on some) going up',
        { sort: [{ column: 'k', direction: 'asc' }] }
      ],
      ['k going down', { sort: [{ column: 'k', direction: 'desc' }] }]
    ];

    it.each(keywordCases)(
      'sorted by %s: blocks read on from rows without the keyword, down from the top and up from the end, hold the scrolled rows',
      async (_, view) => {
        const full = { filters: [], join: 'all', ...view };
        const ids = await scrolledIds(full);
        // Each row's key as written: the scroll holds every row once, keys in the view's order.
        const keyOf = (id: string) => {
          const n = Number(id.slice(1));
          return n % 5 === 0 ? null : `k${n % 4}`;
        };
        const down =
          (view.sort as { direction: string }[])[0]?.direction === 'desc';
        const expected = Array.from({ length: DOCS }, (_, n) =>
          keyOf(`s${n}`)
        ).sort((a, b) =>
          a === b
            ? 0
            : a === null
              ? 1
              : b === null
                ? -1
                : a < b !== down
                  ? -1
                  : 1
        );
        expect(ids.map(keyOf)).toEqual(expected);
        expect(new Set(ids).size).toBe(DOCS);
        const grid = await openSorted(full);
        const last = Math.floor((DOCS - 1) / BLOCK);
        for (let block = last; block * BLOCK >= WINDOW; block--) {
          const b = await read(grid.gridId, block);
          expect({ block, ids: b.keys?.map(k => k.id) }).toEqual({
            block,
            ids: ids.slice(block * BLOCK, (block + 1) * BLOCK)
          });
        }
        await comm.call({ type: 'close', gridId: grid.gridId });
      }
    );

    it.each(cases)(
      'sorted by %s: each jumped-to block, on a fresh grid, holds the rows a scroll shows there',
      async (_, view) => {
        const full = { filters: [], join: 'all', ...view };
        const ids = await scrolledIds(full);
        const sent: SentRequest[] = [];
        for (const block of JUMPS.filter(b => b * BLOCK < ids.length)) {
          const grid = await openSorted(full);
          const jumped = await read(grid.gridId, block);
          sent.push(...jumped.requests);
          expect({
            block,
            ids: jumped.keys?.map(k => k.id)
          }).toEqual({
            block,
            ids: ids.slice(block * BLOCK, (block + 1) * BLOCK)
          });
          await comm.call({ type: 'close', gridId: grid.gridId });
        }
        // The jumps counted their way (the rows above are the counted path's, not a walk's).
        expect(sent.filter(isCount).length).toBeGreaterThan(0);
      }
    );

    it('a jump near the end of a unique field counts its way there: a few counts and one search, no walk through the rows before', async () => {
      const view = {
        filters: [],
        join: 'all',
        sort: [{ column: 'n', direction: 'asc' }]
      };
      const grid = await openSorted(view);
      // Row 250: walking there from the window's end takes nine steps of 25.
      const jumped = await read(grid.gridId, 25);
      expect(jumped.keys?.map(k => k.id)).toEqual(
        Array.from({ length: BLOCK }, (_, i) => `s${250 + i}`)
      );
      expect(jumped.requests.filter(isWalk)).toHaveLength(1);
      expect(jumped.requests.filter(isCount).length).toBeGreaterThan(0);
      expect(jumped.requests.length).toBeLessThanOrEqual(5);
      await comm.call({ type: 'close', gridId: grid.gridId });
    });
  }
);
