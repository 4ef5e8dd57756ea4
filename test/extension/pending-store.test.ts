/** @jest-environment jsdom */
import { PendingSync } from '../../extension/src/documents/pending-store';
import { PendingChanges } from '../../extension/src/documents/pending-changes';

const p1 = { index: 'shop', id: 'p1' };
const p2 = { index: 'shop', id: 'p2' };
const p3 = { index: 'shop', id: 'p3' };
const v = { seqNo: 1, primaryTerm: 1 };

/** Two pages of the same origin on one target: two grids over the same localStorage. */
function twoPages(): {
  a: PendingSync;
  b: PendingSync;
  pa: PendingChanges;
  pb: PendingChanges;
} {
  window.localStorage.clear();
  const a = new PendingSync('es', 'shop');
  const b = new PendingSync('es', 'shop');
  return { a, b, pa: a.load(), pb: b.load() };
}

const typed = (p: PendingChanges) =>
  p.editedRows.map(r => [r.row.id, r.fields]);

describe('the pending set shared by the pages of one origin', () => {
  it('a page that stores its changes keeps the changes another page stored since it read the set', () => {
    const { a, b, pa, pb } = twoPages();
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    // Page B read the set before A's change and never heard of it (no storage event yet).
    pb.edit(p2, v, 'qty', '22', '2', 2);
    expect(b.store(pb)).toBe(true);
    expect(typed(pb)).toEqual(
      expect.arrayContaining([
        ['p1', { qty: '11' }],
        ['p2', { qty: '22' }]
      ])
    );
    expect(typed(new PendingSync('es', 'shop').load())).toEqual(
      expect.arrayContaining([
        ['p1', { qty: '11' }],
        ['p2', { qty: '22' }]
      ])
    );
  });

  it('edited rows stay in the order they were changed, stored one after another', () => {
    const { a, pa } = twoPages();
    for (const [row, value] of [
      [p3, '33'],
      [p1, '11'],
      [p2, '22']
    ] as const) {
      pa.edit(row, v, 'qty', value, '0', 1);
      a.store(pa);
    }
    expect(typed(pa).map(([id]) => id)).toEqual(['p3', 'p1', 'p2']);
    expect(
      typed(new PendingSync('es', 'shop').load()).map(([id]) => id)
    ).toEqual(['p3', 'p1', 'p2']);
  });

  it("a page's save or discard removes only what that page had: a change made elsewhere meanwhile stays", () => {
    const { a, b, pa, pb } = twoPages();
    pb.edit(p2, v, 'qty', '22', '2', 2);
    b.store(pb);
    const seen = new PendingSync('es', 'shop');
    const pc = seen.load();
    // Page A edits p1 while B saves p2 without having seen A's change.
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    pb.settle([
      {
        key: 'row:shop/p2',
        status: 'saved',
        row: p2,
        request: {
          method: 'POST',
          path: '/shop/_update/p2',
          status: 200,
          elapsedMs: 1
        }
      }
    ]);
    b.store(pb);
    expect(typed(new PendingSync('es', 'shop').load())).toEqual([
      ['p1', { qty: '11' }]
    ]);
    // A third page that read p2 and discards all it had drops p2 only.
    pc.discard();
    seen.store(pc);
    expect(typed(new PendingSync('es', 'shop').load())).toEqual([
      ['p1', { qty: '11' }]
    ]);
  });

  it('a value another page types into a row while this page saves it stays pending in both', () => {
    const { a, b, pa, pb } = twoPages();
    a.watch(pa, () => undefined);
    b.watch(pb, () => undefined);
    const hear = () =>
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: `searchbook:pending:v1:${JSON.stringify(['es', 'shop'])}`,
          storageArea: window.localStorage
        })
      );
    pb.edit(p1, v, 'qty', '11', '1', 1);
    b.store(pb);
    hear();
    const changes = pb.changes('shop');
    // Page B's save is on its way when page A, which sees B's change, types another value into the same row.
    expect(typed(pa)).toEqual([['p1', { qty: '11' }]]);
    pa.edit(p1, v, 'name', 'Desk', 'Table', 'Table');
    a.store(pa);
    hear();
    expect(typed(pb)).toEqual([['p1', { qty: '11', name: 'Desk' }]]);
    pb.settle(
      [
        {
          key: 'row:shop/p1',
          status: 'saved',
          row: p1,
          version: { seqNo: 2, primaryTerm: 1 },
          request: {
            method: 'POST',
            path: '/shop/_update/p1',
            status: 200,
            elapsedMs: 1
          }
        }
      ],
      changes
    );
    b.store(pb);
    hear();
    a.unwatch();
    b.unwatch();
    expect(typed(new PendingSync('es', 'shop').load())).toEqual([
      ['p1', { name: 'Desk' }]
    ]);
    expect(typed(pa)).toEqual([['p1', { name: 'Desk' }]]);
  });

  it('a change the browser could not store (storage full) stays on the page and is stored with the next one', () => {
    const { a, pa } = twoPages();
    const full = jest
      .spyOn(Storage.prototype, 'setItem')
      .mockImplementationOnce(() => {
        throw new DOMException(
          'The quota has been exceeded.',
          'QuotaExceededError'
        );
      });
    const warn = jest
      .spyOn(console, 'warn')
      .mockImplementation(() => undefined);
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    expect(a.notStored).toBe(true);
    expect(new PendingSync('es', 'shop').load().count).toBe(0);
    // Another page writes meanwhile: this page takes its change in and keeps its own.
    const { b, pb } = {
      b: new PendingSync('es', 'shop'),
      pb: new PendingChanges()
    };
    a.watch(pa, () => undefined);
    pb.edit(p3, v, 'qty', '33', '3', 3);
    b.store(pb);
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: `searchbook:pending:v1:${JSON.stringify(['es', 'shop'])}`,
        storageArea: window.localStorage
      })
    );
    a.unwatch();
    expect(typed(pa)).toEqual(
      expect.arrayContaining([
        ['p1', { qty: '11' }],
        ['p3', { qty: '33' }]
      ])
    );
    pa.edit(p2, v, 'qty', '22', '2', 2);
    a.store(pa);
    full.mockRestore();
    warn.mockRestore();
    expect(a.notStored).toBe(false);
    expect(typed(pa)).toEqual(
      expect.arrayContaining([
        ['p1', { qty: '11' }],
        ['p2', { qty: '22' }],
        ['p3', { qty: '33' }]
      ])
    );
    expect(typed(new PendingSync('es', 'shop').load())).toEqual(
      expect.arrayContaining([
        ['p1', { qty: '11' }],
        ['p2', { qty: '22' }],
        ['p3', { qty: '33' }]
      ])
    );
  });

  it("another page clearing the browser's whole storage does not take this page's changes with it", () => {
    const { a, pa } = twoPages();
    a.watch(pa, () => undefined);
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    window.localStorage.clear();
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: null,
        storageArea: window.localStorage
      })
    );
    a.unwatch();
    expect(typed(pa)).toEqual([['p1', { qty: '11' }]]);
    expect(typed(new PendingSync('es', 'shop').load())).toEqual([
      ['p1', { qty: '11' }]
    ]);
  });

  it('two pages typing into the same row before either hears of the other keep both values', () => {
    const { a, b, pa, pb } = twoPages();
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    pb.edit(p1, v, 'name', 'Desk', 'Table', 'Table');
    b.store(pb);
    expect(typed(pb)).toEqual([['p1', { qty: '11', name: 'Desk' }]]);
    expect(typed(new PendingSync('es', 'shop').load())).toEqual([
      ['p1', { qty: '11', name: 'Desk' }]
    ]);
    // A conflict met on one page stays when the other types into that row (typing there clears only its own mark).
    pa.settle([
      {
        key: 'row:shop/p1',
        status: 'conflict',
        message: 'changed meanwhile',
        current: { qty: 5 },
        version: { seqNo: 4, primaryTerm: 1 },
        request: {
          method: 'POST',
          path: '/shop/_update/p1',
          status: 409,
          elapsedMs: 1
        }
      }
    ]);
    a.store(pa);
    pb.edit(p1, v, 'note', 'x', '', '');
    b.store(pb);
    const stored = new PendingSync('es', 'shop').load();
    expect(typed(stored)).toEqual([
      ['p1', { qty: '11', name: 'Desk', note: 'x' }]
    ]);
    expect(stored.problemOf('row:shop/p1')).toMatchObject({ kind: 'conflict' });
  });

  it('new rows inserted on two pages at once are two rows', () => {
    const { a, b, pa, pb } = twoPages();
    pa.insert();
    pb.insert();
    a.store(pa);
    b.store(pb);
    expect(new PendingSync('es', 'shop').load().newRows).toHaveLength(2);
  });

  it("another page's write reaches a watching grid through the storage event, and the next store writes nothing back over it", () => {
    const { a, b, pa, pb } = twoPages();
    let repaints = 0;
    b.watch(pb, () => repaints++);
    pa.edit(p1, v, 'qty', '11', '1', 1);
    a.store(pa);
    // jsdom does not send storage events between documents: sent here as another page's browser would.
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: `searchbook:pending:v1:${JSON.stringify(['es', 'shop'])}`,
        storageArea: window.localStorage
      })
    );
    expect(repaints).toBe(1);
    expect(typed(pb)).toEqual([['p1', { qty: '11' }]]);
    expect(b.store(pb)).toBe(false);
    b.unwatch();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(repaints).toBe(1);
  });

  describe('stored text this panel cannot read whole', () => {
    const key = `searchbook:pending:v1:${JSON.stringify(['es', 'shop'])}`;
    const aside = `searchbook:pending-unread:v1:${JSON.stringify(['es', 'shop'])}`;
    let warn: jest.SpyInstance;
    beforeEach(() => {
      window.localStorage.clear();
      warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    it('is kept aside, not removed, when a grid opens on it and stores its empty set', () => {
      window.localStorage.setItem(
        key,
        '{"v":1,"next":3,"edited":[{"key":"row:shop/p1"'
      );
      const sync = new PendingSync('es', 'shop');
      const pending = sync.load();
      sync.store(pending);
      expect(sync.keptAside).toBe(aside);
      expect(window.localStorage.getItem(aside)).toBe(
        '{"v":1,"next":3,"edited":[{"key":"row:shop/p1"'
      );
    });

    it('gives the changes it holds that can be read, and keeps the whole text aside', () => {
      const stored = {
        v: 2,
        next: 4,
        edited: [
          {
            key: 'row:shop/p1',
            row: p1,
            version: v,
            fields: { qty: '11' },
            deleted: false
          },
          { key: 'row:shop/p2', row: p2, fields: { qty: 22 }, deleted: 'yes' }
        ],
        added: [{ key: 'new:3', id: '', fields: { title: 'Lamp' } }]
      };
      window.localStorage.setItem(key, JSON.stringify(stored));
      const sync = new PendingSync('es', 'shop');
      const pending = sync.load();
      expect(typed(pending)).toEqual([['p1', { qty: '11' }]]);
      expect(pending.newRows.map(r => r.fields)).toEqual([{ title: 'Lamp' }]);
      pending.edit(p1, v, 'qty', '12', '1', 1);
      sync.store(pending);
      expect(JSON.parse(window.localStorage.getItem(aside) ?? 'null')).toEqual(
        stored
      );
      expect(typed(new PendingSync('es', 'shop').load())).toEqual([
        ['p1', { qty: '12' }]
      ]);
    });

    it('reaching a watching page from another page does not wipe what that page shows', () => {
      const { a, pa } = twoPages();
      a.watch(pa, () => undefined);
      pa.edit(p1, v, 'qty', '11', '1', 1);
      a.store(pa);
      window.localStorage.setItem(
        key,
        JSON.stringify({
          v: 2,
          next: 2,
          edited: [
            {
              key: 'row:shop/p1',
              row: p1,
              version: v,
              fields: { qty: '11' },
              deleted: false,
              shape: 'new'
            }
          ],
          added: 'later'
        })
      );
      window.dispatchEvent(
        new StorageEvent('storage', { key, storageArea: window.localStorage })
      );
      a.unwatch();
      expect(typed(pa)).toEqual([['p1', { qty: '11' }]]);
    });
  });

  it('a set stored by an older panel (new rows without a chosen id, no expected values) still loads whole', () => {
    window.localStorage.clear();
    const older = {
      v: 1,
      next: 2,
      edited: [
        {
          key: 'row:shop/p1',
          row: p1,
          version: v,
          fields: { qty: '11' },
          deleted: false
        }
      ],
      added: [{ key: 'new:1', id: '', fields: { title: 'Lamp' } }]
    };
    window.localStorage.setItem(
      `searchbook:pending:v1:${JSON.stringify(['es', 'shop'])}`,
      JSON.stringify(older)
    );
    const sync = new PendingSync('es', 'shop');
    const pending = sync.load();
    expect(sync.keptAside).toBeUndefined();
    expect(pending.changes('shop')).toEqual([
      {
        kind: 'insert',
        key: 'new:1',
        index: 'shop',
        id: expect.any(String),
        fields: { title: 'Lamp' }
      },
      {
        kind: 'update',
        key: 'row:shop/p1',
        row: p1,
        version: v,
        fields: { qty: '11' }
      }
    ]);
  });
});
