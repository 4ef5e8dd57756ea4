/**
 * The grid's filter bar and engine sorting over the wire (kernel over ZeroMQ, engines over
 * HTTP), what is Elasticsearch's own, against the sandbox and the real nodes alike: paging past
 * max_result_window under a point in time, far jumps in sorted order, nested leaves and nested
 * grouping, the raw query_string row, the case control, every operator counted against the
 * data, and a cell's Copy as curl across connections. What every engine's grid does is in
 * test/engines/contract.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import type { FilterRow, GridView } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../../support/elasticsearch-targets';
import { answerFor } from '../../support/real-node-differences';
import { generateProducts } from '@searchbook/sandbox/data/generate-products';
import { REAL_NODE_PRODUCTS } from '../../support/real-elasticsearch/products';
import type { KernelClient } from '../../support/kernel-client';
import {
  allRows,
  expectReply,
  type PanelCommClient,
  kernelWithPanelCommBeside,
  type OpenedGrid as Opened
} from '../../panel/panel-comm-client';
import { jsonFromNode } from '../../support/real-elasticsearch/launch';

const run = promisify(execFile);
const WINDOW = 20;
const BLOCK = 8;
const DOCS = 120;
const TAGS = ['red', 'green', 'blue'];

const SHOP_DOCS = Array.from({ length: DOCS }, (_, n) => ({
  title: `Product ${String(n).padStart(3, '0')}`,
  tag: TAGS[n % 3] ?? 'red',
  // Distinct prices, not in id order, so a sort is visible and has no ties.
  price: ((n * 37) % DOCS) + 0.5,
  rank: n,
  // Missing from every fourth document and two values in every fifth: the reversed read of the
  // last rows must put the missing ones and the arrays where the forward order does.
  ...(n % 4 === 0 ? {} : { discount: n % 5 === 0 ? [n % 7, 9] : n % 7 }),
  added: new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10),
  variants: [
    { sku: `S${n % 5}`, stock: n % 2 },
    { sku: `T${n % 4}`, stock: 1 - (n % 2) }
  ]
}));

let tsServer: ListeningServer;

beforeAll(async () => {
  const ts = createTypesenseSandbox({
    version: '29.0',
    apiKey: SECRETS.TS_API_KEY
  });
  ts.createCollection({
    name: 'items',
    fields: [
      { name: 'title', type: 'string', sort: true },
      { name: 'tag', type: 'string', facet: true },
      { name: 'price', type: 'float' },
      { name: 'rank', type: 'int32' }
    ]
  });
  ts.loadDocuments(
    'items',
    Array.from({ length: 700 }, (_, n) => ({
      id: `i${n}`,
      title: `Item ${String(n).padStart(4, '0')}`,
      tag: TAGS[n % 3] ?? 'red',
      price: ((n * 37) % 700) + 0.5,
      rank: n
    }))
  );
  tsServer = await listen(ts.handler, { port: 0 });
});

afterAll(async () => {
  await tsServer?.close();
});

const open = (
  comm: PanelCommClient,
  connection: string,
  target: string,
  view: Partial<GridView>,
  blockSize = BLOCK
) =>
  comm.expect({ type: 'open', connection, target, blockSize, view }, 'opened');

/** Runs the grid's "Copy as curl" command with the credential in the environment, as a user would. */
async function curl(command: string): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', command], {
    env: { PATH: process.env.PATH ?? '', TS_API_KEY: SECRETS.TS_API_KEY }
  });
  return JSON.parse(stdout);
}

