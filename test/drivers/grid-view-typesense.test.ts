/**
 * The filter bar and header sorts as Typesense `filter_by` and `sort_by`
 * (https://typesense.org/docs/29.0/api/search.html#filter-parameters): the form each operator
 * is sent in, values typed by the schema, the raw row verbatim, and every refusal (the six inexpressible operators, backticks, bad values).
 */
import type { Refusal } from '../../kernel/src/console/refusal';
import { filterRefusal } from './helpers';
import { searchOfView } from '../../kernel/src/engines/typesense/grid-filter';
import { treeOfSchema } from '../../kernel/src/engines/typesense/schema';
import {
  type FilterRow,
  type GridView,
  GridViewSchema
} from '../../contracts/panel-protocol';

const tree = treeOfSchema(
  [
    { name: 'title', type: 'string', sort: true },
    { name: 'genre', type: 'string' },
    { name: 'tags', type: 'string[]' },
    { name: 'pages', type: 'int32' },
    { name: 'rating', type: 'float' },
    { name: 'year', type: 'int64', sort: true },
    { name: 'in_print', type: 'bool' },
    { name: 'counts', type: 'int32[]' },
    { name: 'variants', type: 'object[]' },
    { name: 'variants.sku', type: 'string[]' }
  ],
  true
);

const view = (
  filters: Partial<FilterRow>[],
  more: Partial<GridView> = {}
): GridView => GridViewSchema.parse({ ...more, filters });
const filterOf = (row: Partial<FilterRow>) =>
  searchOfView(view([row]), tree).parameters.filter_by;
const refusal = (v: GridView): Refusal =>
  filterRefusal(() => searchOfView(v, tree));

describe('each operator as filter_by writes it', () => {
  it.each([
    [
      'equals, a string in backticks',
      { column: 'genre', operator: 'equals', value: 'sci fi' },
      'genre:=`sci fi`'
    ],
    [
      'equals, a number unquoted',
      { column: 'pages', operator: 'equals', value: '120' },
      'pages:=120'
    ],
    [
      'equals, a boolean unquoted',
      { column: 'in_print', operator: 'equals', value: 'False' },
      'in_print:=false'
    ],
    [
      'not equals',
      { column: 'genre', operator: 'not equals', value: 'poetry' },
      'genre:!=`poetry`'
    ],
    [
      'greater than',
      { column: 'rating', operator: 'greater than', value: '4.5' },
      'rating:>4.5'
    ],
    [
      'greater or equal',
      { column: 'pages', operator: 'greater or equal', value: '10' },
      'pages:>=10'
    ],
    [
      'less than',
      { column: 'year', operator: 'less than', value: '2000' },
      'year:<2000'
    ],
    [
      'an int64 past 2^53 with every digit, not its nearest double',
      { column: 'year', operator: 'equals', value: ' 9007199254740993' },
      'year:=9007199254740993'
    ],
    [
      'less or equal',
      { column: 'counts', operator: 'less or equal', value: '3' },
      'counts:<=3'
    ],
    [
      'between, inclusive',
      { column: 'year', operator: 'between', value: ['1990', '1999'] },
      'year:[1990..1999]'
    ],
    [
      'in list',
      { column: 'tags', operator: 'in list', value: ['a', 'b'] },
      'tags:=[`a`,`b`]'
    ],
    [
      'in list of numbers',
      { column: 'pages', operator: 'in list', value: ['1', '2'] },
      'pages:=[1,2]'
    ],
    [
      'not in list',
      { column: 'genre', operator: 'not in list', value: ['a', 'b'] },
      'genre:!=[`a`,`b`]'
    ],
    [
      'contains (whole word)',
      { column: 'title', operator: 'contains', value: 'dune' },
      'title:`dune`'
    ],
    [
      'not contains',
      { column: 'title', operator: 'not contains', value: 'dune' },
      'title:!`dune`'
    ],
    [
      'starts with',
      { column: 'title', operator: 'starts with', value: 'Du' },
      'title:`Du`*'
    ],
    [
      'id',
      { column: 'id', operator: 'in list', value: ['7', '9'] },
      'id:=[`7`,`9`]'
    ],
    [
      'a leaf of an object array',
      { column: 'variants.sku', operator: 'equals', value: 'A1' },
      'variants.sku:=`A1`'
    ]
  ] as const)('%s', (_name, row, expression) => {
    expect(filterOf(row as Partial<FilterRow>)).toBe(expression);
  });

  it('rows joined with && for All and || for Any; the raw row verbatim', () => {
    const rows: Partial<FilterRow>[] = [
      { column: 'genre', operator: 'equals', value: 'sf' },
      { column: 'pages', operator: 'greater than', value: '100' }
    ];
    expect(searchOfView(view(rows), tree).parameters.filter_by).toBe(
      'genre:=`sf` && pages:>100'
    );
    expect(
      searchOfView(view(rows, { join: 'any' }), tree).parameters.filter_by
    ).toBe('genre:=`sf` || pages:>100');
    expect(
      searchOfView(view([], { raw: 'pages:>10 && genre:=[sf]' }), tree)
        .parameters.filter_by
    ).toBe('pages:>10 && genre:=[sf]');
    expect(
      searchOfView(
        view(rows.slice(0, 1), { raw: 'pages:>10 || year:<1990', join: 'all' }),
        tree
      ).parameters.filter_by
    ).toBe('genre:=`sf` && (pages:>10 || year:<1990)');
    expect(searchOfView(view([]), tree).parameters).toEqual({});
  });
});

