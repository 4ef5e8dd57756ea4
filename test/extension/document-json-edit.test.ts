/** @jest-environment jsdom */
/**
 * A document edited as JSON in the panel's grid becomes the cells a user could have typed: the
 * fields changed, named as the grid's columns name them, and nothing else; what cells cannot
 * say (a removed field, a typed value for a field no column types, a changed id) is refused
 * with what to write. A duplicated row copies the fields a new row can set, and a cell's value
 * makes one filter-bar row.
 */
import './support/dom';
import type { Column } from '../../contracts/columns';
import {
  columnRefusal,
  editedFields
} from '../../extension/src/documents/document-json-edit';
import { duplicateFields } from '../../extension/src/documents/duplicate-row';
import { valueFilter } from '../../extension/src/documents/value-filter';

const column = (name: string, extra: Partial<Column> = {}): Column => ({
  name,
  type: 'keyword',
  readOnly: false,
  json: false,
  ...extra
});
const COLUMNS: Column[] = [
  column('_id', { readOnly: true, primaryKey: true, origin: 'meta' }),
  column('_index', { readOnly: true, origin: 'meta' }),
  column('title'),
  column('qty', { type: 'integer' }),
  column('place.city'),
  column('tags', { json: true }),
  column('variants', { type: 'nested', json: true }),
  column('variants.sku', { arrayParent: 'variants' })
];
const STORED = {
  title: 'Book',
  qty: 2,
  place: { city: 'Rome' },
  tags: ['a'],
  variants: [{ sku: 's1' }]
};

describe('a document edited as JSON', () => {
  it('gives the changed fields under their column names: leaves inside objects, arrays whole', () => {
    const edited = {
      ...STORED,
      qty: 3,
      place: { city: 'Lima' },
      variants: [{ sku: 's2' }]
    };
    // As JSON.parse reads it: `__proto__` is a field of the document like any other.
    const text = `{${Object.entries(edited)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(', ')}, "__proto__": "a field"}`;
    const { fields, problems } = editedFields(
      STORED,
      JSON.parse(text),
      COLUMNS
    );
    expect(problems).toEqual([]);
    expect(fields).toEqual([
      { column: 'qty', value: 3 },
      { column: 'place.city', value: 'Lima' },
      { column: 'variants', value: [{ sku: 's2' }] },
      { column: '__proto__', value: 'a field' }
    ]);
  });

  it('refuses a removed field, a typed value for a field no column types and a top level that is no object, saying what to write', () => {
    const { title: _title, ...withoutTitle } = STORED;
    expect(
      editedFields(STORED, { ...withoutTitle, extra: 5 }, COLUMNS).problems
    ).toEqual([
      'title was removed: saving changes fields and keeps the others; to empty it, write "title": null.',
      'extra is a new field with no column in this grid, so its type is unknown here: write its value as a string ("extra": "…"), or add it with a request in a console cell.'
    ]);
    expect(editedFields(STORED, [1], COLUMNS).problems[0]).toMatch(
      /must stay one JSON object/
    );
    expect(
      editedFields(STORED, { ...STORED, title: null, note: 'new' }, COLUMNS)
    ).toEqual({
      fields: [
        { column: 'title', value: null },
        { column: 'note', value: 'new' }
      ],
      problems: []
    });
  });

  it('keeps the rules of cells: the id and what the engine keeps are refused', () => {
    expect(columnRefusal(COLUMNS[0])).toMatch(
      /^_id identifies the document and cannot be changed: duplicate the row/
    );
    expect(columnRefusal(COLUMNS[1])).toMatch(/^_index is read-only/);
    expect(columnRefusal(COLUMNS[2])).toBeUndefined();
  });
});

describe('a duplicated row and a filter by value', () => {
  it('copies what a new row can set, the typed texts over the stored values, never the id', () => {
    expect(
      duplicateFields(
        COLUMNS,
        {
          _id: 'b1',
          _index: 'books',
          title: 'Book',
          qty: 2,
          'place.city': 'Rome',
          tags: ['a'],
          'variants.sku': ['s1'],
          variants: [{ sku: 's1' }]
        },
        { qty: '7' }
      )
    ).toEqual({
      title: 'Book',
      qty: '7',
      'place.city': 'Rome',
      tags: '[\n  "a"\n]',
      variants: '[\n  {\n    "sku": "s1"\n  }\n]'
    });
  });

  it('filters by text, number, boolean and presence; a list cannot be one value', () => {
    const [title, qty] = [COLUMNS[2], COLUMNS[3]] as [Column, Column];
    expect(valueFilter(title, 'Book', false)).toEqual({
      row: { column: 'title', operator: 'equals', value: 'Book' }
    });
    expect(valueFilter(qty, 2, true)).toEqual({
      row: { column: 'qty', operator: 'not equals', value: '2' }
    });
    expect(valueFilter(title, false, false)).toMatchObject({
      row: { value: 'false' }
    });
    expect(valueFilter(title, null, false)).toMatchObject({
      row: { operator: 'is null' }
    });
    expect(valueFilter(title, undefined, true)).toMatchObject({
      row: { operator: 'is not null' }
    });
    expect(valueFilter(title, ['a'], false)).toEqual({
      why: 'title holds a list: add a filter row on one of its values instead.'
    });
  });
});
