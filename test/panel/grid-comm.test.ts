/**
 * The side panel's `searchbook.panel` comm over the wire (kernel process, ZeroMQ, engines over
 * HTTP): listing, opening, reading blocks across Elasticsearch's from/size → point in time
 * boundary, far jumps, revisits, refresh, releasing the point in time (checked with the
 * engine's own index stats), against the Elasticsearch sandbox and the real nodes alike; then
 * Typesense batching and scoped keys, and malformed messages.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { generateBooksSample } from '@searchbook/sandbox/sample-typesense';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import {
  PANEL_COMM_TARGET,
  PANEL_PROTOCOL_VERSION,
  type GridReply,
  GridReplySchema
} from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { KernelClient } from '../support/kernel-client';
import {
  expectReply,
  PanelCommClient,
  kernelWithPanelCommBeside
} from './panel-comm-client';
import { jsonFromNode } from '../support/real-elasticsearch/launch';
import { KernelMessage } from '../support/kernel-messages';

const SMALL_WINDOW = 25;
const DOCS = 95;
const BLOCK = 10;

const IndexStats = z.object({
  _all: z.object({
    total: z.object({ search: z.object({ open_contexts: z.number() }) })
  })
});

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  'the grid comm on an index with a small max_result_window',
  target => {
    // Names of this run's own: a real node is shared by the run's suites.
    const suffix = randomUUID().slice(0, 8);
    const SMALL = `grid-small-${suffix}`;
    const HIDDEN = `.grid-hidden-${suffix}`;
    const NESTED = `grid-nested-${suffix}`;
    const GAPS = `grid-gaps-${suffix}`;
    const GAPS_DOCS = 57;
    let engine: RunningEsTarget;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    /** Search contexts open on the small index, by the engine's own stats: one per point in time. */
    const openContexts = async () =>
      IndexStats.parse(
        await jsonFromNode(engine, 'GET', `/${SMALL}/_stats/search`)
      )._all.total.search.open_contexts;
    const call = (data: Record<string, unknown>, on = comm) => on.call(data);
    const open = async (index: string, blockSize = BLOCK) =>
      expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: index,
          blockSize
        }),
        'opened'
      );
    const read = async (gridId: string, block: number) =>
      expectReply(await call({ type: 'read', gridId, block }), 'block').block;
    const close = (gridId: string) => call({ type: 'close', gridId });

    beforeAll(async () => {
      engine = await target.start({ security: false });
      const mappings = {
        properties: { n: { type: 'long' }, name: { type: 'keyword' } }
      };
      const bulk = (index: string, lines: string[]) =>
        jsonFromNode(
          engine,
          'POST',
          `/${index}/_bulk?refresh=true`,
          lines.join('')
        );
      const small = async () => {
        await jsonFromNode(
          engine,
          'PUT',
          `/${SMALL}`,
          JSON.stringify({
            settings: {
              number_of_shards: 1,
              number_of_replicas: 0,
              max_result_window: SMALL_WINDOW
            },
            mappings
          })
        );
        await bulk(
          SMALL,
          Array.from(
            { length: DOCS },
            (_, n) =>
              `${JSON.stringify({ index: { _id: `d${n}` } })}\n${JSON.stringify({ n, name: `doc <b>${n}</b>` })}\n`
          )
        );
      };
      const hidden = () =>
        jsonFromNode(
          engine,
          'PUT',
          `/${HIDDEN}/_doc/1?refresh=true`,
          JSON.stringify({ a: 1 })
        );
      const nested = async () => {
        await jsonFromNode(
          engine,
          'PUT',
          `/${NESTED}`,
          JSON.stringify({
            settings: { number_of_shards: 1, number_of_replicas: 0 },
            mappings: { properties: { variants: { type: 'nested' } } }
          })
        );
        await bulk(
          NESTED,
          [1, 2, 3].map(
            n =>
              `${JSON.stringify({ index: { _id: `p${n}` } })}\n${JSON.stringify({ variants: [{ size: 'S' }, { size: 'M' }] })}\n`
          )
        );
      };
      // Two shards; names missing, repeated and several to a document, where reversing an order goes wrong.
      const gaps = async () => {
        await jsonFromNode(
          engine,
          'PUT',
          `/${GAPS}`,
          JSON.stringify({
            settings: {
              number_of_shards: 2,
              number_of_replicas: 0,
              max_result_window: SMALL_WINDOW
            },
            mappings
          })
        );
        await bulk(
          GAPS,
          Array.from({ length: GAPS_DOCS }, (_, n) => {
            // OpenSearch 2.19 fails search_after from a row without the keyword (a null pointer in the engine):
            // there every document has a name.
            const name =
              n % 5 === 0 && !target.name.includes('OpenSearch')
                ? {}
                : { name: n % 3 === 0 ? [`v${n % 7}`, 'a'] : `v${n % 4}` };
            return `${JSON.stringify({ index: { _id: `g${n}` } })}\n${JSON.stringify({ n, ...name })}\n`;
          })
        );
      };
      // The four indices are made side by side, and the kernel starts meanwhile.
      ({ kernel, comm } = await kernelWithPanelCommBeside(
        () => Promise.all([small(), hidden(), nested(), gaps()]),
        [`%connect elasticsearch ${engine.url} name=es`],
        { ...SECRETS }
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (engine) {
        await Promise.all(
          [SMALL, HIDDEN, NESTED, GAPS].map(index =>
            jsonFromNode(engine, 'DELETE', `/${index}`).catch(() => undefined)
          )
        );
      }
      await engine?.close();
    });

    it('lists the open connection', async () => {
      const reply = expectReply(
        await call({ type: 'connections' }),
        'connections'
      );
      expect(reply.connections.map(c => [c.name, c.engine])).toEqual([
        ['es', 'elasticsearch']
      ]);
    });

    it('lists concrete indices with count, health and size; dot names hidden', async () => {
      const reply = expectReply(
        await call({ type: 'targets', connection: 'es' }),
        'targets'
      );
      expect(reply.targets.map(t => t.name)).toContain(SMALL);
      expect(reply.targets.filter(t => t.name.startsWith('.'))).toEqual([]);
      expect(reply.targets.find(t => t.name === SMALL)).toMatchObject({
        count: DOCS,
        health: expect.any(String),
        size: expect.any(String)
      });
    });

    it('counts documents as a search finds them, not the nested objects _cat/indices adds', async () => {
      const cat = z
        .array(z.object({ 'docs.count': z.string() }))
        .parse(
          await jsonFromNode(
            engine,
            'GET',
            `/_cat/indices/${NESTED}?format=json&h=docs.count`
          )
        );
      expect(Number(cat[0]?.['docs.count'])).toBe(9);
      const reply = expectReply(
        await call({ type: 'targets', connection: 'es' }),
        'targets'
      );
      expect(reply.targets.find(t => t.name === NESTED)?.count).toBe(3);
      const grid = await open(NESTED);
      expect(grid.total).toBe(3);
      await close(grid.gridId);
    });

    it('opens with the exact total, mapped columns (no _score: the grid browses, it does not rank) and the first block; values stay text', async () => {
      const grid = await open(SMALL);
      expect(grid.total).toBe(DOCS);
      expect(grid.columns.map(c => c.name)).toEqual([
        '_id',
        '_index',
        'n',
        'name'
      ]);
      expect(grid.first.rows).toHaveLength(BLOCK);
      expect(grid.first.rows[0]?.name).toMatch(/^doc <b>\d+<\/b>$/);
      await close(grid.gridId);
    });

    it('an open asked for the first screen only answers its rows sooner, with the exact total; block 0 read next is whole and starts with them', async () => {
      const whole = await open(SMALL);
      const grid = expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: SMALL,
          blockSize: BLOCK,
          firstRows: 4
        }),
        'opened'
      );
      expect(grid.total).toBe(DOCS);
      expect(grid.first.rows.map(r => r.n)).toEqual(
        whole.first.rows.slice(0, 4).map(r => r.n)
      );
      expect(grid.first.keys).toHaveLength(4);
      // One search of 4 documents: the engine was not asked for the block's other rows.
      const searches = grid.first.requests.filter(r =>
        r.path.endsWith('/_search')
      );
      expect(searches).toHaveLength(1);
      const block0 = await read(grid.gridId, 0);
      expect(block0.rows.map(r => r.n)).toEqual(whole.first.rows.map(r => r.n));
      const block1 = await read(grid.gridId, 1);
      expect(block1.offset).toBe(BLOCK);
      expect(block1.rows).toHaveLength(BLOCK);
      await close(grid.gridId);
      await close(whole.gridId);
    });

    it('reads every row exactly once across the from/size → search_after boundary, one request a block when scrolled', async () => {
      const grid = await open(SMALL);
      const seen: number[] = grid.first.rows.map(r => r.n as number);
      for (let block = 1; block * BLOCK < DOCS; block++) {
        const b = await read(grid.gridId, block);
        expect(b.offset).toBe(block * BLOCK);
        seen.push(...b.rows.map(r => r.n as number));
        // Scrolling forward: the previous block left a checkpoint, so one search (two where the window ends mid-block).
        const expected =
          block * BLOCK < SMALL_WINDOW && (block + 1) * BLOCK > SMALL_WINDOW
            ? 2
            : 1;
        expect(b.requests).toHaveLength(expected);
      }
      expect(seen).toHaveLength(DOCS);
      expect(new Set(seen).size).toBe(DOCS);
      // Revisiting a passed block past the window is one request, and the same rows.
      const again = await read(grid.gridId, 7);
      expect(again.requests).toHaveLength(1);
      expect(again.rows.map(r => r.n)).toEqual(seen.slice(70, 80));
      await close(grid.gridId);
    });

    /** Every row's n in the grid's order, read block by block from the start. */
    const scrolledOrder = async (view?: Record<string, unknown>) => {
      const grid = expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: SMALL,
          blockSize: BLOCK,
          ...(view ? { view } : {})
        }),
        'opened'
      );
      const order: number[] = grid.first.rows.map(r => r.n as number);
      for (let block = 1; block * BLOCK < grid.total; block++) {
        order.push(
          ...(await read(grid.gridId, block)).rows.map(r => r.n as number)
        );
      }
      await close(grid.gridId);
      return order;
    };

    it('a far jump in the index order lands on the rows a scrolled read has there: one search from the row before it on Elasticsearch, a walk on OpenSearch', async () => {
      const order = await scrolledOrder();
      const jumped = await open(SMALL);
      // Rows 60-69: neither the window from the start nor the window from the end reaches them.
      const far = await read(jumped.gridId, 6);
      expect(far.rows.map(r => r.n)).toEqual(order.slice(60, 70));
      const walks = far.requests.filter(r =>
        r.path.includes('filter_path=pit_id,hits.hits.sort')
      );
      if (target.name.includes('OpenSearch')) {
        // No _shard_doc: from the window's last row to row 60 in steps of at most the window, then one read.
        expect(walks.length).toBeGreaterThanOrEqual(
          Math.ceil((60 - SMALL_WINDOW) / SMALL_WINDOW)
        );
      } else {
        // The first and the last row's _shard_doc are 94 apart over 95 rows: row 60 is the first
        // one's plus 60. One reversed search for the last row's value, then the block.
        expect(far.requests).toHaveLength(2);
        expect(walks).toHaveLength(1);
        // The last row's value is known now: another far jump is one search.
        const other = await read(jumped.gridId, 4);
        expect(other.requests).toHaveLength(1);
        expect(other.rows.map(r => r.n)).toEqual(order.slice(40, 50));
      }
      expect(far.requests[far.requests.length - 1]?.path).toBe('/_search');
      // The jump left checkpoints: the block after it is one request.
      const next = await read(jumped.gridId, 7);
      expect(next.requests).toHaveLength(1);
      expect(next.rows.map(r => r.n)).toEqual(order.slice(70, 80));
      await close(jumped.gridId);
    });

    it('a far jump in a filtered grid in the index order, whose rows skip documents, walks to its rows: the rows a scrolled read has there', async () => {
      const view = {
        filters: [{ column: 'n', operator: 'not equals', value: '7' }],
        join: 'all',
        sort: []
      };
      const order = await scrolledOrder(view);
      expect(order).toHaveLength(DOCS - 1);
      const jumped = expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: SMALL,
          blockSize: BLOCK,
          view
        }),
        'opened'
      );
      // Rows 50-59 (of 94): past the window from either end.
      const far = await read(jumped.gridId, 5);
      expect(far.rows.map(r => r.n)).toEqual(order.slice(50, 60));
      expect(
        far.requests.filter(r =>
          r.path.includes('filter_path=pit_id,hits.hits.sort')
        ).length
      ).toBeGreaterThanOrEqual(Math.ceil((50 - SMALL_WINDOW) / SMALL_WINDOW));
      await close(jumped.gridId);
    });

    it('two far blocks of a sorted grid asked for at once (a jump shows two) walk once: the second goes on from where the first stopped', async () => {
      const view = {
        filters: [],
        join: 'all',
        sort: [{ column: 'n', direction: 'desc' }]
      };
      const order = await scrolledOrder(view);
      const jumped = expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: SMALL,
          blockSize: BLOCK,
          view
        }),
        'opened'
      );
      const [a, b] = await Promise.all([
        read(jumped.gridId, 5),
        read(jumped.gridId, 6)
      ]);
      expect(a.rows.map(r => r.n)).toEqual(order.slice(50, 60));
      expect(b.rows.map(r => r.n)).toEqual(order.slice(60, 70));
      const walks = [...a.requests, ...b.requests].filter(r =>
        r.path.includes('filter_path=pit_id,hits.hits.sort')
      );
      // At most the window's last row, one step to row 50, one more to row 60: not two walks from
      // the window (where the engine lets the grid count its way to row 50, fewer steps).
      await close(jumped.gridId);
      expect(walks.length).toBeGreaterThanOrEqual(1);
      expect(walks.length).toBeLessThanOrEqual(3);
    });

    it('the last block (Ctrl-End) is one search in the reversed order, its rows in place; scrolling up from it is one search a block', async () => {
      const scrolled = await open(SMALL);
      const order: number[] = scrolled.first.rows.map(r => r.n as number);
      const ids: string[] = scrolled.first.keys?.map(k => k.id) ?? [];
      for (let block = 1; block * BLOCK < DOCS; block++) {
        const b = await read(scrolled.gridId, block);
        order.push(...b.rows.map(r => r.n as number));
        ids.push(...(b.keys?.map(k => k.id) ?? []));
      }
      const jumped = await open(SMALL);
      const last = await read(jumped.gridId, Math.floor((DOCS - 1) / BLOCK));
      expect(last.requests).toHaveLength(1);
      expect(last.requests[0]?.path).toBe('/_search');
      expect(last.rows.map(r => r.n)).toEqual(
        order.slice(Math.floor((DOCS - 1) / BLOCK) * BLOCK)
      );
      expect(last.keys?.map(k => k.id)).toEqual(
        ids.slice(Math.floor((DOCS - 1) / BLOCK) * BLOCK)
      );
      // Up from the end, block by block down to past the window: one search each, the same rows.
      for (
        let block = Math.floor((DOCS - 1) / BLOCK) - 1;
        block * BLOCK >= SMALL_WINDOW;
        block--
      ) {
        const b = await read(jumped.gridId, block);
        expect(b.requests).toHaveLength(1);
        expect(b.rows.map(r => r.n)).toEqual(
          order.slice(block * BLOCK, (block + 1) * BLOCK)
        );
      }
      await close(scrolled.gridId);
      await close(jumped.gridId);
    });

    it('sorted by a field with missing and repeated values, the last block read from the end holds the rows a scrolled read ends with', async () => {
      const view = {
        filters: [],
        join: 'all',
        sort: [{ column: 'name', direction: 'desc' }]
      };
      const openSorted = async () =>
        expectReply(
          await call({
            type: 'open',
            connection: 'es',
            target: GAPS,
            blockSize: BLOCK,
            view
          }),
          'opened'
        );
      const scrolled = await openSorted();
      const ids: string[] = scrolled.first.keys?.map(k => k.id) ?? [];
      for (let block = 1; block * BLOCK < GAPS_DOCS; block++) {
        ids.push(
          ...((await read(scrolled.gridId, block)).keys?.map(k => k.id) ?? [])
        );
      }
      expect(ids).toHaveLength(GAPS_DOCS);
      const jumped = await openSorted();
      const lastBlock = Math.floor((GAPS_DOCS - 1) / BLOCK);
      const last = await read(jumped.gridId, lastBlock);
      expect(last.requests).toHaveLength(1);
      expect(last.keys?.map(k => k.id)).toEqual(ids.slice(lastBlock * BLOCK));
      if (!target.name.includes('OpenSearch')) {
        // Documents without the field sort last in the view's order: they end the index.
        expect(last.rows.at(-1)?.name ?? null).toBeNull();
      }
      const before = await read(jumped.gridId, lastBlock - 1);
      expect(before.requests).toHaveLength(1);
      expect(before.keys?.map(k => k.id)).toEqual(
        ids.slice((lastBlock - 1) * BLOCK, lastBlock * BLOCK)
      );
      await close(scrolled.gridId);
      await close(jumped.gridId);
    });

    it('a block past the end is empty', async () => {
      const grid = await open(SMALL);
      expect((await read(grid.gridId, 50)).rows).toEqual([]);
      await close(grid.gridId);
    });

    it('closing a grid releases its point in time; refresh opens a new one and closes the old', async () => {
      const before = await openContexts();
      const grid = await open(SMALL);
      expect(await openContexts()).toBe(before + 1);
      const added = await kernel.execute(
        `%use es\nPUT /${SMALL}/_doc/extra?refresh=true\n{"n": 1000, "name": "late"}`
      );
      expect(added.reply.content).toMatchObject({ status: 'ok' });
      const refreshed = expectReply(
        await call({ type: 'refresh', gridId: grid.gridId }),
        'opened'
      );
      expect(refreshed.total).toBe(DOCS + 1);
      expect(await openContexts()).toBe(before + 1);
      expect(expectReply(await close(grid.gridId), 'closed').gridId).toBe(
        grid.gridId
      );
      expect(await openContexts()).toBe(before);
      const gone = expectReply(
        await call({ type: 'read', gridId: grid.gridId, block: 0 }),
        'error'
      );
      expect(gone.message).toContain('open it again from the panel');
      await kernel.execute(`%use es\nDELETE /${SMALL}/_doc/extra?refresh=true`);
    });

    it('closing the comm releases the grids it opened', async () => {
      const other = await PanelCommClient.open(kernel);
      const before = await openContexts();
      expectReply(
        await call(
          { type: 'open', connection: 'es', target: SMALL, blockSize: BLOCK },
          other
        ),
        'opened'
      );
      expect(await openContexts()).toBe(before + 1);
      await kernel.submit('shell', 'comm_close', {
        comm_id: other.commId,
        data: {}
      });
      const deadline = Date.now() + 5000;
      while ((await openContexts()) > before && Date.now() < deadline) {
        await new Promise(r => setTimeout(r, 50));
      }
      expect(await openContexts()).toBe(before);
    });

    it('%connect under the same name ends the grids of the connection it replaces: told at once, said again on every later read, point in time released', async () => {
      const before = await openContexts();
      const grid = await open(SMALL);
      const { reply } = await kernel.execute(
        `%connect elasticsearch ${engine.url} name=es`
      );
      expect(reply.content.status).toBe('ok');
      // Unasked, before the cell's reply: the panel learns it without scrolling.
      const told = kernel
        .iopubMessages()
        .filter(KernelMessage.isCommMsgMsg)
        .map(m => m.content.data)
        .find(d => d.type === 'ended' && d.gridId === grid.gridId);
      expect(told).toMatchObject({
        requestId: null,
        message: expect.stringMatching(
          /^connection replaced: reopen\. %connect opened "es" again/
        )
      });
      const later = expectReply(
        await call({ type: 'read', gridId: grid.gridId, block: 1 }),
        'error'
      );
      expect(later.message).toMatch(/^connection replaced: reopen/);
      const deadline = Date.now() + 5000;
      while ((await openContexts()) > before && Date.now() < deadline) {
        await new Promise(r => setTimeout(r, 50));
      }
      expect(await openContexts()).toBe(before);
      // Reopening works on the new connection; closing the ended grid (its tab) is answered, not refused.
      const again = await open(SMALL);
      expect((await read(again.gridId, 1)).rows).toHaveLength(BLOCK);
      expect(expectReply(await close(grid.gridId), 'closed').gridId).toBe(
        grid.gridId
      );
      await close(again.gridId);
    });

    it('an engine error is an error reply with the engine reason', async () => {
      const reply = expectReply(
        await call({
          type: 'open',
          connection: 'es',
          target: `missing-${suffix}`
        }),
        'error'
      );
      expect(reply.message).toMatch(/index_not_found_exception|no such index/);
      expect(reply.status).toBe(404);
    });

    it('stopping the kernel releases the points in time of open grids', async () => {
      const before = await openContexts();
      await open(SMALL);
      expect(await openContexts()).toBe(before + 1);
      await kernel.request('control', 'shutdown_request', { restart: false });
      await kernel.exited();
      expect(await openContexts()).toBe(before);
    });
  }
);