describe('refused before anything is sent (operators filter_by cannot express, backticks, bad values)', () => {
  const six = [
    'is null',
    'is not null',
    'is empty',
    'is not empty',
    'matches regex',
    'ends with'
  ] as const;
  it.each(six)(
    '%s: the engine cannot express it, and the refusal says what serves instead',
    operator => {
      const refused = refusal(
        view([
          { column: 'genre', operator: 'equals', value: 'x' },
          { column: 'genre', operator, value: 'x' }
        ])
      );
      expect(refused.message).toMatch(
        new RegExp(`^Typesense cannot filter with "${operator}": `)
      );
      expect(refused.message).toMatch(
        operator === 'ends with'
          ? /infix: true/
          : operator === 'matches regex'
            ? /no regular expressions/
            : /no test for a missing, null or empty value/
      );
      // "contains" matches whole words on Typesense: it can do none of these.
      expect(refused.message).not.toMatch(/contains/);
      expect(refused.where).toEqual({ kind: 'filter', row: 1 });
    }
  );

  it.each([
    [
      { column: 'genre', operator: 'equals', value: 'a`b' },
      'cannot hold a backtick'
    ],
    [
      { column: 'tags', operator: 'in list', value: ['ok', 'x`'] },
      'cannot hold a backtick'
    ],
    [
      { column: 'pages', operator: 'equals', value: 'ten' },
      'pages (int32): "ten" is not a number'
    ],
    [
      { column: 'pages', operator: 'equals', value: '1.5' },
      'not a whole number'
    ],
    [
      { column: 'in_print', operator: 'equals', value: 'maybe' },
      'write true or false'
    ],
    [
      { column: 'genre', operator: 'greater than', value: 'm' },
      'works on numeric columns only'
    ],
    [
      { column: 'genre', operator: 'between', value: ['a', 'm'] },
      'works on numeric columns only'
    ],
    [
      { column: 'pages', operator: 'contains', value: '1' },
      'works on string columns'
    ],
    [{ column: 'variants', operator: 'equals', value: 'x' }, 'JSON column']
  ] as const)('%o', (row, message) => {
    const refused = refusal(view([row as Partial<FilterRow>]));
    expect(refused.message).toContain(message);
    expect(refused.where).toEqual({ kind: 'filter', row: 0 });
  });
});

describe('sorting (fields declared with sort: true, at most three)', () => {
  const sortOf = (columns: string[]) =>
    searchOfView(
      view([], {
        sort: columns.map((column, i) => ({
          column,
          direction: i % 2 ? 'desc' : 'asc'
        }))
      }),
      tree
    );
  it('sort: true and numeric fields, in click order', () => {
    expect(sortOf(['title', 'pages', 'rating'])).toEqual({
      parameters: { sort_by: 'title:asc,pages:desc,rating:asc' },
      sortedBy: ['title', 'pages', 'rating'],
      notes: []
    });
  });

  it('a fourth sorted column is dropped with a note', () => {
    const { parameters, notes } = sortOf(['title', 'pages', 'rating', 'year']);
    expect(parameters.sort_by).toBe('title:asc,pages:desc,rating:asc');
    expect(notes).toEqual([
      expect.stringContaining(
        'Not sorted by year: Typesense sorts on at most 3 fields'
      )
    ]);
  });

  it('id and fields without sort: true are dropped with a note, never sent', () => {
    const { parameters, sortedBy, notes } = sortOf([
      'id',
      'genre',
      'tags',
      'year'
    ]);
    expect(parameters.sort_by).toBe('year:desc');
    expect(sortedBy).toEqual(['year']);
    expect(notes).toEqual([
      expect.stringContaining('Not sorted by id'),
      expect.stringContaining('Not sorted by genre'),
      expect.stringContaining('Not sorted by tags')
    ]);
  });
});
