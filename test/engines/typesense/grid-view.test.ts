/**
 * The grid's filter bar and sorting over the wire (kernel over ZeroMQ, the Typesense sandbox
 * and the run's real Typesense server over HTTP), what is Typesense's own: the request the grid offers as a cell and as curl, with
 * the key as an environment variable; operators Typesense cannot express refused with what
 * serves instead; contains and starts with named as word matches. What every engine's grid
 * does is in test/engines/contract.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FilterRow, GridView } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import {
  embeddedText,
  scopedKeyFromText
} from '../../../kernel/src/engines/typesense/scoped-key';
import type { KernelClient } from '../../support/kernel-client';
import { typesenseDiffers } from '../../support/real-typesense-differences';
import {
  type RunningTsTarget,
  TS_START_TIMEOUT_MS,
  typesenseTargets
} from '../../support/typesense-targets';
import {
  allRows,
  expectReply,
  type PanelCommClient,
  kernelWithPanelComm
} from '../../panel/panel-comm-client';

const run = promisify(execFile);
const BLOCK = 8;
const TAGS = ['red', 'green', 'blue'];

/** Titles where words, word starts and parts of words differ: "arden" is inside words only, "Gla" starts words but few titles. */
const TITLES = [
  'The Glass Castle',
  'Glass Houses',
  'A Garden of Verses',
  'Gardens of the Moon',
  'The Secret Garden',
  'Gladiator',
  'The Glade',
  'Wardens of the Glen',
  'GLASS and Steel',
  'Night Garden'
];
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(w => w !== '');

const COLLECTIONS = [
  {
    schema: {
      name: 'items',
      fields: [
        { name: 'title', type: 'string', sort: true },
        { name: 'tag', type: 'string', facet: true },
        { name: 'price', type: 'float' },
        { name: 'rank', type: 'int32' }
      ]
    },
    docs: Array.from({ length: 700 }, (_, n) => ({
      id: `i${n}`,
      title: `Item ${String(n).padStart(4, '0')}`,
      tag: TAGS[n % 3] ?? 'red',
      price: ((n * 37) % 700) + 0.5,
      rank: n
    }))
  },
  {
    schema: { name: 'titles', fields: [{ name: 'title', type: 'string' }] },
    docs: TITLES.map((title, n) => ({ id: `t${n}`, title }))
  }
];

/** A kernel with the grid comm open, connected by the given `%connect` lines. */
const gridKernel = (connects: string[]) =>
  kernelWithPanelComm(connects, { ...SECRETS });

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