let kernel: KernelClient;
let servers: ListeningServer[] = [];
let commId: string;

beforeAll(async () => {
  const ts = createTypesenseSandbox({
    version: '29.0',
    apiKey: SECRETS.TS_API_KEY
  });
  generateBooksSample(ts);
  servers = [await listen(ts.handler, { port: 0 })];
  kernel = await KernelClient.start({ ...SECRETS });
  const { reply } = await kernel.execute(
    `%connect typesense ${servers[0]?.url} key=\${env:TS_API_KEY} name=ts`
  );
  expect(reply.content.status).toBe('ok');
  commId = await openComm();
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await Promise.all(servers.map(s => s.close()));
});

async function openComm(): Promise<string> {
  const id = randomUUID();
  await kernel.submit('shell', 'comm_open', {
    comm_id: id,
    target_name: PANEL_COMM_TARGET,
    data: {}
  });
  return id;
}

/** Sends one message on the comm and waits for the reply carrying the same request id. */
async function call(
  data: Record<string, unknown>,
  comm = commId,
  timeoutMs = 20_000
): Promise<GridReply> {
  const requestId =
    typeof data.requestId === 'string' ? data.requestId : randomUUID();
  await kernel.submit('shell', 'comm_msg', {
    comm_id: comm,
    data: { v: PANEL_PROTOCOL_VERSION, requestId, ...data }
  });
  return waitForReply(requestId, timeoutMs);
}