const SearchAnswer = z.object({
  hits: z.object({
    total: z.object({ value: z.number() }),
    hits: z.array(z.object({ _id: z.string() }))
  })
});
const IndexStats = z.object({
  _all: z.object({
    total: z.object({ search: z.object({ open_contexts: z.number() }) })
  })
});

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  "the grid's filters and engine sorting",
  target => {
    // This run's own index: a real node is shared by the run's suites.
    const SHOP = `grid-view-shop-${randomUUID().slice(0, 8)}`;
    let engine: RunningEsTarget;
    let kernel: KernelClient;
    let comm: PanelCommClient;
    const call = (data: Record<string, unknown>) => comm.call(data);
    const openShop = (view: Partial<GridView>) => open(comm, 'es', SHOP, view);
    const close = (grid: Opened) =>
      call({ type: 'close', gridId: grid.gridId });

    /** Search contexts open on the index, by the engine's own stats: one per point in time. */
    const openContexts = async () =>
      IndexStats.parse(
        await jsonFromNode(engine, 'GET', `/${SHOP}/_stats/search`)
      )._all.total.search.open_contexts;

    beforeAll(async () => {
      engine = await target.start({ security: false });
      const mappings = {
        properties: {
          title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
          tag: { type: 'keyword' },
          price: { type: 'double' },
          rank: { type: 'integer' },
          discount: { type: 'integer' },
          added: { type: 'date' },
          variants: {
            type: 'nested',
            properties: { sku: { type: 'keyword' }, stock: { type: 'integer' } }
          }
        }
      };
      const makeShop = async () => {
        await jsonFromNode(
          engine,
          'PUT',
          `/${SHOP}`,
          JSON.stringify({
            settings: {
              number_of_shards: 1,
              number_of_replicas: 0,
              max_result_window: WINDOW
            },
            mappings
          })
        );
        const lines = SHOP_DOCS.map(
          (doc, n) =>
            `${JSON.stringify({ index: { _id: `p${n}` } })}\n${JSON.stringify(doc)}\n`
        );
        await jsonFromNode(
          engine,
          'POST',
          `/${SHOP}/_bulk?refresh=true`,
          lines.join('')
        );
      };
      // The kernel starts while the index is made.
      ({ kernel, comm } = await kernelWithPanelCommBeside(
        makeShop,
        [
          `%connect elasticsearch ${engine.url} name=es`,
          `%connect typesense ${tsServer.url} key=\${env:TS_API_KEY} name=ts`
        ],
        { ...SECRETS }
      ));
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      await kernel?.close();
      if (engine) {
        await jsonFromNode(engine, 'DELETE', `/${SHOP}`).catch(() => undefined);
      }
      await engine?.close();
    });

    const view: Partial<GridView> = {
      filters: [
        { column: 'tag', operator: 'in list', value: ['red', 'blue'] },
        { column: 'price', operator: 'greater than', value: '15' }
      ],
      sort: [{ column: 'price', direction: 'desc' }]
    };

    it("a filtered, sorted grid pages past max_result_window through exactly the engine's answer to its cell", async () => {
      const grid = await openShop(view);
      const [requestLine, ...bodyLines] = grid.request.cell.split('\n');
      expect(requestLine).toBe(`POST /${SHOP}/_search`);
      expect(grid.matchCaseSupported).toBe(true);
      expect(grid.rawFilterHint).toContain('query string');
      // The same request, straight to the engine, asking for everything at once (the window does not bind a fresh search of this size).
      const body = JSON.parse(bodyLines.join('\n')) as Record<string, unknown>;
      const answer = SearchAnswer.parse(
        await jsonFromNode(
          engine,
          'POST',
          `/${SHOP}/_search`,
          JSON.stringify({ ...body, size: WINDOW })
        )
      );
      const expectedTotal = Array.from({ length: DOCS }, (_, n) => n).filter(
        n => n % 3 !== 1 && ((n * 37) % DOCS) + 0.5 > 15
      ).length;
      expect(grid.total).toBe(expectedTotal);
      expect(answer.hits.total.value).toBe(expectedTotal);
      const rows = await allRows(comm, grid);
      expect(rows).toHaveLength(expectedTotal);
      expect(rows.slice(0, WINDOW).map(r => r._id)).toEqual(
        answer.hits.hits.map(h => h._id)
      );
      const prices = rows.map(r => Number(r.price));
      expect(prices).toEqual([...prices].sort((a, b) => b - a));
      expect(rows.every(r => r.tag !== 'green' && Number(r.price) > 15)).toBe(
        true
      );
    });

    it('a far jump in a filtered, sorted grid walks the sorted order: the block equals the scrolled rows', async () => {
      const sortedView: Partial<GridView> = {
        filters: [{ column: 'tag', operator: 'not equals', value: 'green' }],
        sort: [{ column: 'price', direction: 'asc' }]
      };
      const scrolled = await allRows(comm, await openShop(sortedView));
      const jumped = await openShop(sortedView);
      const far = expectReply(
        await call({ type: 'read', gridId: jumped.gridId, block: 6 }),
        'block'
      ).block;
      expect(
        far.requests.some(r =>
          r.path.includes('filter_path=pit_id,hits.hits.sort')
        )
      ).toBe(true);
      expect(far.rows.map(r => r._id)).toEqual(
        scrolled.slice(48, 56).map(r => r._id)
      );
      await close(jumped);
    });

    it.each([
      ['ascending', 'asc'],
      ['descending', 'desc']
    ] as const)(
      'the last rows of a grid sorted %s on a column some documents lack (arrays in others) are one search, in the engine’s order',
      async (_, direction) => {
        const tailView: Partial<GridView> = {
          sort: [
            { column: 'discount', direction },
            { column: 'variants.sku', direction: 'desc' }
          ]
        };
        // Documents without the column sort last in both orders, then by the SKU column (every
        // one of them has T0 as its largest SKU), then by the tie-breaker: index order on
        // Elasticsearch (one shard, one bulk), _id on OpenSearch.
        const inIndexOrder = SHOP_DOCS.flatMap((doc, n) =>
          'discount' in doc ? [] : [`p${n}`]
        );
        const lacking = target.name.includes('OpenSearch')
          ? [...inIndexOrder].sort()
          : inIndexOrder;
        const jumped = await openShop(tailView);
        const lastBlock = DOCS / BLOCK - 1;
        const last = expectReply(
          await call({ type: 'read', gridId: jumped.gridId, block: lastBlock }),
          'block'
        ).block;
        expect(last.requests.map(r => `${r.method} ${r.path}`)).toEqual([
          'POST /_search'
        ]);
        expect(last.rows.map(r => r._id)).toEqual(lacking.slice(-BLOCK));
        // The block before it is within the window of the end too: one search.
        const before = expectReply(
          await call({
            type: 'read',
            gridId: jumped.gridId,
            block: lastBlock - 1
          }),
          'block'
        ).block;
        expect(before.requests).toHaveLength(1);
        expect(before.rows.map(r => r._id)).toEqual(
          lacking.slice(-2 * BLOCK, -BLOCK)
        );
        await close(jumped);
      }
    );

    it("a sort on a nested leaf column: the first window is the engine's answer to the cell and a far jump lands in the scrolled order", async () => {
      const nestedView: Partial<GridView> = {
        sort: [
          { column: 'variants.sku', direction: 'desc' },
          { column: 'price', direction: 'asc' }
        ]
      };
      const grid = await openShop(nestedView);
      expect(grid.sortedBy).toEqual(['variants.sku', 'price']);
      const body = JSON.parse(
        grid.request.cell.split('\n').slice(1).join('\n')
      ) as Record<string, unknown>;
      const answer = SearchAnswer.parse(
        await jsonFromNode(
          engine,
          'POST',
          `/${SHOP}/_search`,
          JSON.stringify({ ...body, size: WINDOW })
        )
      );
      const scrolled = await allRows(comm, grid);
      expect(scrolled.slice(0, WINDOW).map(r => r._id)).toEqual(
        answer.hits.hits.map(h => h._id)
      );
      const jumped = await openShop(nestedView);
      const far = expectReply(
        await call({ type: 'read', gridId: jumped.gridId, block: 12 }),
        'block'
      ).block;
      expect(far.rows.map(r => r._id)).toEqual(
        scrolled.slice(96, 104).map(r => r._id)
      );
      await close(jumped);
    });

    it('a text column sorts on its keyword subfield; _id is dropped with a note and the rows keep their order for it (OpenSearch sorts on _id)', async () => {
      const sortsOnId = answerFor(target, 'opensearch-sorts-on-id', {
        asEight: false,
        otherwise: true
      });
      const grid = await openShop({
        sort: [
          { column: '_id', direction: 'asc' },
          { column: 'title', direction: 'desc' }
        ],
        filters: [{ column: 'rank', operator: 'less than', value: '30' }]
      });
      const rows = await allRows(comm, grid);
      if (sortsOnId) {
        expect(grid.notes).toEqual([]);
        expect(grid.sortedBy).toEqual(['_id', 'title']);
        expect(rows).toHaveLength(30);
        expect(rows.map(r => r._id)).toEqual(rows.map(r => r._id).sort());
        return;
      }
      expect(grid.notes).toEqual([
        expect.stringContaining('Not sorted by _id')
      ]);
      expect(grid.sortedBy).toEqual(['title']);
      expect(rows.map(r => r.rank)).toEqual(
        Array.from({ length: 30 }, (_, n) => 29 - n)
      );
    });

    it('nested rows on different elements match more documents than the same rows grouped on one element', async () => {
      const rows = (element?: string): FilterRow[] => [
        {
          column: 'variants.sku',
          operator: 'equals',
          value: 'S0',
          ...(element ? { element } : {})
        },
        {
          column: 'variants.stock',
          operator: 'equals',
          value: '1',
          ...(element ? { element } : {})
        }
      ];
      const apart = await openShop({ filters: rows() });
      const together = await openShop({ filters: rows('1') });
      // S0 is every fifth product; its stock is 1 only on even ones, while the other element covers the odd ones.
      expect(apart.total).toBe(DOCS / 5);
      expect(together.total).toBe(DOCS / 10);
      await Promise.all([apart, together].map(close));
    });

    it('the raw row is a query_string; the case control off matches any case', async () => {
      const raw = await openShop({ raw: 'tag:green AND rank:<10' });
      expect(raw.total).toBe(3);
      const anyCase = await openShop({
        filters: [{ column: 'tag', operator: 'equals', value: 'RED' }],
        matchCase: false
      });
      expect(anyCase.total).toBe(DOCS / 3);
      const exact = await openShop({
        filters: [{ column: 'tag', operator: 'equals', value: 'RED' }],
        matchCase: true
      });
      expect(exact.total).toBe(0);
      await Promise.all([raw, anyCase, exact].map(close));
    });

    it('string filters ignore case until Match case is ticked: a lowercase contains headphones finds the names holding Headphones', async () => {
      const holding = [...generateProducts(REAL_NODE_PRODUCTS)].filter(p =>
        String(p.source.name).includes('Headphones')
      );
      expect(holding.length).toBeGreaterThan(0);
      const filters: FilterRow[] = [
        { column: 'name', operator: 'contains', value: 'headphones' }
      ];
      // A view as the panel's bar first sends it: Match case not ticked.
      const anyCase = await open(comm, 'es', 'products', {
        filters,
        matchCase: false
      });
      expect(anyCase.first.rows.map(r => r._id).sort()).toEqual(
        holding.map(p => p.id).sort()
      );
      expect(anyCase.total).toBe(holding.length);
      expect(
        anyCase.operators.find(o => o.operator === 'contains')
      ).toMatchObject({
        label: 'contains',
        does: expect.stringContaining(
          'In any case unless Match case is on'
        ) as unknown
      });
      // A view that does not say matches any case too.
      const unsaid = await open(comm, 'es', 'products', { filters });
      expect(unsaid.total).toBe(holding.length);
      const exact = await open(comm, 'es', 'products', {
        filters,
        matchCase: true
      });
      expect(exact.total).toBe(0);
      await Promise.all([anyCase, unsaid, exact].map(close));
    });

    /** Operators on keyword, text, number, date and nested columns, each total against the same predicate over the loaded documents. */
    const rowCases: {
      row: FilterRow;
      matchCase?: boolean;
      holds: (doc: (typeof SHOP_DOCS)[number]) => boolean;
    }[] = [
      {
        row: { column: 'tag', operator: 'contains', value: 're' },
        holds: d => d.tag.includes('re')
      },
      {
        row: { column: 'tag', operator: 'contains', value: 'RE' },
        holds: d => d.tag.includes('RE')
      },
      {
        row: { column: 'tag', operator: 'contains', value: 'RE' },
        matchCase: false,
        holds: d => d.tag.includes('re')
      },
      {
        row: { column: 'tag', operator: 'not contains', value: 'lu' },
        holds: d => !d.tag.includes('lu')
      },
      {
        row: { column: 'tag', operator: 'ends with', value: 'EN' },
        matchCase: false,
        holds: d => d.tag.endsWith('en')
      },
      {
        row: { column: 'tag', operator: 'not in list', value: ['RED', 'blue'] },
        matchCase: false,
        holds: d => d.tag === 'green'
      },
      {
        row: { column: 'title', operator: 'starts with', value: 'Product 01' },
        holds: d => d.title.startsWith('Product 01')
      },
      {
        row: { column: 'title', operator: 'starts with', value: 'product 01' },
        holds: d => d.title.startsWith('product 01')
      },
      {
        row: { column: 'title', operator: 'starts with', value: 'product 01' },
        matchCase: false,
        holds: d => d.title.toLowerCase().startsWith('product 01')
      },
      {
        row: { column: 'title', operator: 'ends with', value: '7' },
        holds: d => d.title.endsWith('7')
      },
      {
        row: { column: 'title', operator: 'contains', value: '*' },
        holds: d => d.title.includes('*')
      },
      {
        row: {
          column: 'title',
          operator: 'matches regex',
          value: 'Product 1[01].'
        },
        holds: d => /^Product 1[01].$/.test(d.title)
      },
      {
        row: {
          column: 'title',
          operator: 'matches regex',
          value: 'PRODUCT 0.5'
        },
        matchCase: false,
        holds: d => /^PRODUCT 0.5$/i.test(d.title)
      },
      {
        row: { column: 'variants.sku', operator: 'starts with', value: 'S' },
        holds: d => d.variants.some(v => v.sku.startsWith('S'))
      },
      {
        row: { column: 'title', operator: 'contains', value: '?' },
        holds: d => d.title.includes('?')
      },
      // A text column with a keyword subfield equals exactly through it, in any case only with the case control off.
      {
        row: { column: 'title', operator: 'equals', value: 'product 011' },
        holds: d => d.title === 'product 011'
      },
      {
        row: { column: 'title', operator: 'equals', value: 'product 011' },
        matchCase: false,
        holds: d => d.title.toLowerCase() === 'product 011'
      },
      {
        row: { column: 'title', operator: 'not equals', value: 'PRODUCT 011' },
        matchCase: false,
        holds: d => d.title.toLowerCase() !== 'product 011'
      },
      {
        row: { column: 'price', operator: 'between', value: ['10', '20'] },
        holds: d => d.price >= 10 && d.price <= 20
      },
      {
        row: { column: 'rank', operator: 'in list', value: ['1', '2', '300'] },
        holds: d => [1, 2, 300].includes(d.rank)
      },
      {
        row: { column: 'tag', operator: 'is not empty', value: '' },
        holds: d => d.tag !== ''
      },
      {
        row: { column: 'tag', operator: 'is empty', value: '' },
        holds: d => d.tag === ''
      },
      {
        row: { column: 'added', operator: 'equals', value: '2024-02-29' },
        holds: d => d.added === '2024-02-29'
      },
      {
        row: { column: 'added', operator: 'greater than', value: '2024-03-01' },
        holds: d => Date.parse(d.added) > Date.parse('2024-03-01')
      },
      {
        row: {
          column: 'added',
          operator: 'between',
          value: ['2024-01-10', '2024-01-20']
        },
        holds: d => d.added >= '2024-01-10' && d.added <= '2024-01-20'
      },
      {
        row: {
          column: 'added',
          operator: 'less than',
          value: '2024-01-05T12:00:00Z'
        },
        holds: d => Date.parse(d.added) < Date.parse('2024-01-05T12:00:00Z')
      },
      {
        row: {
          column: 'variants.stock',
          operator: 'greater or equal',
          value: '1'
        },
        holds: d => d.variants.some(v => v.stock >= 1)
      }
    ];

    it.each(rowCases.map(c => ({ matchCase: true, ...c })))(
      'filter row $row.column $row.operator $row.value (match case $matchCase) counts what the predicate counts',
      async ({ row, matchCase, holds }) => {
        const grid = await openShop({ filters: [row], matchCase });
        expect(grid.total).toBe(SHOP_DOCS.filter(holds).length);
        await close(grid);
      }
    );

    it("a raw row the engine cannot parse comes back as the engine's error and leaves no point in time open", async () => {
      const before = await openContexts();
      const reply = await call({
        type: 'open',
        connection: 'es',
        target: SHOP,
        view: { raw: 'tag:(red' }
      });
      expect(expectReply(reply, 'error').message).toContain(
        'Failed to parse query [tag:(red]'
      );
      expect(await openContexts()).toBe(before);
    });

    it("the cells' Copy as curl: each request on the connection it would use; the engine answers the command as it answers the cell", async () => {
      const reply = expectReply(
        await call({
          type: 'curl',
          cell: `%use es\nPOST /${SHOP}/_search\n{"query": {"term": {"tag": "red"}}, "size": 0}\n%use ts\nGET /collections/items/documents/search?q=*&filter_by=rank:<3`
        }),
        'curl'
      );
      expect(reply.commands).toHaveLength(2);
      const [es, ts] = (await Promise.all(reply.commands.map(curl))) as [
        { hits: { total: { value: number } } },
        { found: number }
      ];
      expect(es.hits.total.value).toBe(DOCS / 3);
      expect(ts.found).toBe(3);
      expect(reply.commands[1]).toContain('"X-TYPESENSE-API-KEY: $TS_API_KEY"');
      expect(reply.commands.join('\n')).not.toContain(SECRETS.TS_API_KEY);
    });
  }
);
