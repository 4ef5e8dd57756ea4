/**
 * The filter bar and header sorts as Elasticsearch searches (`term`, `range`, `wildcard`,
 * `terms` and `exists` clauses, the raw row as a `query_string`, text sorted by its `.keyword`
 * subfield): every operator, typed values, keyword subfields, nested grouping, the raw row,
 * and every refusal, against a mapping read the way the driver reads it.
 */
import { searchOfView } from '../../kernel/src/engines/elasticsearch/grid-query';
import { structureOfMapping } from '../../kernel/src/engines/elasticsearch/mapping';
import type { Refusal } from '../../kernel/src/console/refusal';
import { filterRefusal } from './helpers';
import { exactJson } from '../../contracts/exact-json';
import {
  EMPTY_VIEW,
  type FilterRow,
  type GridView,
  GridViewSchema
} from '../../contracts/panel-protocol';

const tree = structureOfMapping({
  status: 200,
  headers: {},
  elapsedMs: 0,
  body: {
    kind: 'json',
    value: {
      books: {
        mappings: {
          properties: {
            title: {
              type: 'text',
              fields: { keyword: { type: 'keyword', ignore_above: 256 } }
            },
            blurb: { type: 'text' },
            tag: { type: 'keyword' },
            pages: { type: 'integer' },
            price: { type: 'double' },
            published: { type: 'date' },
            in_print: { type: 'boolean' },
            author: { properties: { name: { type: 'keyword' } } },
            variants: {
              type: 'nested',
              properties: { sku: { type: 'keyword' }, stock: { type: 'long' } }
            }
          }
        }
      }
    }
  }
}).tree;

/** A view with Match case on unless `more` says otherwise: the clauses below are the exact ones. */
const view = (
  filters: Partial<FilterRow>[],
  more: Partial<GridView> = {}
): GridView => GridViewSchema.parse({ matchCase: true, ...more, filters });
const query = (row: Partial<FilterRow>, more: Partial<GridView> = {}) =>
  searchOfView(view([row], more), tree).query;
const refusal = (v: GridView): Refusal =>
  filterRefusal(() => searchOfView(v, tree));
const not = (clause: unknown) => ({ bool: { must_not: [clause] } });

