import {
  PendingChanges,
  PendingStateSchema
} from '../../extension/src/documents/pending-changes';

const a = { index: 'products', id: 'a' };
const b = { index: 'products-2', id: 'b' };
const v1 = { seqNo: 1, primaryTerm: 1 };
const sent = {
  method: 'POST',
  path: '/products/_update/a',
  status: 200,
  elapsedMs: 4
};

describe('pending changes of one grid', () => {
  it('typing a value back to what is stored leaves nothing pending', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    expect(p.count).toBe(1);
    p.edit(a, v1, 'price', '10', '10', 10);
    expect(p.count).toBe(0);
    expect(p.changes('products')).toEqual([]);
  });

  it('sends one partial update per row with only the changed fields and the version read, new rows into the target, deletes by key', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    p.edit(a, v1, 'name', null, 'old', 'old');
    const key = p.insert();
    p.editNew(key, '_id', 'x1', true);
    p.editNew(key, 'name', 'New', false);
    p.toggleDelete([{ row: b, version: undefined }]);
    expect(p.count).toBe(3);
    expect(p.changes('catalog')).toEqual([
      {
        kind: 'insert',
        key,
        index: 'catalog',
        id: 'x1',
        fields: { name: 'New' }
      },
      {
        kind: 'update',
        key: 'row:products/a',
        row: a,
        version: v1,
        fields: { price: '12', name: null }
      },
      { kind: 'delete', key: 'row:products-2/b', row: b }
    ]);
  });

  it('a new row left without an id goes under a random one chosen when it was inserted, the same at every save and after a reload', () => {
    const p = new PendingChanges();
    const key = p.insert();
    p.editNew(key, 'title', 'Dune', false);
    const [first] = p.changes('books');
    expect(first).toEqual({
      kind: 'insert',
      key,
      index: 'books',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      fields: { title: 'Dune' }
    });
    const id = first?.kind === 'insert' ? first.id : undefined;
    // Sent again (its answer lost), it goes under the same id, so the engine can tell it is the same row.
    expect(p.changes('books')[0]).toMatchObject({ id });
    const reloaded = new PendingChanges(
      PendingStateSchema.parse(JSON.parse(JSON.stringify(p.state())))
    );
    expect(reloaded.changes('books')[0]).toMatchObject({ id });
    // An id typed wins; emptied again, the chosen one is back.
    p.editNew(key, '_id', 'dune-1', true);
    expect(p.changes('books')[0]).toMatchObject({ id: 'dune-1' });
    p.editNew(key, '_id', '', true);
    expect(p.changes('books')[0]).toMatchObject({ id });
    // Each new row has its own.
    const ids = new Set(
      Array.from({ length: 50 }, () => p.insert())
        .map(k => p.changes('books', [k])[0])
        .map(c => (c?.kind === 'insert' ? c.id : undefined))
    );
    expect(ids.size).toBe(50);
    expect(ids.has(id)).toBe(false);
  });

  it('a new row stored by an older panel, without a chosen id, gets one on reading that stays with it', () => {
    const state = PendingStateSchema.parse({
      v: 1,
      next: 2,
      edited: [],
      added: [{ key: 'new:1', id: '', fields: { title: 'Old' } }]
    });
    const p = new PendingChanges(state);
    const [change] = p.changes('books');
    const id = change?.kind === 'insert' ? change.id : undefined;
    expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(
      new PendingChanges(
        PendingStateSchema.parse(JSON.parse(JSON.stringify(p.state())))
      ).changes('books')[0]
    ).toMatchObject({ id });
  });

  it('Delete rows on rows all marked takes the mark back and keeps their edits; new rows are removed', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    const fresh = p.insert();
    p.toggleDelete([{ row: a, version: v1 }], [fresh]);
    expect(p.changes('products').map(c => c.kind)).toEqual(['delete']);
    p.toggleDelete([{ row: a, version: v1 }]);
    expect(p.changes('products')).toEqual([
      {
        kind: 'update',
        key: 'row:products/a',
        row: a,
        version: v1,
        fields: { price: '12' }
      }
    ]);
  });

  it('refusals keep every change pending, marked with the message, line and column', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'tags', '[1,', '[]', []);
    p.refuse([
      {
        key: 'row:products/a',
        column: 'tags',
        message: 'Invalid JSON',
        line: 1,
        col: 4
      }
    ]);
    expect(p.count).toBe(1);
    expect(p.problemOf('row:products/a')).toEqual({
      kind: 'refused',
      refusals: [{ column: 'tags', message: 'Invalid JSON', line: 1, col: 4 }]
    });
    // Typing again clears the mark.
    p.edit(a, v1, 'tags', '[1]', '[]', []);
    expect(p.problemOf('row:products/a')).toBeUndefined();
  });

  it('a save that partly fails: saved changes leave, the failed and conflicting ones stay with their reason', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    p.edit(b, v1, 'price', '13', '10', 10);
    const fresh = p.insert();
    const outcomes = p.settle([
      {
        key: 'row:products/a',
        status: 'saved',
        row: a,
        version: { seqNo: 2, primaryTerm: 1 },
        document: { _id: 'a', price: 12 },
        request: sent
      },
      {
        key: 'row:products-2/b',
        status: 'conflict',
        message: 'changed meanwhile',
        current: { _id: 'b', price: 11 },
        version: { seqNo: 7, primaryTerm: 1 },
        request: { ...sent, status: 409 }
      },
      {
        key: fresh,
        status: 'failed',
        message: 'mapper_parsing_exception',
        httpStatus: 400
      }
    ]);
    expect(outcomes.map(o => o.status)).toEqual([
      'saved',
      'pending',
      'pending'
    ]);
    expect(outcomes[0]).toMatchObject({
      kind: 'update',
      document: { price: 12 },
      version: { seqNo: 2 }
    });
    expect(p.count).toBe(2);
    expect(p.fieldOf(b, 'price')).toBe('13');
    expect(p.problemOf(fresh)).toEqual({
      kind: 'failed',
      message: 'mapper_parsing_exception'
    });
    // Overwrite: sent again with the conflicting write's version.
    expect(p.overwrite('row:products-2/b', 'products')).toBe(
      'row:products-2/b'
    );
    expect(p.changes('products', ['row:products-2/b'])).toEqual([
      {
        kind: 'update',
        key: 'row:products-2/b',
        row: b,
        version: { seqNo: 7, primaryTerm: 1 },
        fields: { price: '13' }
      }
    ]);
  });

  it('a value typed into a row while its save was on its way stays pending after the save answers', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    const fresh = p.insert();
    p.editNew(fresh, 'title', 'Lamp', false);
    const book = { index: 'books', id: 'b1' };
    p.edit(book, undefined, 'rank', '5', '3', 3);
    const changes = p.changes('products');
    // Typed after Save was clicked, before its answer came.
    p.edit(a, v1, 'price', '13', '10', 10);
    p.edit(a, v1, 'name', 'Desk', 'Table', 'Table');
    p.editNew(fresh, 'color', 'red', false);
    p.edit(book, undefined, 'title', 'Dune II', 'Dune', 'Dune');
    const v2 = { seqNo: 2, primaryTerm: 1 };
    p.settle(
      [
        {
          key: 'row:products/a',
          status: 'saved',
          row: a,
          version: v2,
          document: { _id: 'a', price: 12, name: 'Table' },
          request: sent
        },
        {
          key: fresh,
          status: 'saved',
          row: { index: 'products', id: 'n1' },
          version: v1,
          document: { _id: 'n1', title: 'Lamp' },
          request: sent
        },
        {
          key: 'row:books/b1',
          status: 'saved',
          row: book,
          document: { id: 'b1', rank: 5, title: 'Dune' },
          request: sent
        }
      ],
      changes
    );
    expect(p.changes('products')).toEqual([
      {
        kind: 'update',
        key: 'row:products/a',
        row: a,
        version: v2,
        fields: { price: '13', name: 'Desk' }
      },
      {
        kind: 'update',
        key: 'row:products/n1',
        row: { index: 'products', id: 'n1' },
        version: v1,
        fields: { color: 'red' }
      },
      {
        kind: 'update',
        key: 'row:books/b1',
        row: book,
        expected: { title: 'Dune' },
        fields: { title: 'Dune II' }
      }
    ]);
    expect(p.newRows).toEqual([]);
  });

  it('a row marked for deletion while its update was on its way stays marked after the update is saved', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    const book = { index: 'books', id: 'b1' };
    p.edit(book, undefined, 'rank', '5', '3', 3);
    const changes = p.changes('products');
    p.toggleDelete([
      { row: a, version: v1 },
      {
        row: book,
        version: undefined,
        read: { id: 'b1', rank: 3, title: 'Dune' }
      }
    ]);
    const v2 = { seqNo: 2, primaryTerm: 1 };
    const outcomes = p.settle(
      [
        {
          key: 'row:products/a',
          status: 'saved',
          row: a,
          version: v2,
          document: { _id: 'a', price: 12 },
          request: sent
        },
        { key: 'row:books/b1', status: 'saved', row: book, request: sent }
      ],
      changes
    );
    expect(outcomes.map(o => o.status === 'saved' && o.kind)).toEqual([
      'update',
      'update'
    ]);
    expect(p.changes('products')).toEqual([
      { kind: 'delete', key: 'row:products/a', row: a, version: v2 },
      {
        kind: 'delete',
        key: 'row:books/b1',
        row: book,
        expected: { id: 'b1', rank: 3, title: 'Dune' }
      }
    ]);
  });

  it('a new row whose id is taken: Overwrite sends it with the stored version, or (no versions, Typesense) as an update of that document', () => {
    const p = new PendingChanges();
    const es = p.insert();
    p.editNew(es, 'id', 'x', true);
    p.editNew(es, 'title', 'Mine', false);
    p.settle([
      {
        key: es,
        status: 'conflict',
        message: 'exists',
        current: { id: 'x', title: 'Theirs' },
        version: { seqNo: 3, primaryTerm: 1 },
        request: sent
      }
    ]);
    expect(p.overwrite(es, 'books')).toBe(es);
    expect(p.changes('books')).toEqual([
      {
        kind: 'insert',
        key: es,
        index: 'books',
        id: 'x',
        version: { seqNo: 3, primaryTerm: 1 },
        fields: { title: 'Mine' }
      }
    ]);
    p.discard();
    const ts = p.insert();
    p.editNew(ts, 'id', 'y', true);
    p.editNew(ts, 'title', 'Mine', false);
    p.settle([
      {
        key: ts,
        status: 'conflict',
        message: 'exists',
        current: { id: 'y', title: 'Theirs' },
        request: sent
      }
    ]);
    expect(p.overwrite(ts, 'books')).toBe('row:books/y');
    expect(p.changes('books')).toEqual([
      {
        kind: 'update',
        key: 'row:books/y',
        row: { index: 'books', id: 'y' },
        expected: { title: 'Theirs' },
        fields: { title: 'Mine' }
      }
    ]);
  });

  it('without versions (Typesense), an update carries each edited field as it was first read, and Overwrite expects what was stored at the conflict', () => {
    const p = new PendingChanges();
    const book = { index: 'books', id: 'b1' };
    p.edit(book, undefined, 'rank', '5', '3', 3);
    p.edit(book, undefined, 'rank', '6', '3', 3);
    p.edit(book, undefined, 'tags', '["x"]', '["a","b"]', ['a', 'b']);
    p.edit(book, undefined, 'title', 'Dune', 'Dune', 'Dune');
    expect(p.changes('books')).toEqual([
      {
        kind: 'update',
        key: 'row:books/b1',
        row: book,
        expected: { rank: 3, tags: ['a', 'b'] },
        fields: { rank: '6', tags: '["x"]' }
      }
    ]);
    // Typed back: that field is no longer sent, nor expected.
    p.edit(book, undefined, 'tags', '["a","b"]', '["a","b"]', ['a', 'b']);
    expect(p.changes('books')).toEqual([
      {
        kind: 'update',
        key: 'row:books/b1',
        row: book,
        expected: { rank: 3 },
        fields: { rank: '6' }
      }
    ]);
    p.settle([
      {
        key: 'row:books/b1',
        status: 'conflict',
        message: 'changed meanwhile',
        current: { id: 'b1', rank: 9, title: 'Dune' },
        request: sent
      }
    ]);
    expect(p.overwrite('row:books/b1', 'books')).toBe('row:books/b1');
    expect(p.changes('books')).toEqual([
      {
        kind: 'update',
        key: 'row:books/b1',
        row: book,
        expected: { rank: 9 },
        fields: { rank: '6' }
      }
    ]);
    // With a version (Elasticsearch) the version says it all.
    p.edit(a, v1, 'price', '12', '10', 10);
    expect(p.changes('products', ['row:products/a'])).toEqual([
      {
        kind: 'update',
        key: 'row:products/a',
        row: a,
        version: v1,
        fields: { price: '12' }
      }
    ]);
    // And the expectation survives a page reload.
    const again = new PendingChanges(
      PendingStateSchema.parse(JSON.parse(JSON.stringify(p.state())))
    );
    expect(again.changes('books')).toEqual(p.changes('books'));
  });

  it('without versions, a deletion carries the row as read (an edit made first keeps the value it was made against)', () => {
    const p = new PendingChanges();
    const book = { index: 'books', id: 'b2' };
    p.edit(book, undefined, 'rank', '5', '3', 3);
    p.toggleDelete([
      {
        row: book,
        version: undefined,
        read: { id: 'b2', title: 'Emma', rank: 4 }
      }
    ]);
    expect(p.changes('books')).toEqual([
      {
        kind: 'delete',
        key: 'row:books/b2',
        row: book,
        expected: { id: 'b2', title: 'Emma', rank: 3 }
      }
    ]);
    p.settle([
      {
        key: 'row:books/b2',
        status: 'conflict',
        message: 'changed meanwhile',
        current: { id: 'b2', title: 'Emma II', rank: 3 },
        request: sent
      }
    ]);
    p.overwrite('row:books/b2', 'books');
    expect(p.changes('books')).toEqual([
      {
        kind: 'delete',
        key: 'row:books/b2',
        row: book,
        expected: { id: 'b2', title: 'Emma II', rank: 3 }
      }
    ]);
    // With a version nothing else is sent.
    p.toggleDelete([{ row: a, version: v1, read: { price: 10 } }]);
    expect(p.changes('products', ['row:products/a'])).toEqual([
      { kind: 'delete', key: 'row:products/a', row: a, version: v1 }
    ]);
  });

  it('survives being stored and read back (a page reload)', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    const key = p.insert();
    p.editNew(key, 'name', 'N', false);
    const again = new PendingChanges(
      PendingStateSchema.parse(JSON.parse(JSON.stringify(p.state())))
    );
    expect(again.changes('products')).toEqual(p.changes('products'));
    // Keys stay unique after the reload.
    expect(again.insert()).not.toBe(key);
  });

  it('Discard drops everything', () => {
    const p = new PendingChanges();
    p.edit(a, v1, 'price', '12', '10', 10);
    p.insert();
    p.discard();
    expect(p.count).toBe(0);
  });
});