async function waitForReply(
  requestId: string | null,
  timeoutMs = 20_000
): Promise<GridReply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = kernel
      .iopubMessages()
      .filter(KernelMessage.isCommMsgMsg)
      .filter(m => m.content.data.requestId === requestId);
    if (found.length > 1) {
      throw new Error(
        `request ${requestId} was answered ${found.length} times`
      );
    }
    if (found[0]) {
      return GridReplySchema.parse(found[0].content.data);
    }
    if (Date.now() > deadline) {
      throw new Error(`no reply to ${requestId}: ${kernel.stderr}`);
    }
    await kernel.nextIopub();
  }
}

const open = async (connection: string, target: string, blockSize = BLOCK) =>
  expectReply(
    await call({ type: 'open', connection, target, blockSize }),
    'opened'
  );
const read = async (gridId: string, block: number) =>
  expectReply(await call({ type: 'read', gridId, block }), 'block').block;

describe('listing', () => {
  it('lists the open connections', async () => {
    const reply = expectReply(
      await call({ type: 'connections' }),
      'connections'
    );
    expect(reply.connections.map(c => [c.name, c.engine])).toEqual([
      ['ts', 'typesense']
    ]);
  });

  it('Typesense: collections with their document counts', async () => {
    const reply = expectReply(
      await call({ type: 'targets', connection: 'ts' }),
      'targets'
    );
    expect(reply.targets.map(t => t.name)).toEqual(
      expect.arrayContaining(['books'])
    );
    expect(reply.targets.every(t => typeof t.count === 'number')).toBe(true);
    expect(reply.note).toBeUndefined();
  });

  it('an unknown connection is an error reply naming it', async () => {
    const reply = expectReply(
      await call({ type: 'targets', connection: 'nope' }),
      'error'
    );
    // It names the connections that are open, so the panel says what to pick instead.
    expect(reply.message).toMatch(
      /^No open connection is named "nope"\. Open: \S/
    );
  });
});

