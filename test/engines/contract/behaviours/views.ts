/** Views: a grid opens on a target, pages through it block by block, filters and sorts as the engine answers. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { GridReply, GridView } from '../../../../contracts/panel-protocol';
import { expectNoSecret, SECRETS } from '../../../support/secrets';
import { SHOP, SHOP_FIELDS } from '../engines';
import type { TargetContext } from '../targets';

type Opened = Extract<GridReply, { type: 'opened' }>;
const BLOCK = 8;
const run = promisify(execFile);

/** Runs a "Copy as curl" command with the credential in the environment, as a user would. */
async function curl(command: string): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', command], {
    env: { PATH: process.env.PATH ?? '', TS_API_KEY: SECRETS.TS_API_KEY }
  });
  return JSON.parse(stdout) as unknown;
}

export function viewsContract(context: () => TargetContext): void {
  const open = (view: Partial<GridView> = {}) =>
    context().comm.expect(
      {
        type: 'open',
        connection: context().connection,
        target: context().shop,
        blockSize: BLOCK,
        view
      },
      'opened'
    );
  /** Every row of a grid, block by block as the panel scrolls, then the grid closed. */
  const allRows = async (grid: Opened): Promise<Record<string, unknown>[]> => {
    const rows = [...grid.first.rows];
    for (let block = 1; block * grid.blockSize < grid.total; block++) {
      rows.push(
        ...(
          await context().comm.expect(
            { type: 'read', gridId: grid.gridId, block },
            'block'
          )
        ).block.rows
      );
    }
    await context().comm.expect(
      { type: 'close', gridId: grid.gridId },
      'closed'
    );
    return rows;
  };
  const ids = (rows: Record<string, unknown>[]) =>
    rows.map(r => r[context().fixture.idColumn]);

  it('a grid opens with the exact total, the id and field columns and its first block', async () => {
    const { fixture } = context();
    const grid = await open();
    expect(grid.total).toBe(SHOP.length);
    expect(grid.first.rows).toHaveLength(BLOCK);
    const columns = grid.columns.map(c => c.name);
    expect(columns[0]).toBe(fixture.idColumn);
    expect(columns).toEqual(expect.arrayContaining([...SHOP_FIELDS]));
    expect(grid.request.cell).toContain(context().shop);
    await context().comm.expect(
      { type: 'close', gridId: grid.gridId },
      'closed'
    );
  });

  it('paging reads every document once, block by block', async () => {
    const rows = await allRows(await open());
    expect(rows).toHaveLength(SHOP.length);
    expect(ids(rows).sort()).toEqual(SHOP.map(d => d.id).sort());
    for (const row of rows) {
      expect(row).toMatchObject(
        SHOP.find(d => d.id === row[context().fixture.idColumn])?.fields ?? {
          missing: true
        }
      );
    }
  });

  it('a filter narrows the grid and its total to the matching documents', async () => {
    const grid = await open({
      filters: [
        { column: 'tag', operator: 'equals', value: 'red' },
        { column: 'rank', operator: 'greater or equal', value: '6' }
      ]
    });
    const want = SHOP.filter(d => d.fields.tag === 'red' && d.fields.rank >= 6);
    expect(grid.total).toBe(want.length);
    expect(ids(await allRows(grid)).sort()).toEqual(want.map(d => d.id).sort());
  });

  it('a sort orders every block by the engine; sortedBy says so', async () => {
    const grid = await open({ sort: [{ column: 'price', direction: 'desc' }] });
    expect(grid.sortedBy).toEqual(['price']);
    expect(grid.notes).toEqual([]);
    const rows = await allRows(grid);
    expect(ids(rows)).toEqual(
      [...SHOP].sort((a, b) => b.fields.price - a.fields.price).map(d => d.id)
    );
  });

  it('a filter value that does not fit its column is refused under its row, naming the type; nothing reaches the engine', async () => {
    const { fixture, comm, connection, shop, proxy } = context();
    const sent = proxy.seen.length;
    const reply = await comm.call({
      type: 'open',
      connection,
      target: shop,
      blockSize: BLOCK,
      view: {
        filters: [
          { column: 'tag', operator: 'equals', value: 'red' },
          { column: 'price', operator: 'less than', value: 'cheap' }
        ]
      }
    });
    expect(reply).toMatchObject({
      type: 'error',
      filterRow: 1,
      message: expect.stringContaining(
        `price (${fixture.priceType}): "cheap" is not a number`
      )
    });
    expect(proxy.seen).toHaveLength(sent);
  });

  it("a filtered, sorted grid is the engine's answer to its own request, run as the curl command it offers", async () => {
    const { fixture } = context();
    const grid = await open({
      filters: [
        { column: 'tag', operator: 'not equals', value: 'green' },
        { column: 'price', operator: 'between', value: ['5', '25'] }
      ],
      sort: [{ column: 'price', direction: 'asc' }]
    });
    expect(grid.matchCaseSupported).toBe(fixture.matchCaseSupported);
    expectNoSecret(grid.request.curl);
    const want = SHOP.filter(
      d =>
        d.fields.tag !== 'green' && d.fields.price >= 5 && d.fields.price <= 25
    ).sort((a, b) => a.fields.price - b.fields.price);
    const answer = fixture.answerPage(await curl(grid.request.curl));
    expect(grid.total).toBe(want.length);
    expect(answer.total).toBe(want.length);
    expect(ids(grid.first.rows)).toEqual(answer.ids.slice(0, BLOCK));
    expect(ids(await allRows(grid))).toEqual(want.map(d => d.id));
  });

  it('a sort the engine cannot do is dropped with a note; the rows follow the sorts it can (an engine that sorts on every column sorts on the id)', async () => {
    const { fixture } = context();
    const first = fixture.unsortable ?? fixture.idColumn;
    const grid = await open({
      sort: [
        { column: first, direction: 'asc' },
        { column: 'rank', direction: 'desc' }
      ]
    });
    if (fixture.unsortable === undefined) {
      expect(grid.notes).toEqual([]);
      expect(grid.sortedBy).toEqual([first, 'rank']);
      expect(ids(await allRows(grid))).toEqual(SHOP.map(d => d.id).sort());
      return;
    }
    expect(grid.notes).toEqual([
      expect.stringContaining(`Not sorted by ${fixture.unsortable}`)
    ]);
    expect(grid.sortedBy).toEqual(['rank']);
    expect(ids(await allRows(grid))).toEqual(
      [...SHOP].sort((a, b) => b.fields.rank - a.fields.rank).map(d => d.id)
    );
  });

  it('refresh keeps the view', async () => {
    const grid = await open({
      filters: [{ column: 'tag', operator: 'equals', value: 'blue' }]
    });
    const refreshed = await context().comm.expect(
      { type: 'refresh', gridId: grid.gridId },
      'opened'
    );
    expect(refreshed.total).toBe(
      SHOP.filter(d => d.fields.tag === 'blue').length
    );
    await context().comm.expect(
      { type: 'close', gridId: refreshed.gridId },
      'closed'
    );
  });
}
