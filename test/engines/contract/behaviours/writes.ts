/**
 * Writes from the grid: each change is the request the engine's table names and is read back
 * from the engine after it; values that do not fit are refused with nothing sent; a change
 * someone made after the grid read the row is a conflict carrying the current document; a save
 * whose answers were lost, sent again, writes nothing twice; a cut cell's whole value; a target
 * deleted only with its name typed.
 */
import type { GridReply } from '../../../../contracts/panel-protocol';
import { expectNoSecret } from '../../../support/secrets';
import { SHOP } from '../engines';
import type { TargetContext } from '../targets';

type Opened = Extract<GridReply, { type: 'opened' }>;
type Saved = Extract<GridReply, { type: 'saved' }>;

export function writesContract(context: () => TargetContext): void {
  let desk = '';
  const docs = SHOP.slice(0, 8);
  beforeAll(async () => {
    const { fixture, http, fresh } = context();
    desk = fresh('desk');
    await fixture.createTarget(http, desk, docs, { desk: true });
  });

  const open = (target = desk) =>
    context().comm.expect(
      { type: 'open', connection: context().connection, target, blockSize: 50 },
      'opened'
    );
  const save = (grid: Opened, changes: unknown[]) =>
    context().comm.expect(
      { type: 'save', gridId: grid.gridId, changes },
      'saved'
    );
  const plan = (grid: Opened, changes: unknown[]) =>
    context().comm.expect(
      { type: 'plan', gridId: grid.gridId, changes },
      'plan'
    );
  const stored = (id: string) =>
    context().fixture.stored(context().http, desk, id);
  const storedVersion = (id: string) =>
    context().fixture.storedVersion(context().http, desk, id);
  const writesSeen = () =>
    context().proxy.seen.filter(r =>
      context().fixture.isWrite(r.method, r.url)
    );
  const idOf = (row: Record<string, unknown> | undefined) =>
    row?.[context().fixture.idColumn];
  /** A row as the panel sends it in a change: its key, the version read and the fields read. */
  const rowOf = (grid: Opened, id: string) => {
    const at = grid.first.rows.findIndex(r => idOf(r) === id);
    if (at < 0) {
      throw new Error(`no row ${id}`);
    }
    return {
      row: grid.first.keys?.[at],
      version: grid.first.versions?.[at] ?? undefined,
      values: grid.first.rows[at] ?? {},
      at
    };
  };
  const saved = (reply: Saved, key: string) => {
    const result = reply.results.find(r => r.key === key);
    if (result?.status !== 'saved') {
      throw new Error(`${key} not saved: ${JSON.stringify(reply)}`);
    }
    return result;
  };
  /** Documents of the desk with this title, counted by the engine through a grid's filter. */
  const titled = async (title: string) => {
    const grid = await context().comm.expect(
      {
        type: 'open',
        connection: context().connection,
        target: desk,
        blockSize: 50,
        view: {
          filters: [{ column: 'title', operator: 'equals', value: title }],
          matchCase: true
        }
      },
      'opened'
    );
    await context().comm.expect(
      { type: 'close', gridId: grid.gridId },
      'closed'
    );
    return grid.total;
  };

  it("a block carries each row's target and id, and the engine's version of it where the engine keeps one", async () => {
    const grid = await open();
    expect(grid.first.keys).toEqual(
      grid.first.rows.map(r => ({ index: desk, id: idOf(r) }))
    );
    expect(grid.first.versions).toHaveLength(grid.first.rows.length);
    for (const doc of docs) {
      expect(rowOf(grid, doc.id).version ?? null).toEqual(
        await storedVersion(doc.id)
      );
    }
  });

  it('an edit sends only the changed fields, typed, with the version read; the stored document changes only there, and a grid opened again shows it', async () => {
    const { fixture } = context();
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c01');
    const changes = [
      {
        kind: 'update',
        key: 'k',
        row,
        version,
        expected: { rank: values.rank, price: values.price },
        fields: { rank: '101', price: '12.25' }
      }
    ];
    const shown = await plan(grid, changes);
    expect(shown.refusals).toEqual([]);
    expect(shown.requests).toEqual([
      {
        key: 'k',
        ...fixture.updateRequest(desk, 'c01', version, {
          rank: 101,
          price: 12.25
        })
      }
    ]);
    const result = saved(await save(grid, changes), 'k');
    expect(result.request).toMatchObject({
      method: fixture.updateRequest(desk, 'c01', version, {}).method,
      status: fixture.updateStatus
    });
    expect((await stored('c01')).source).toEqual({
      ...docs[1]?.fields,
      rank: 101,
      price: 12.25
    });
    expect(result.version ?? null).toEqual(await storedVersion('c01'));
    // The grid row of the stored document, the fields not edited included.
    expect(result.document).toMatchObject({
      [fixture.idColumn]: 'c01',
      rank: 101,
      price: 12.25,
      title: docs[1]?.fields.title
    });
    expect(rowOf(await open(), 'c01').values).toMatchObject({
      rank: 101,
      price: 12.25
    });
  });

  it("a new row is created with the id typed, or gets the engine's id; a deleted row is gone from the engine", async () => {
    const { fixture } = context();
    const grid = await open();
    const gone = rowOf(grid, 'c05');
    const reply = await save(grid, [
      {
        kind: 'insert',
        key: 'n1',
        index: desk,
        id: 'new-1',
        fields: {
          title: 'Kindred',
          rank: '264',
          price: '3.5',
          tag: 'red',
          'place.city': 'Rome'
        }
      },
      { kind: 'insert', key: 'n2', index: desk, fields: { title: 'Beloved' } },
      {
        kind: 'delete',
        key: 'd',
        row: gone.row,
        version: gone.version,
        expected: gone.values
      }
    ]);
    const withId = saved(reply, 'n1');
    expect(withId.request).toMatchObject(fixture.insertRequest(desk, 'new-1'));
    // A dotted column of an object is stored as the object.
    expect(await stored('new-1')).toEqual({
      found: true,
      source: {
        title: 'Kindred',
        rank: 264,
        price: 3.5,
        tag: 'red',
        place: { city: 'Rome' }
      }
    });
    expect(withId.document).toMatchObject({
      [fixture.idColumn]: 'new-1',
      title: 'Kindred',
      rank: 264,
      'place.city': 'Rome'
    });
    const named = saved(reply, 'n2');
    expect(named.request).toMatchObject(fixture.insertRequest(desk, undefined));
    expect(named.row.id).not.toBe('');
    expect(await stored(named.row.id)).toEqual({
      found: true,
      source: { title: 'Beloved' }
    });
    expect(named.document).toMatchObject({
      [fixture.idColumn]: named.row.id,
      title: 'Beloved'
    });
    expect(saved(reply, 'd').request).toMatchObject(
      fixture.deleteRequest(desk, 'c05', gone.version)
    );
    expect((await stored('c05')).found).toBe(false);
  });

  it('a new row whose id exists is a conflict with the stored document; nothing is written', async () => {
    const grid = await open();
    const before = await storedVersion('c04');
    const reply = await save(grid, [
      {
        kind: 'insert',
        key: 'x',
        index: desk,
        id: 'c04',
        fields: { title: 'Mine', rank: '1', price: '1', tag: 'red' }
      }
    ]);
    expect(reply.results).toEqual([
      expect.objectContaining({
        key: 'x',
        status: 'conflict',
        current: expect.objectContaining({
          [context().fixture.idColumn]: 'c04',
          title: docs[4]?.fields.title
        }),
        request: expect.objectContaining({ status: 409 })
      })
    ]);
    const [conflict] = reply.results;
    expect(conflict?.status === 'conflict' && conflict.message).toContain(
      'already exists'
    );
    expect(
      (conflict?.status === 'conflict' && conflict.version) || null
    ).toEqual(before);
    expect((await stored('c04')).source).toEqual(docs[4]?.fields);
    expect(await storedVersion('c04')).toEqual(before);
  });

  it('values that do not fit their fields are refused under their cells, all of them, and nothing is sent', async () => {
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c02');
    const writesBefore = writesSeen().length;
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'bad',
        row,
        version,
        expected: { rank: values.rank, price: values.price },
        fields: { rank: '12.5', price: 'cheap' }
      }
    ]);
    expect(reply.results).toEqual([]);
    const by = (column: string) =>
      reply.refusals.find(r => r.column === column)?.message;
    expect(by('rank')).toMatch(/fraction/);
    expect(by('price')).toContain('not a number');
    expect((await stored('c02')).source).toEqual(docs[2]?.fields);
    expect(writesSeen()).toHaveLength(writesBefore);
  });

  it('the requests a save would send are listed beside a refused value of another change; the save itself sends nothing', async () => {
    const { fixture } = context();
    const grid = await open();
    const fine = rowOf(grid, 'c06');
    const bad = rowOf(grid, 'c07');
    const before = {
      source: await stored('c06'),
      version: await storedVersion('c06')
    };
    const changes = [
      {
        kind: 'update',
        key: 'fine',
        row: fine.row,
        version: fine.version,
        expected: { rank: fine.values.rank },
        fields: { rank: '12' }
      },
      {
        kind: 'update',
        key: 'bad',
        row: bad.row,
        version: bad.version,
        expected: { rank: bad.values.rank, title: bad.values.title },
        fields: { rank: '12.5', title: 'Again' }
      }
    ];
    const shown = await plan(grid, changes);
    expect(shown.requests).toEqual([
      {
        key: 'fine',
        ...fixture.updateRequest(desk, 'c06', fine.version, { rank: 12 })
      }
    ]);
    expect(shown.refusals).toEqual([
      expect.objectContaining({
        key: 'bad',
        column: 'rank',
        message: expect.stringMatching(/fraction/)
      })
    ]);
    const writesBefore = writesSeen().length;
    const reply = await save(grid, changes);
    expect(reply.results).toEqual([]);
    expect(reply.refusals).toHaveLength(1);
    expect(writesSeen()).toHaveLength(writesBefore);
    expect({
      source: await stored('c06'),
      version: await storedVersion('c06')
    }).toEqual(before);
  });

  it('a change made by someone else after the read is a conflict with the current document; sent again against it, it overwrites knowingly', async () => {
    const { fixture, http } = context();
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'c03');
    await fixture.changeBehindTheGrid(http, desk, 'c03', { rank: 999 });
    const current = await storedVersion('c03');
    const writesBefore = writesSeen().length;
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'late',
        row,
        version,
        expected: { rank: values.rank },
        fields: { rank: '7' }
      }
    ]);
    expect(reply.results).toEqual([
      expect.objectContaining({
        key: 'late',
        status: 'conflict',
        current: expect.objectContaining({
          [fixture.idColumn]: 'c03',
          rank: 999
        }),
        request: expect.objectContaining(fixture.conflictRequest)
      })
    ]);
    const [conflict] = reply.results;
    if (conflict?.status !== 'conflict') {
      throw new Error('no conflict');
    }
    expect(conflict.message).toMatch(fixture.conflict);
    expect(conflict.version ?? null).toEqual(current);
    expect((await stored('c03')).source).toEqual({
      ...docs[3]?.fields,
      rank: 999
    });
    // Where the engine keeps versions, its refusal was the only write tried.
    expect(writesSeen().length - writesBefore).toBe(
      fixture.keepsVersions ? 1 : 0
    );
    const overwritten = saved(
      await save(grid, [
        {
          kind: 'update',
          key: 'late',
          row,
          version: conflict.version,
          expected: { rank: conflict.current?.rank ?? null },
          fields: { rank: '7' }
        }
      ]),
      'late'
    );
    expect(overwritten.request.status).toBe(fixture.updateStatus);
    expect((await stored('c03')).source).toEqual({
      ...docs[3]?.fields,
      rank: 7
    });
  });

  it('a document deleted after the read is a conflict for an edit, with no current document; a deletion of it is done', async () => {
    const { fixture, http } = context();
    await fixture.putDocument(http, desk, 'vanish', { title: 'Vanish' });
    const grid = await open();
    const { row, version, values } = rowOf(grid, 'vanish');
    await fixture.removeDocument(http, desk, 'vanish');
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'u',
        row,
        version,
        expected: { title: values.title },
        fields: { title: 'Back' }
      },
      { kind: 'delete', key: 'd', row, version, expected: values }
    ]);
    expect(reply.results).toEqual([
      expect.objectContaining({
        key: 'u',
        status: 'conflict',
        current: null,
        request: expect.objectContaining({ status: 404 })
      }),
      expect.objectContaining({
        key: 'd',
        status: 'saved',
        row,
        request: expect.objectContaining({ method: 'DELETE' })
      })
    ]);
    expect((await stored('vanish')).found).toBe(false);
  });

  it('a save whose answers were lost, sent again, writes nothing twice: the new row, the edit and the deletion are saved', async () => {
    const { fixture, http, proxy } = context();
    await fixture.putDocument(http, desk, 'again-u', {
      title: 'Edited once',
      rank: 10
    });
    await fixture.putDocument(http, desk, 'again-d', { title: 'Deleted once' });
    const grid = await open();
    const edited = rowOf(grid, 'again-u');
    const deleted = rowOf(grid, 'again-d');
    const changes = [
      {
        kind: 'insert',
        key: 'n',
        index: desk,
        id: 'again-n',
        fields: { title: 'Created once', rank: '2', 'place.city': 'Oslo' }
      },
      {
        kind: 'update',
        key: 'u',
        row: edited.row,
        version: edited.version,
        expected: { rank: 10 },
        fields: { rank: '11' }
      },
      {
        kind: 'delete',
        key: 'd',
        row: deleted.row,
        version: deleted.version,
        expected: deleted.values
      }
    ];
    // The engine does the writes; their answers are cut, as a kernel restart mid-save leaves them.
    proxy.rules.push({
      matches: (method, url) => fixture.isWrite(method, url),
      breakAfterBytes: 0
    });
    const lost = await save(grid, changes);
    proxy.rules.length = 0;
    expect(lost.results.map(r => [r.key, r.status])).toEqual([
      ['n', 'failed'],
      ['u', 'failed'],
      ['d', 'failed']
    ]);
    expect(
      lost.results.every(
        r =>
          r.status === 'failed' &&
          r.message.includes('may or may not have been written') &&
          r.httpStatus === undefined
      )
    ).toBe(true);
    // The engine did them all.
    expect(await stored('again-n')).toEqual({
      found: true,
      source: { title: 'Created once', rank: 2, place: { city: 'Oslo' } }
    });
    expect((await stored('again-u')).source).toEqual({
      title: 'Edited once',
      rank: 11
    });
    expect((await stored('again-d')).found).toBe(false);
    const createdFirst = await storedVersion('again-n');

    const writesBefore = writesSeen().length;
    const again = await save(grid, changes);
    const n = saved(again, 'n');
    expect(n).toMatchObject({
      row: { index: desk, id: 'again-n' },
      document: {
        [fixture.idColumn]: 'again-n',
        title: 'Created once',
        rank: 2,
        'place.city': 'Oslo'
      },
      request: fixture.resent.insert
    });
    expect(n.version ?? null).toEqual(createdFirst);
    // The edit finds its own value stored, not someone else's change: sent again, it changes nothing.
    const u = saved(again, 'u');
    expect(u.document).toMatchObject({
      [fixture.idColumn]: 'again-u',
      rank: 11
    });
    expect(u.request).toMatchObject(fixture.resent.update);
    expect(saved(again, 'd').request).toMatchObject(fixture.resent.delete);
    // Nothing was written the second time: the documents are as the first save left them.
    expect(await storedVersion('again-n')).toEqual(createdFirst);
    expect((await stored('again-u')).source).toEqual({
      title: 'Edited once',
      rank: 11
    });
    expect(await titled('Created once')).toBe(1);
    expect(writesSeen().length - writesBefore).toBeLessThanOrEqual(3);

    // The same id with other values is still someone else's document: a conflict.
    const other = await save(grid, [
      {
        kind: 'insert',
        key: 'o',
        index: desk,
        id: 'again-n',
        fields: { title: 'Created once', rank: '3', 'place.city': 'Oslo' }
      }
    ]);
    expect(other.results).toEqual([
      expect.objectContaining({
        key: 'o',
        status: 'conflict',
        current: expect.objectContaining({ rank: 2 })
      })
    ]);
  });

  it('a change whose answer never comes back fails saying it may have been written, with no secret in it; the others are saved', async () => {
    const { fixture, proxy } = context();
    const grid = await open();
    const lost = rowOf(grid, 'c00');
    const kept = rowOf(grid, 'c02');
    const lostPath =
      fixture.updateRequest(desk, 'c00', lost.version, {}).path.split('?')[0] ??
      '';
    proxy.rules.push({
      matches: (method, url) =>
        fixture.isWrite(method, url) && url.startsWith(lostPath),
      breakAfterBytes: 0
    });
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'lost',
        row: lost.row,
        version: lost.version,
        expected: { rank: lost.values.rank },
        fields: { rank: '70' }
      },
      {
        kind: 'update',
        key: 'kept',
        row: kept.row,
        version: kept.version,
        expected: { rank: kept.values.rank },
        fields: { rank: '80' }
      }
    ]);
    proxy.rules.length = 0;
    const failed = reply.results.find(r => r.key === 'lost');
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.status === 'failed' && failed.message).toContain(
      'may or may not have been written'
    );
    expect(failed?.status === 'failed' && failed.httpStatus).toBeUndefined();
    saved(reply, 'kept');
    expect((await stored('c02')).source.rank).toBe(80);
    expectNoSecret(JSON.stringify(reply));
  });

  it("a value the engine refuses fails with the engine's reason; the other changes of the save are saved", async () => {
    const { fixture } = context();
    const grid = await open();
    const refusal = fixture.engineRefusal;
    const before = await stored(refusal.id);
    const refused =
      refusal.kind === 'update'
        ? {
            kind: 'update',
            key: 'no',
            row: rowOf(grid, refusal.id).row,
            version: rowOf(grid, refusal.id).version,
            fields: refusal.fields
          }
        : {
            kind: 'insert',
            key: 'no',
            index: desk,
            id: refusal.id,
            fields: refusal.fields
          };
    const fine = rowOf(grid, 'c07');
    const reply = await save(grid, [
      refused,
      {
        kind: 'update',
        key: 'fine',
        row: fine.row,
        version: fine.version,
        expected: { title: fine.values.title },
        fields: { title: 'Item (2nd)' }
      }
    ]);
    const failed = reply.results.find(r => r.key === 'no');
    expect(failed).toMatchObject({
      status: 'failed',
      httpStatus: 400,
      request: { status: 400 }
    });
    expect(failed?.status === 'failed' && failed.message).toContain(
      refusal.reason
    );
    saved(reply, 'fine');
    expect((await stored('c07')).source.title).toBe('Item (2nd)');
    expect(await stored(refusal.id)).toEqual(before);
  });

  it("a cut cell's whole value is read from the stored document; its fragment is never saved", async () => {
    const { fixture, http } = context();
    const notes = Array.from({ length: 1500 }, (_, n) => `note-${n}`);
    await fixture.putDocument(http, desk, 'long', { title: 'Long', notes });
    const grid = await open();
    const { row, at } = rowOf(grid, 'long');
    expect(grid.first.cut).toContainEqual({ row: at, column: 'notes' });
    const whole = await context().comm.expect(
      { type: 'wholeValue', gridId: grid.gridId, row, column: 'notes' },
      'wholeValue'
    );
    expect(whole.value).toEqual(notes);
    // The fragment is not JSON, and the refusal says to load the whole value.
    const reply = await save(grid, [
      {
        kind: 'update',
        key: 'f',
        row,
        fields: { notes: String(grid.first.rows[at]?.notes) }
      }
    ]);
    expect(reply.results).toEqual([]);
    expect(reply.refusals[0]?.message).toContain('load the whole value');
  });

  it("a row's whole document is read as stored now, with where it lives and its version; a document deleted meanwhile says so", async () => {
    const { fixture, http, comm } = context();
    const grid = await open();
    const { row } = rowOf(grid, 'c06');
    // Changed after the grid read it: the document view shows what is stored now.
    await fixture.changeBehindTheGrid(http, desk, 'c06', { rank: 606 });
    const whole = await comm.expect(
      { type: 'wholeDocument', gridId: grid.gridId, row },
      'wholeDocument'
    );
    const { source } = await stored('c06');
    expect(whole.document).toMatchObject(source);
    expect(whole.document).toMatchObject({ rank: 606 });
    expect(whole.values).toMatchObject({
      [fixture.idColumn]: 'c06',
      rank: 606
    });
    const meta = Object.fromEntries(whole.meta.map(m => [m.name, m.value]));
    expect(Object.values(meta)).toEqual(expect.arrayContaining([desk, 'c06']));
    expect(whole.version ?? null).toEqual(await storedVersion('c06'));
    if (whole.version) {
      expect(meta).toMatchObject({
        _seq_no: whole.version.seqNo,
        _primary_term: whole.version.primaryTerm,
        _version: expect.any(Number)
      });
    }
    await fixture.removeDocument(http, desk, 'c06');
    const gone = await comm.call({
      type: 'wholeDocument',
      gridId: grid.gridId,
      row
    });
    expect(gone).toMatchObject({
      type: 'error',
      message: expect.stringContaining('deleted after the grid read it')
    });
  });

  it('a target is deleted only with its name typed', async () => {
    const { fixture, http, fresh, comm, connection } = context();
    const doomed = fresh('doomed');
    await fixture.createTarget(http, doomed, docs.slice(0, 2));
    const { actions } = await comm.expect(
      { type: 'targetActions', connection, target: doomed },
      'targetActions'
    );
    expect(actions).toEqual(fixture.targetActions(doomed));
    const refused = await comm.call({
      type: 'targetAction',
      connection,
      target: doomed,
      action: 'delete',
      confirmName: doomed.slice(0, -1)
    });
    expect(refused).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Nothing was deleted')
    });
    expect(await fixture.targetExists(http, doomed)).toBe(true);
    const done = await comm.expect(
      {
        type: 'targetAction',
        connection,
        target: doomed,
        action: 'delete',
        confirmName: doomed
      },
      'targetActionDone'
    );
    const [method, path] = (
      fixture.targetActions(doomed).find(a => a.action === 'delete')?.request ??
      ''
    ).split(' ');
    expect(done.request).toMatchObject({ method, path, status: 200 });
    expect(await fixture.targetExists(http, doomed)).toBe(false);
  });

  it('a delete confirmed against what the target held is refused when it changed since, sending nothing', async () => {
    const { fixture, http, fresh, comm, connection } = context();
    const doomed = fresh('changing');
    await fixture.createTarget(http, doomed, docs.slice(0, 3));
    const menu = await comm.expect(
      { type: 'targetActions', connection, target: doomed },
      'targetActions'
    );
    expect(menu.documents).toBe(3);
    // Someone writes to it while the confirmation is open.
    await fixture.removeDocument(http, doomed, docs[0]?.id ?? '');
    const refused = await comm.call({
      type: 'targetAction',
      connection,
      target: doomed,
      action: 'delete',
      confirmName: doomed,
      basis: { documents: menu.documents }
    });
    expect(refused).toMatchObject({
      type: 'error',
      message: `${doomed} changed since you confirmed: it holds 2 documents now, 3 documents when its menu was opened. Nothing was sent: open its menu again to confirm what it holds now.`
    });
    expect(await fixture.targetExists(http, doomed)).toBe(true);
    const again = await comm.expect(
      { type: 'targetActions', connection, target: doomed },
      'targetActions'
    );
    await comm.expect(
      {
        type: 'targetAction',
        connection,
        target: doomed,
        action: 'delete',
        confirmName: doomed,
        basis: { documents: again.documents }
      },
      'targetActionDone'
    );
    expect(await fixture.targetExists(http, doomed)).toBe(false);
  });
}