describe('Typesense grid', () => {
  it('a block of 1,000 rows is one multi_search of four 250-document searches', async () => {
    const listed = expectReply(
      await call({ type: 'targets', connection: 'ts' }),
      'targets'
    );
    const books = listed.targets.find(t => t.name === 'books');
    const grid = await open('ts', 'books', 1000);
    expect(grid.total).toBe(books?.count);
    expect(grid.first.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'POST /multi_search'
    ]);
    expect(grid.first.rows).toHaveLength(Math.min(1000, grid.total));
    expect(grid.columns[0]).toMatchObject({
      name: 'id',
      primaryKey: true,
      readOnly: true
    });
    const ids = grid.first.rows.map(r => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    await call({ type: 'close', gridId: grid.gridId });
  });

  it('an open asked for the first screen only is one search of that many documents; block 0 read next is whole', async () => {
    const grid = expectReply(
      await call({
        type: 'open',
        connection: 'ts',
        target: 'books',
        blockSize: 1000,
        firstRows: 100
      }),
      'opened'
    );
    expect(grid.first.rows).toHaveLength(100);
    expect(grid.first.requests).toHaveLength(1);
    const block0 = await read(grid.gridId, 0);
    expect(block0.rows).toHaveLength(Math.min(1000, grid.total));
    expect(block0.rows.slice(0, 100).map(r => r.id)).toEqual(
      grid.first.rows.map(r => r.id)
    );
    await call({ type: 'close', gridId: grid.gridId });
  });

  it('blocks of 250 rows page through the whole collection once', async () => {
    const grid = await open('ts', 'books', 250);
    const ids = grid.first.rows.map(r => r.id);
    for (let block = 1; block * 250 < grid.total; block++) {
      ids.push(...(await read(grid.gridId, block)).rows.map(r => r.id));
    }
    expect(ids).toHaveLength(grid.total);
    expect(new Set(ids).size).toBe(grid.total);
  });

  it('a search-only key connects, lists nothing with the reason, and still opens a collection by name', async () => {
    const created = await kernel.execute(
      '%use ts\nPOST /keys\n{"description": "search only", "actions": ["documents:search"], "collections": ["*"]}'
    );
    expect(created.reply.content.status).toBe('ok');
    const value = created.iopub
      .filter(KernelMessage.isDisplayDataMsg)
      .map(m => m.content.data['application/json'])
      .map(json =>
        typeof json === 'object' && !Array.isArray(json)
          ? json.value
          : undefined
      )
      .find(v => v !== undefined);
    expect(typeof value).toBe('string');
    const scoped = await KernelClient.start({
      ...SECRETS,
      SCOPED_KEY: String(value)
    });
    try {
      const { reply, iopub } = await scoped.execute(
        `%connect typesense ${servers[0]?.url} key=\${env:SCOPED_KEY} name=scoped`
      );
      expect(reply.content.status).toBe('ok');
      expect(JSON.stringify(iopub.map(m => m.content))).toContain(
        'may not list collections'
      );
      const previous = kernel;
      kernel = scoped;
      try {
        const comm = await openComm();
        const listing = expectReply(
          await call({ type: 'targets', connection: 'scoped' }, comm),
          'targets'
        );
        expect(listing.targets).toEqual([]);
        expect(listing.note).toMatch(
          /may not list collections.*collections:list/
        );
        const grid = expectReply(
          await call(
            {
              type: 'open',
              connection: 'scoped',
              target: 'books',
              blockSize: 100
            },
            comm
          ),
          'opened'
        );
        expect(grid.first.rows).toHaveLength(100);
      } finally {
        kernel = previous;
      }
    } finally {
      await scoped.close();
    }
  }, 30_000);
});

describe('malformed messages', () => {
  it('a message without a known type gets an error reply with its request id', async () => {
    const reply = expectReply(await call({ type: 'explode' }), 'error');
    expect(reply.message).toMatch(
      /^searchbook\.panel cannot read this message/
    );
  });

  it('a read without a grid id names the missing field', async () => {
    const reply = expectReply(await call({ type: 'read', block: 1 }), 'error');
    expect(reply.message).toContain('gridId');
  });

  it('another protocol version is refused with what to do', async () => {
    const requestId = randomUUID();
    await kernel.submit('shell', 'comm_msg', {
      comm_id: commId,
      data: { v: 99, requestId, type: 'connections' }
    });
    const reply = expectReply(await waitForReply(requestId), 'error');
    expect(reply.message).toContain('reload the page');
  });

  it('garbage without a request id gets an error reply with a null request id, and the kernel keeps serving', async () => {
    await kernel.submit('shell', 'comm_msg', {
      comm_id: commId,
      data: { nonsense: [1, 2, 3] }
    });
    const reply = expectReply(await waitForReply(null), 'error');
    expect(reply.requestId).toBeNull();
    expect(
      expectReply(await call({ type: 'connections' }), 'connections')
        .connections
    ).toHaveLength(1);
  });
});
