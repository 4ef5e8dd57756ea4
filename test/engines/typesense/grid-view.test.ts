/**
 * The grid's filter bar and sorting over the wire (kernel over ZeroMQ, the Typesense sandbox
 * over HTTP), what is Typesense's own: the request the grid offers as a cell and as curl, with
 * the key as an environment variable; operators Typesense cannot express refused with what
 * serves instead; contains and starts with named as word matches. What every engine's grid
 * does is in test/engines/contract.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { listen, type ListeningServer } from '../../../examples/sandbox/serve';
import { createTypesenseSandbox } from '../../../examples/sandbox/typesense';
import type { FilterRow, GridView } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import type { KernelClient } from '../../support/kernel-client';
import {
  allRows,
  expectReply,
  type GridCommClient,
  kernelWithGridComm
} from '../../grid/grid-comm-client';

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
  ts.createCollection({
    name: 'titles',
    fields: [{ name: 'title', type: 'string' }]
  });
  ts.loadDocuments(
    'titles',
    TITLES.map((title, n) => ({ id: `t${n}`, title }))
  );
  tsServer = await listen(ts.handler, { port: 0 });
});

afterAll(async () => {
  await tsServer?.close();
});

/** A kernel with the grid comm open, connected by the given `%connect` lines. */
const gridKernel = (connects: string[]) =>
  kernelWithGridComm(connects, { ...SECRETS });

const open = (
  comm: GridCommClient,
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

describe('Typesense', () => {
  let kernel: KernelClient;
  let comm: GridCommClient;
  const call = (data: Record<string, unknown>) => comm.call(data);

  beforeAll(async () => {
    ({ kernel, comm } = await gridKernel([
      `%connect typesense ${tsServer.url} key=\${env:TS_API_KEY} name=ts`
    ]));
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  const view: Partial<GridView> = {
    filters: [
      { column: 'tag', operator: 'not equals', value: 'green' },
      { column: 'price', operator: 'between', value: ['100', '600'] }
    ],
    sort: [{ column: 'price', direction: 'asc' }]
  };

  it("a filtered, sorted grid equals the engine's answer to its curl command, run with the key in the environment", async () => {
    const grid = await open(comm, 'ts', 'items', view, 250);
    expect(grid.matchCaseSupported).toBe(false);
    expect(grid.request.curl).toContain('"X-TYPESENSE-API-KEY: $TS_API_KEY"');
    expect(grid.request.curl).not.toContain(SECRETS.TS_API_KEY);
    expect(
      JSON.parse(grid.request.cell.split('\n').slice(1).join('\n'))
    ).toEqual({
      searches: [
        {
          collection: 'items',
          q: '*',
          filter_by: 'tag:!=`green` && price:[100..600]',
          sort_by: 'price:asc',
          offset: 0,
          limit: 250
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

  it('an operator the engine cannot express is refused under its row with what serves instead, never "contains"', async () => {
    const endsWith = expectReply(
      await call({
        type: 'open',
        connection: 'ts',
        target: 'items',
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
        target: 'items',
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
    const titles = await open(comm, 'ts', 'titles', {}, 250);
    const named = new Map(titles.operators.map(o => [o.operator, o]));
    expect(named.get('contains')).toMatchObject({
      label: 'has word',
      does: expect.stringContaining('infix: true') as unknown
    });
    expect(named.get('not contains')?.label).toBe('lacks word');
    expect(named.get('starts with')?.label).toBe('has word starting with');
    expect(named.get('ends with')?.unavailable).toContain('infix: true');
    await call({ type: 'close', gridId: titles.gridId });
    const found = async (operator: FilterRow['operator'], value: string) =>
      (
        await allRows(
          comm,
          await open(
            comm,
            'ts',
            'titles',
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
    expect(await found('starts with', 'Gla')).toEqual(glaWords);
    expect(await found('not contains', 'glass')).toEqual(
      TITLES.filter(t => !words(t).includes('glass')).sort()
    );
  });

  it("a cell's Copy as curl: an environment variable the cell reads stays a reference, never its value", async () => {
    const reply = expectReply(
      await call({
        type: 'curl',
        cell: '%use ts\nPOST /multi_search\n{"searches": [{"collection": "items", "q": "${env:TS_API_KEY}"}]}'
      }),
      'curl'
    );
    expect(reply.commands[0]).toContain('"q":"$TS_API_KEY"');
    expect(reply.commands[0]).not.toContain(SECRETS.TS_API_KEY);
  });
});