describe.each(typesenseTargets('29.0'))('$name', target => {
  let engine: RunningTsTarget;
  let kernel: KernelClient;
  let comm: PanelCommClient;
  let items = 'items';
  let titles = 'titles';
  const call = (data: Record<string, unknown>) => comm.call(data);

  beforeAll(async () => {
    if (target.skipped) {
      throw new Error(target.skipped);
    }
    engine = await target.start(COLLECTIONS);
    items = engine.names['items'] ?? items;
    titles = engine.names['titles'] ?? titles;
    ({ kernel, comm } = await gridKernel([
      `%connect typesense ${engine.url} key=\${env:TS_API_KEY} name=ts`
    ]));
  }, TS_START_TIMEOUT_MS);

  afterAll(async () => {
    await kernel?.close();
    await engine?.close();
  });

  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'not equals', value: 'green' },
      { column: 'price', operator: 'between', value: ['100', '600'] }
    ],
    sort: [{ column: 'price', direction: 'asc' }]
  };

  it("a filtered, sorted grid equals the engine's answer to its curl command, run with the key in the environment", async () => {
    const grid = await open(comm, 'ts', items, view, 250);
    expect(grid.matchCaseSupported).toBe(false);
    expect(grid.request.curl).toContain('"X-TYPESENSE-API-KEY: $TS_API_KEY"');
    expect(grid.request.curl).not.toContain(SECRETS.TS_API_KEY);
    expect(
      JSON.parse(grid.request.cell.split('\n').slice(1).join('\n'))
    ).toEqual({
      searches: [
        {
          collection: items,
          q: '*',
          filter_by: 'tag:!=`green` && price:[100..600]',
          sort_by: 'price:asc',
          // A 0.24 server ignores offset and limit: its grids page.
          ...(typesenseDiffers(target.version, 'pages-only')
            ? { page: 1, per_page: 250 }
            : { offset: 0, limit: 250 })
        }
      ]
    });
    const answer = (await curl(grid.request.curl)) as {
      results: { found: number; hits: { document: { id: string } }[] }[];
    };
    const rows = await allRows(comm, grid);
    const expected = Array.from({ length: 700 }, (_, n) => n).filter(
      n =>
        n % 3 !== 1 &&
        ((n * 37) % 700) + 0.5 >= 100 &&
        ((n * 37) % 700) + 0.5 <= 600
    );
    expect(grid.total).toBe(expected.length);
    expect(answer.results[0]?.found).toBe(expected.length);
    expect(rows.slice(0, 250).map(r => r.id)).toEqual(
      answer.results[0]?.hits.map(h => h.document.id)
    );
    expect(rows.map(r => r.id)).toEqual(
      expected
        .sort((a, b) => ((a * 37) % 700) - ((b * 37) % 700))
        .map(n => `i${n}`)
    );
  });

  it('blocks whose reads do not start on a page of the engine still hold every document once, in order', async () => {
    // Blocks of 300 are read in searches of 250: the second starts at 300, inside a page of 250.
    const grid = await open(
      comm,
      'ts',
      items,
      { sort: [{ column: 'rank', direction: 'asc' }] },
      300
    );
    const rows = await allRows(comm, grid);
    expect(rows.map(r => r.id)).toEqual(
      Array.from({ length: 700 }, (_, n) => `i${n}`)
    );
  });

  it('an operator the engine cannot express is refused under its row with what serves instead, never "contains"', async () => {
    const endsWith = expectReply(
      await call({
        type: 'open',
        connection: 'ts',
        target: items,
        view: {
          filters: [{ column: 'title', operator: 'ends with', value: '7' }]
        }
      }),
      'error'
    );
    expect(endsWith.filterRow).toBe(0);
    expect(endsWith.message).toBe(
      'Typesense cannot filter with "ends with": Typesense filters match whole words and word starts, never the end of a value. To find text inside or at the end of words, declare the field infix: true in the schema and search it in a cell (q=<text>, query_by=<field>, infix=always); to match whole values, use equals or in list.'
    );
    const isNull = expectReply(
      await call({
        type: 'open',
        connection: 'ts',
        target: items,
        view: { filters: [{ column: 'title', operator: 'is null', value: '' }] }
      }),
      'error'
    );
    expect(isNull.message).toMatch(
      /^Typesense cannot filter with "is null": Typesense's filter_by has no test for a missing, null or empty value\. /
    );
    for (const message of [endsWith.message, isNull.message]) {
      expect(message).not.toMatch(/contains/);
    }
  });

  it('contains and starts with are named as Typesense does them: has word, has word starting with; the rows are word matches in any case', async () => {
    const titlesGrid = await open(comm, 'ts', titles, {}, 250);
    const named = new Map(titlesGrid.operators.map(o => [o.operator, o]));
    expect(named.get('contains')).toMatchObject({
      label: 'has word',
      does: expect.stringContaining('infix: true') as unknown
    });
    expect(named.get('not contains')?.label).toBe('lacks word');
    expect(named.get('starts with')?.label).toBe('has word starting with');
    expect(named.get('ends with')?.unavailable).toContain('infix: true');
    await call({ type: 'close', gridId: titlesGrid.gridId });
    const found = async (operator: FilterRow['operator'], value: string) =>
      (
        await allRows(
          comm,
          await open(
            comm,
            'ts',
            titles,
            { filters: [{ column: 'title', operator, value }] },
            250
          )
        )
      )
        .map(r => r.title)
        .sort();
    // A whole word, in any case: "Gardens" is another word.
    expect(await found('contains', 'garden')).toEqual(
      TITLES.filter(t => words(t).includes('garden')).sort()
    );
    // Inside words only: no word is "arden", though five titles hold it.
    expect(TITLES.filter(t => t.toLowerCase().includes('arden'))).toHaveLength(
      5
    );
    expect(await found('contains', 'arden')).toEqual([]);
    // Any word's start: "The Glass Castle" does not start with Gla, yet it has a word that does.
    const glaWords = TITLES.filter(t =>
      words(t).some(w => w.startsWith('gla'))
    ).sort();
    expect(glaWords).toContain('The Glass Castle');
    if (typesenseDiffers(target.version, 'no-prefix-filter')) {
      // 0.24 answers field:Gla* with no document at all: the grid refuses rather than show none.
      const refused = expectReply(
        await call({
          type: 'open',
          connection: 'ts',
          target: titles,
          view: {
            filters: [
              { column: 'title', operator: 'starts with', value: 'Gla' }
            ]
          }
        }),
        'error'
      );
      expect(refused.message).toMatch(
        /^Typesense 0\.24\.1 cannot filter with "has word starting with": this server filters whole words only/
      );
      expect(named.get('starts with')?.unavailable).toContain(
        'Typesense 0.25 added word starts'
      );
    } else {
      expect(await found('starts with', 'Gla')).toEqual(glaWords);
    }
    if (typesenseDiffers(target.version, 'no-prefix-filter')) {
      // 0.24 answers field:!glass with the titles that DO hold glass: refused.
      expect(named.get('not contains')?.unavailable).toContain(
        'Typesense 0.25 added field:!word'
      );
    } else {
      expect(await found('not contains', 'glass')).toEqual(
        TITLES.filter(t => !words(t).includes('glass')).sort()
      );
    }
  });

  it("a scoped key's limit_hits: the grid shows Typesense's refusal of a read past the cap, not a shorter list", async () => {
    const parent = `gridSearchKey${target.real ? 'Real' : 'Sandbox'}${Date.now()}`;
    const created = await fetch(`${engine.url}/keys`, {
      method: 'POST',
      headers: {
        'x-typesense-api-key': SECRETS.TS_API_KEY,
        'content-type': 'application/json'
      },
      body: JSON.stringify({
        description: 'grid limit_hits',
        actions: ['documents:search'],
        collections: ['*'],
        value: parent
      })
    });
    expect(created.status).toBe(201);
    const scoped = scopedKeyFromText(parent, embeddedText({ limit_hits: 4 }));
    const limited = await kernelWithPanelComm(
      [`%connect typesense ${engine.url} key=\${env:TS_SCOPED} name=limited`],
      { ...SECRETS, TS_SCOPED: scoped }
    );
    try {
      const reply = await limited.comm.call({
        type: 'open',
        connection: 'limited',
        target: items,
        blockSize: BLOCK,
        view: {}
      });
      expect(reply).toMatchObject({
        type: 'error',
        message: expect.stringMatching(
          /^Typesense answered 422: Only upto 4 hits can be fetched\. Ensure that `page` and `per_page` parameters are within this range\./
        ) as unknown
      });
    } finally {
      await limited.kernel.close();
    }
  });

  it("a cell's Copy as curl: an environment variable the cell reads stays a reference, never its value", async () => {
    const reply = expectReply(
      await call({
        type: 'curl',
        cell: `%use ts\nPOST /multi_search\n{"searches": [{"collection": "${items}", "q": "\${env:TS_API_KEY}"}]}`
      }),
      'curl'
    );
    expect(reply.commands[0]).toContain('"q":"$TS_API_KEY"');
    expect(reply.commands[0]).not.toContain(SECRETS.TS_API_KEY);
  });
});
