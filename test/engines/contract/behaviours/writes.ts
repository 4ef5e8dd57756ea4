/**
 * Writes from the grid: an edit saves and reads back, a new row and a deletion reach the
 * engine, a value that does not fit is refused with nothing sent, and a change someone made
 * after the grid read the row is a conflict that writes nothing.
 */
import type { GridReply } from '../../../../contracts/panel-protocol';
import { SHOP } from '../engines';
import type { TargetContext } from '../targets';

type Opened = Extract<GridReply, { type: 'opened' }>;
type Saved = Extract<GridReply, { type: 'saved' }>;

export function writesContract(context: () => TargetContext): void {
  let desk = '';
  const docs = SHOP.slice(0, 6);
  beforeAll(async () => {
    const { fixture, http, fresh } = context();
    desk = fresh('desk');
    await fixture.createTarget(http, desk, docs);
  });

  const open = () => context().comm.expect({ type: 'open', connection: context().connection, target: desk, blockSize: 50 }, 'opened');
  const save = (grid: Opened, changes: unknown[]) => context().comm.expect({ type: 'save', gridId: grid.gridId, changes }, 'saved');
  const stored = (id: string) => context().fixture.stored(context().http, desk, id);
  /** A row as the panel sends it in a change: its key, the version read and the fields read. */
  const rowOf = (grid: Opened, id: string) => {
    const at = grid.first.rows.findIndex((r) => r[context().fixture.idColumn] === id);
    if (at < 0) throw new Error(`no row ${id}`);
    return { row: grid.first.keys?.[at], version: grid.first.versions?.[at] ?? undefined, values: grid.first.rows[at] ?? {} };
  };
  const saved = (reply: Saved, key: string) => {
    const result = reply.results.find((r) => r.key === key);
    if (result?.status !== 'saved') throw new Error(`${key} not saved: ${JSON.stringify(reply)}`);
    return result;
  };

  it("a block carries each row's target and id, and its version where the engine keeps one", async () => {
    const grid = await open();
    expect(grid.first.keys).toEqual(grid.first.rows.map((r) => ({ index: desk, id: r[context().fixture.idColumn] })));
    const versions = grid.first.versions ?? [];
    expect(versions).toHaveLength(docs.length);
    expect(versions.every((v) => (context().fixture.keepsVersions ? v !== null : v === null))).toBe(true);
  });

  it('an edit saves only the changed fields, typed; the stored document and a grid opened again show it', async () => {
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c01');
    const result = saved(await save(grid, [{ kind: 'update', key: 'k', row, version, expected: { rank: values.rank, price: values.price }, fields: { rank: '101', price: '12.25' } }]), 'k');
    expect((await stored('c01')).source).toEqual({ ...docs[1]?.fields, rank: 101, price: 12.25 });
    expect(result.document).toMatchObject({ [context().fixture.idColumn]: 'c01', rank: 101, price: 12.25, title: docs[1]?.fields.title });
    expect(rowOf(await open(), 'c01').values).toMatchObject({ rank: 101, price: 12.25 });
  });

  it('a new row is created with the id typed; a deleted row is gone from the engine', async () => {
    const grid = await open();
    const gone = rowOf(grid, 'c05');
    const reply = await save(grid, [
      { kind: 'insert', key: 'n', index: desk, id: 'new-1', fields: { title: 'Kindred', rank: '264', price: '3.5', tag: 'red' } },
      { kind: 'delete', key: 'd', row: gone.row, version: gone.version, expected: gone.values },
    ]);
    saved(reply, 'n');
    saved(reply, 'd');
    expect(await stored('new-1')).toEqual({ found: true, source: { title: 'Kindred', rank: 264, price: 3.5, tag: 'red' } });
    expect((await stored('c05')).found).toBe(false);
  });

  it('a new row whose id exists is a conflict with the stored document; nothing is written', async () => {
    const grid = await open();
    const reply = await save(grid, [{ kind: 'insert', key: 'x', index: desk, id: 'c04', fields: { title: 'Mine', rank: '1', price: '1', tag: 'red' } }]);
    expect(reply.results).toEqual([expect.objectContaining({ key: 'x', status: 'conflict', current: expect.objectContaining({ [context().fixture.idColumn]: 'c04', title: docs[4]?.fields.title }) })]);
    expect((await stored('c04')).source).toEqual(docs[4]?.fields);
  });

  it('a value that does not fit its field is refused under its cell and nothing is sent', async () => {
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c02');
    const reply = await save(grid, [{ kind: 'update', key: 'bad', row, version, expected: { rank: values.rank, price: values.price }, fields: { rank: '12.5', price: 'cheap' } }]);
    expect(reply.results).toEqual([]);
    const by = (column: string) => reply.refusals.find((r) => r.column === column)?.message;
    expect(by('rank')).toMatch(/fraction/);
    expect(by('price')).toContain('not a number');
    expect((await stored('c02')).source).toEqual(docs[2]?.fields);
  });

  it('a change made by someone else after the read is a conflict with the current document; nothing is written', async () => {
    const { fixture, http } = context();
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c03');
    await fixture.changeBehindTheGrid(http, desk, 'c03', { rank: 999 });
    const reply = await save(grid, [{ kind: 'update', key: 'late', row, version, expected: { rank: values.rank }, fields: { rank: '7' } }]);
    expect(reply.results).toEqual([expect.objectContaining({ key: 'late', status: 'conflict', current: expect.objectContaining({ rank: 999 }) })]);
    const [conflict] = reply.results;
    expect(conflict?.status === 'conflict' && conflict.message).toMatch(fixture.conflict);
    expect((await stored('c03')).source).toEqual({ ...docs[3]?.fields, rank: 999 });
  });
}