describe('each operator becomes its clause', () => {
  it.each([
    [
      'equals',
      { column: 'tag', operator: 'equals', value: 'sf' },
      { term: { tag: { value: 'sf' } } }
    ],
    [
      'equals on a number, typed',
      { column: 'pages', operator: 'equals', value: '42' },
      { term: { pages: { value: 42 } } }
    ],
    [
      'equals on a boolean, typed',
      { column: 'in_print', operator: 'equals', value: 'TRUE' },
      { term: { in_print: { value: true } } }
    ],
    [
      'not equals',
      { column: 'tag', operator: 'not equals', value: 'sf' },
      not({ term: { tag: { value: 'sf' } } })
    ],
    [
      'greater than',
      { column: 'price', operator: 'greater than', value: '9.5' },
      { range: { price: { gt: 9.5 } } }
    ],
    [
      'greater or equal',
      { column: 'pages', operator: 'greater or equal', value: '10' },
      { range: { pages: { gte: 10 } } }
    ],
    [
      'less than',
      { column: 'published', operator: 'less than', value: '2020-01-01' },
      { range: { published: { lt: '2020-01-01' } } }
    ],
    [
      'less or equal',
      { column: 'tag', operator: 'less or equal', value: 'm' },
      { range: { tag: { lte: 'm' } } }
    ],
    [
      'between, inclusive',
      { column: 'pages', operator: 'between', value: ['10', '20'] },
      { range: { pages: { gte: 10, lte: 20 } } }
    ],
    [
      'in list',
      { column: 'tag', operator: 'in list', value: ['a', 'b'] },
      { terms: { tag: ['a', 'b'] } }
    ],
    [
      'not in list',
      { column: 'pages', operator: 'not in list', value: ['1', '2'] },
      not({ terms: { pages: [1, 2] } })
    ],
    [
      'contains, its wildcards escaped',
      { column: 'tag', operator: 'contains', value: 'a*b?' },
      { wildcard: { tag: { value: '*a\\*b\\?*' } } }
    ],
    [
      'not contains',
      { column: 'tag', operator: 'not contains', value: 'x' },
      not({ wildcard: { tag: { value: '*x*' } } })
    ],
    [
      'starts with',
      { column: 'tag', operator: 'starts with', value: 'sci' },
      { prefix: { tag: { value: 'sci' } } }
    ],
    [
      'ends with',
      { column: 'tag', operator: 'ends with', value: 'fi' },
      { wildcard: { tag: { value: '*fi' } } }
    ],
    [
      'is null',
      { column: 'price', operator: 'is null' },
      not({ exists: { field: 'price' } })
    ],
    [
      'is not null',
      { column: 'price', operator: 'is not null' },
      { exists: { field: 'price' } }
    ],
    [
      'is empty on a keyword: missing or the empty string',
      { column: 'tag', operator: 'is empty' },
      {
        bool: {
          should: [not({ exists: { field: 'tag' } }), { term: { tag: '' } }],
          minimum_should_match: 1
        }
      }
    ],
    [
      'is empty on a number: missing',
      { column: 'pages', operator: 'is empty' },
      not({ exists: { field: 'pages' } })
    ],
    [
      'is not empty',
      { column: 'pages', operator: 'is not empty' },
      not(not({ exists: { field: 'pages' } }))
    ],
    [
      'matches regex',
      { column: 'tag', operator: 'matches regex', value: 's[a-f]+' },
      { regexp: { tag: { value: 's[a-f]+' } } }
    ],
    [
      'an object leaf by its dotted path',
      { column: 'author.name', operator: 'equals', value: 'Le Guin' },
      { term: { 'author.name': { value: 'Le Guin' } } }
    ],
    [
      '_id',
      { column: '_id', operator: 'in list', value: ['1', '2'] },
      { terms: { _id: ['1', '2'] } }
    ]
  ] as const)('%s', (_name, row, clause) => {
    expect(query(row as Partial<FilterRow>)).toEqual(clause);
  });
});

describe('text fields', () => {
  it('exact operators use the keyword subfield, exists the text field itself', () => {
    expect(
      query({ column: 'title', operator: 'equals', value: 'Dune' })
    ).toEqual({ term: { 'title.keyword': { value: 'Dune' } } });
    expect(
      query({ column: 'title', operator: 'starts with', value: 'Du' })
    ).toEqual({ prefix: { 'title.keyword': { value: 'Du' } } });
    expect(query({ column: 'title', operator: 'is not null' })).toEqual({
      exists: { field: 'title' }
    });
  });

  it('without a keyword subfield: equals and contains match the phrase; exact-only operators are refused', () => {
    expect(
      query({ column: 'blurb', operator: 'equals', value: 'red planet' })
    ).toEqual({ match_phrase: { blurb: 'red planet' } });
    expect(
      query({ column: 'blurb', operator: 'contains', value: 'planet' })
    ).toEqual({ match_phrase: { blurb: 'planet' } });
    expect(
      refusal(view([{ column: 'blurb', operator: 'starts with', value: 'r' }]))
        .message
    ).toContain('blurb is a text field without a keyword subfield');
  });

  it('the case control off adds case_insensitive to string clauses, and in list becomes term clauses that can carry it', () => {
    expect(
      query(
        { column: 'tag', operator: 'contains', value: 'SF' },
        { matchCase: false }
      )
    ).toEqual({ wildcard: { tag: { value: '*SF*', case_insensitive: true } } });
    expect(
      query(
        { column: 'tag', operator: 'in list', value: ['A', 'b'] },
        { matchCase: false }
      )
    ).toEqual({
      bool: {
        should: [
          { term: { tag: { value: 'A', case_insensitive: true } } },
          { term: { tag: { value: 'b', case_insensitive: true } } }
        ],
        minimum_should_match: 1
      }
    });
    expect(
      query(
        { column: 'pages', operator: 'equals', value: '3' },
        { matchCase: false }
      )
    ).toEqual({ term: { pages: { value: 3 } } });
    expect(
      query(
        { column: '_id', operator: 'equals', value: 'A1' },
        { matchCase: false }
      )
    ).toEqual({ term: { _id: { value: 'A1' } } });
  });

  it('a view that does not ask to match case ignores it: Match case starts off', () => {
    const unsaid = GridViewSchema.parse({
      filters: [{ column: 'tag', operator: 'starts with', value: 'Sci' }]
    });
    expect(searchOfView(unsaid, tree).query).toEqual({
      prefix: { tag: { value: 'Sci', case_insensitive: true } }
    });
  });
});

