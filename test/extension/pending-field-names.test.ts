/** @jest-environment jsdom */
/**
 * Documents are data: cells of fields named like JavaScript object properties (`__proto__`,
 * `constructor`, `toString`) are pending changes like any other, kept across a page reload
 * (localStorage), marked in the panel's grid only where typed, and sent to the kernel as the
 * comm schema reads them.
 */
import './support/dom';
import { RowChangeSchema } from '../../contracts/edit-protocol';
import {
  type Block,
  BlockSchema,
  type Column
} from '../../contracts/panel-protocol';
import { EditableRowsModel } from '../../extension/src/documents/editable-rows-model';
import { PendingChanges } from '../../extension/src/documents/pending-changes';
import { PendingSync } from '../../extension/src/documents/pending-store';

const p1 = { index: 'shop', id: 'p1' };
const p2 = { index: 'shop', id: 'p2' };
const v = { seqNo: 1, primaryTerm: 1 };

/** Own entries only, in a fixed order: a key that became a prototype (or was dropped) is missing here. */
const own = (record: object | undefined) =>
  record ? Object.entries(record).sort(([a], [b]) => a.localeCompare(b)) : [];

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
    expect(own(reloaded.rowOf(p1)?.fields)).toEqual([
      ['__proto__', 'mine'],
      ['constructor', 'built'],
      ['toString', 'text']
    ]);
    expect(own(reloaded.rowOf(p1)?.expected)).toEqual([
      ['__proto__', 'theirs'],
      ['constructor', 'made'],
      ['toString', 'old']
    ]);
    expect(reloaded.fieldOf(p2, '__proto__')).toBe('{"a": 1}');
    expect(own(reloaded.newRow(fresh)?.fields)).toEqual([
      ['__proto__', 'new proto'],
      ['constructor', 'new constructor']
    ]);
    expect(reloaded.count).toBe(3);

    // As the kernel reads the comm message: the same fields and expected values.
    const sent = reloaded
      .changes('shop')
      .map(change => RowChangeSchema.parse(JSON.parse(JSON.stringify(change))));
    const update = sent.find(c => c.kind === 'update' && c.row.id === 'p1');
    expect(update?.kind === 'update' && own(update.fields)).toEqual([
      ['__proto__', 'mine'],
      ['constructor', 'built'],
      ['toString', 'text']
    ]);
    expect(update?.kind === 'update' && own(update.expected)).toEqual([
      ['__proto__', 'theirs'],
      ['constructor', 'made'],
      ['toString', 'old']
    ]);
    const insert = sent.find(c => c.kind === 'insert');
    expect(insert?.kind === 'insert' && own(insert.fields)).toEqual([
      ['__proto__', 'new proto'],
      ['constructor', 'new constructor']
    ]);
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

describe("the panel's grid over fields named like object properties", () => {
  const names = ['_id', '__proto__', 'constructor', 'toString', 'n'];
  const columns: Column[] = names.map(name => ({
    name,
    type: 'keyword',
    readOnly: name === '_id',
    json: false,
    origin: name === '_id' ? 'meta' : 'mapping',
    ...(name === '_id' ? { primaryKey: true } : {})
  }));
  // As the comm sends the block: parsed JSON, where __proto__ is a field.
  const block: Block = BlockSchema.parse(
    JSON.parse(
      JSON.stringify({
        block: 0,
        offset: 0,
        rows: [
          JSON.parse(
            '{"_id": "a", "__proto__": "p", "constructor": "c", "toString": "t", "n": "1"}'
          )
        ],
        cut: [],
        columns,
        requests: [],
        keys: [{ index: 'items', id: 'a' }],
        versions: [null]
      })
    )
  );

  it('a typed __proto__ cell shows the text typed and is marked; the cells not typed are not', () => {
    const model = new EditableRowsModel(
      columns,
      1,
      10,
      block,
      () => new Promise(() => undefined),
      new PendingChanges(),
      () => 'items'
    );
    const at = (name: string) => names.indexOf(name);
    expect(model.setData('body', 0, at('__proto__'), 'typed')).toBe(true);
    expect(model.data('body', 0, at('__proto__'))).toBe('typed');
    expect(names.map(name => model.mark(0, at(name)) ?? null)).toEqual([
      null,
      'changed',
      null,
      null,
      null
    ]);
    const [update] = model.pending.changes('items');
    expect(
      update?.kind === 'update' && [own(update.fields), own(update.expected)]
    ).toEqual([[['__proto__', 'typed']], [['__proto__', 'p']]]);
  });
});
