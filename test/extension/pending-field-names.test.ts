/** @jest-environment jsdom */
/**
 * Documents are data: cells of fields named like JavaScript object properties (`__proto__`,
 * `constructor`, `toString`) are pending changes like any other, kept across a page reload
 * (localStorage) and sent to the kernel as the comm schema reads them.
 */
import { RowChangeSchema } from '../../kernel/src/grid/edit-protocol';
import { PendingSync } from '../../extension/src/panel/pending-store';

const p1 = { index: 'shop', id: 'p1' };
const p2 = { index: 'shop', id: 'p2' };
const v = { seqNo: 1, primaryTerm: 1 };

/** Own entries only, in a fixed order: a key that became a prototype (or was dropped) is missing here. */
const own = (record: object | undefined) => (record ? Object.entries(record).sort(([a], [b]) => a.localeCompare(b)) : []);

describe('pending cells of fields named like object properties', () => {
  it('edited __proto__ and constructor cells, with the values they were made against, are all there after a reload and in the changes sent', () => {
    window.localStorage.clear();
    const page = new PendingSync('ts', 'shop');
    const pending = page.load();
    // Without versions (Typesense): each edited field's value as read is expected.
    pending.edit(p1, undefined, '__proto__', 'mine', 'theirs', 'theirs');
    pending.edit(p1, undefined, 'constructor', 'built', 'made', 'made');
    pending.edit(p1, undefined, 'toString', 'text', 'old', 'old');
    pending.edit(p2, v, '__proto__', '{"a": 1}', '"x"', 'x');
    const fresh = pending.insert();
    pending.editNew(fresh, '__proto__', 'new proto', false);
    pending.editNew(fresh, 'constructor', 'new constructor', false);
    page.store(pending);

    const reloaded = new PendingSync('ts', 'shop').load();
    expect(own(reloaded.rowOf(p1)?.fields)).toEqual([['__proto__', 'mine'], ['constructor', 'built'], ['toString', 'text']]);
    expect(own(reloaded.rowOf(p1)?.expected)).toEqual([['__proto__', 'theirs'], ['constructor', 'made'], ['toString', 'old']]);
    expect(reloaded.fieldOf(p2, '__proto__')).toBe('{"a": 1}');
    expect(own(reloaded.newRow(fresh)?.fields)).toEqual([['__proto__', 'new proto'], ['constructor', 'new constructor']]);
    expect(reloaded.count).toBe(3);

    // As the kernel reads the comm message: the same fields and expected values.
    const sent = reloaded.changes('shop').map((change) => RowChangeSchema.parse(JSON.parse(JSON.stringify(change))));
    const update = sent.find((c) => c.kind === 'update' && c.row.id === 'p1');
    expect(update?.kind === 'update' && own(update.fields)).toEqual([['__proto__', 'mine'], ['constructor', 'built'], ['toString', 'text']]);
    expect(update?.kind === 'update' && own(update.expected)).toEqual([['__proto__', 'theirs'], ['constructor', 'made'], ['toString', 'old']]);
    const insert = sent.find((c) => c.kind === 'insert');
    expect(insert?.kind === 'insert' && own(insert.fields)).toEqual([['__proto__', 'new proto'], ['constructor', 'new constructor']]);
  });

  it('typing a __proto__ or constructor cell back to its stored text undoes the edit', () => {
    window.localStorage.clear();
    const page = new PendingSync('ts', 'shop');
    const pending = page.load();
    pending.edit(p1, undefined, '__proto__', 'mine', 'theirs', 'theirs');
    pending.edit(p1, undefined, 'constructor', 'built', 'made', 'made');
    pending.edit(p1, undefined, '__proto__', 'theirs', 'theirs', 'theirs');
    expect(own(pending.rowOf(p1)?.fields)).toEqual([['constructor', 'built']]);
    pending.edit(p1, undefined, 'constructor', 'made', 'made', 'made');
    page.store(pending);
    expect(new PendingSync('ts', 'shop').load().count).toBe(0);
  });
});