describe('joining rows', () => {
  const rows: Partial<FilterRow>[] = [
    { column: 'tag', operator: 'equals', value: 'sf' },
    { column: 'pages', operator: 'greater than', value: '100' }
  ];
  it('All is a bool filter, Any a bool should with one match required', () => {
    const [a, b] = [
      { term: { tag: { value: 'sf' } } },
      { range: { pages: { gt: 100 } } }
    ];
    expect(searchOfView(view(rows), tree).query).toEqual({
      bool: { filter: [a, b] }
    });
    expect(searchOfView(view(rows, { join: 'any' }), tree).query).toEqual({
      bool: { should: [a, b], minimum_should_match: 1 }
    });
  });

  it('the raw row is a query_string across all fields, joined like a row', () => {
    expect(searchOfView(view([], { raw: 'price:>10' }), tree).query).toEqual({
      query_string: { query: 'price:>10' }
    });
    expect(
      searchOfView(view(rows.slice(0, 1), { raw: 'name:Widget' }), tree).query
    ).toEqual({
      bool: {
        filter: [
          { term: { tag: { value: 'sf' } } },
          { query_string: { query: 'name:Widget' } }
        ]
      }
    });
  });

  it('no rows: no query (every document)', () => {
    expect(searchOfView(EMPTY_VIEW, tree)).toEqual({
      query: undefined,
      sort: [],
      sortedBy: [],
      notes: []
    });
  });
});

describe('nested arrays', () => {
  const sku = { term: { 'variants.sku': { value: 'A1' } } };
  const stock = { range: { 'variants.stock': { gt: 0 } } };
  it('two rows on leaves of the same nested array match different elements: one nested query each', () => {
    const v = view([
      { column: 'variants.sku', operator: 'equals', value: 'A1' },
      { column: 'variants.stock', operator: 'greater than', value: '0' }
    ]);
    expect(searchOfView(v, tree).query).toEqual({
      bool: {
        filter: [
          { nested: { path: 'variants', query: sku } },
          { nested: { path: 'variants', query: stock } }
        ]
      }
    });
  });

  it('rows set to the same element share one nested query; another element gets its own', () => {
    const v = view([
      { column: 'variants.sku', operator: 'equals', value: 'A1', element: '1' },
      { column: 'tag', operator: 'equals', value: 'sf' },
      {
        column: 'variants.stock',
        operator: 'greater than',
        value: '0',
        element: '1'
      },
      {
        column: 'variants.stock',
        operator: 'greater than',
        value: '0',
        element: '2'
      }
    ]);
    expect(searchOfView(v, tree).query).toEqual({
      bool: {
        filter: [
          {
            nested: {
              path: 'variants',
              query: { bool: { filter: [sku, stock] } }
            }
          },
          { term: { tag: { value: 'sf' } } },
          { nested: { path: 'variants', query: stock } }
        ]
      }
    });
  });

  it("the nested array's JSON column neither filters nor sorts", () => {
    const refused = refusal(
      view([{ column: 'variants', operator: 'is not null' }])
    );
    expect(refused.message).toContain('JSON column of a nested array');
    expect(refused.where).toEqual({ kind: 'filter', row: 0 });
    expect(
      searchOfView(
        view([], { sort: [{ column: 'variants', direction: 'asc' }] }),
        tree
      ).notes[0]
    ).toContain('Not sorted by variants');
  });
});

describe('values typed by the mapping, refused under their row', () => {
  it('a long past 2^53 keeps its digits; one written with a fraction or exponent is not a whole number', () => {
    expect(
      exactJson(
        query({
          column: 'variants.stock',
          operator: 'equals',
          value: '9007199254740993'
        })
      )
    ).toContain('9007199254740993');
    for (const value of ['9007199254740993.5', '90071992547409930e-1']) {
      expect(
        refusal(view([{ column: 'variants.stock', operator: 'equals', value }]))
          .message
      ).toContain('not a whole number');
    }
  });

  it.each([
    [
      { column: 'pages', operator: 'equals', value: 'many' },
      'pages (integer): "many" is not a number'
    ],
    [
      { column: 'pages', operator: 'equals', value: '4.5' },
      'not a whole number'
    ],
    [
      { column: 'published', operator: 'greater than', value: 'yesterday-ish' },
      'is not a date'
    ],
    [
      { column: 'in_print', operator: 'equals', value: 'yes' },
      'write true or false'
    ],
    [
      { column: 'pages', operator: 'between', value: ['1'] },
      'takes two values'
    ],
    [{ column: 'tag', operator: 'equals', value: '' }, 'Write a value'],
    [{ column: 'tag', operator: 'in list', value: [] }, 'at least one value'],
    [
      { column: 'pages', operator: 'contains', value: '4' },
      'works on text and keyword columns'
    ],
    [
      { column: 'in_print', operator: 'greater than', value: 'true' },
      'boolean column'
    ],
    [
      { column: '_score', operator: 'greater than', value: '1' },
      '_score is computed'
    ],
    [
      { column: 'author', operator: 'equals', value: 'x' },
      'author is an object'
    ]
  ] as const)('%o', (row, message) => {
    const v = view([
      { column: 'tag', operator: 'equals', value: 'ok' },
      row as Partial<FilterRow>
    ]);
    const refused = refusal(v);
    expect(refused.message).toContain(message);
    expect(refused.where).toEqual({ kind: 'filter', row: 1 });
  });
});

describe('sorting', () => {
  const sortOf = (sort: GridView['sort']) =>
    searchOfView(view([], { sort }), tree);
  it('in click order; text on its keyword subfield; nested leaves with their path', () => {
    expect(
      sortOf([
        { column: 'price', direction: 'desc' },
        { column: 'title', direction: 'asc' },
        { column: 'variants.stock', direction: 'asc' },
        { column: '_score', direction: 'desc' }
      ])
    ).toEqual({
      query: undefined,
      sort: [
        { price: { order: 'desc' } },
        { 'title.keyword': { order: 'asc' } },
        { 'variants.stock': { order: 'asc', nested: { path: 'variants' } } },
        { _score: { order: 'desc' } }
      ],
      sortedBy: ['price', 'title', 'variants.stock', '_score'],
      notes: []
    });
  });

  it('_id and text without a keyword subfield are dropped with a note; the others still sort', () => {
    const { sort, sortedBy, notes } = sortOf([
      { column: '_id', direction: 'asc' },
      { column: 'blurb', direction: 'asc' },
      { column: 'pages', direction: 'asc' }
    ]);
    expect(sort).toEqual([{ pages: { order: 'asc' } }]);
    expect(sortedBy).toEqual(['pages']);
    expect(notes).toEqual([
      expect.stringContaining('Not sorted by _id'),
      expect.stringContaining(
        'Not sorted by blurb: a text field sorts only through a keyword subfield'
      )
    ]);
  });
});
