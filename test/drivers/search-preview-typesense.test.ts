/**
 * The search preview's view as Typesense search parameters, and Typesense's marked snippets
 * taken apart into plain text parts (https://typesense.org/docs/latest/api/search.html): the
 * default query_by, header sorts ahead of `_text_match`, and tags told apart from tag text a
 * document holds.
 */
import { searchOfView } from '../../kernel/src/engines/typesense/grid-filter';
import { treeOfSchema } from '../../kernel/src/engines/typesense/schema';
import {
  defaultQueryBy,
  partsOf,
  previewGrid
} from '../../kernel/src/engines/typesense/search-preview';
import { GridViewSchema } from '../../contracts/panel-protocol';

const tree = treeOfSchema(
  [
    { name: 'title', type: 'string', sort: true },
    { name: 'secret', type: 'string', index: false },
    { name: 'tags', type: 'string[]' },
    { name: 'year', type: 'int32' },
    { name: 'rating', type: 'float' },
    { name: 'pages', type: 'int32' },
    { name: 'author', type: 'object' },
    { name: 'author.name', type: 'string' },
    { name: 'misc', type: 'string*' }
  ],
  true
);

describe('the search as search parameters', () => {
  it('searches the indexed string fields by default, nested ones by their dotted names', () => {
    expect(defaultQueryBy(tree)).toEqual([
      'title',
      'tags',
      'author.name',
      'misc'
    ]);
    const { parameters } = searchOfView(
      GridViewSchema.parse({ search: { q: 'dune' } }),
      tree
    );
    expect(parameters).toEqual({
      q: 'dune',
      query_by: 'title,tags,author.name,misc'
    });
  });

  it('takes the fields the view names, trimmed', () => {
    const { parameters } = searchOfView(
      GridViewSchema.parse({
        search: { q: 'dune', queryBy: ' title , tags ' }
      }),
      tree
    );
    expect(parameters.query_by).toBe('title,tags');
  });

  it('puts header sorts ahead of _text_match, two at most, saying why a third is left out', () => {
    const { parameters, sortedBy, notes } = searchOfView(
      GridViewSchema.parse({
        search: { q: 'dune' },
        sort: [
          { column: 'year', direction: 'desc' },
          { column: 'rating', direction: 'asc' },
          { column: 'pages', direction: 'asc' }
        ]
      }),
      tree
    );
    expect(parameters.sort_by).toBe('year:desc,rating:asc,_text_match:desc');
    expect(sortedBy).toEqual(['year', 'rating']);
    expect(notes.join(' ')).toMatch(
      /Not sorted by pages: .*a search keeps one for text_match/
    );
  });

  it('sorts by the score column itself when its header is clicked, and never filters on it', () => {
    const { parameters, sortedBy } = searchOfView(
      GridViewSchema.parse({
        search: { q: 'dune' },
        sort: [
          { column: 'year', direction: 'desc' },
          { column: '_text_match', direction: 'asc' },
          { column: 'rating', direction: 'asc' }
        ]
      }),
      tree
    );
    expect(parameters.sort_by).toBe('year:desc,_text_match:asc,rating:asc');
    expect(sortedBy).toEqual(['year', '_text_match', 'rating']);
    const browsing = searchOfView(
      GridViewSchema.parse({
        sort: [{ column: '_text_match', direction: 'asc' }]
      }),
      tree
    );
    expect(browsing.parameters.sort_by).toBeUndefined();
    expect(browsing.notes.join(' ')).toMatch(/no search is on/);
    expect(() =>
      searchOfView(
        GridViewSchema.parse({
          search: { q: 'dune' },
          filters: [{ column: '_highlight', operator: 'contains', value: 'x' }]
        }),
        tree
      )
    ).toThrow(/not a field of the documents/);
  });

  it('leaves sort_by to the engine without header sorts, and sends no q when browsing', () => {
    expect(
      searchOfView(GridViewSchema.parse({ search: { q: 'dune' } }), tree)
        .parameters.sort_by
    ).toBeUndefined();
    expect(searchOfView(GridViewSchema.parse({}), tree).parameters).toEqual({});
  });
});

describe('marked snippets as plain text parts', () => {
  it('splits at the tags of a plain value', () => {
    expect(
      partsOf('The <mark>Glass</mark> Castle', 'The Glass Castle')
    ).toEqual([
      { text: 'The ', marked: false },
      { text: 'Glass', marked: true },
      { text: ' Castle', marked: false }
    ]);
  });

  it('tells the engine’s tags from tag text the value holds', () => {
    expect(
      partsOf('a <mark>x</mark> <mark>b</mark>', 'a <mark>x</mark> b')
    ).toEqual([
      { text: 'a <mark>x</mark> ', marked: false },
      { text: 'b', marked: true }
    ]);
  });

  it('leaves a snippet unmarked when its parts would not read as the value', () => {
    expect(partsOf('<mark>zzz</mark>', 'The Glass Castle')).toBeUndefined();
  });

  it('builds the score and highlight columns from hits, array snippets by their indices', () => {
    const grid = previewGrid(
      [
        {
          document: { id: '1', title: 'Glass', tags: ['red', 'glass jar'] },
          text_match: 1,
          text_match_info: { score: '1157451471441100921' },
          highlights: [
            {
              field: 'tags',
              indices: [1],
              snippets: ['<mark>glass</mark> jar'],
              matched_tokens: [['glass']]
            },
            {
              field: 'title',
              snippet: '<mark>Glass</mark>',
              matched_tokens: ['Glass']
            }
          ]
        }
      ],
      tree
    );
    expect(grid.rows[0]).toMatchObject({
      id: '1',
      _text_match: '1157451471441100921',
      _highlight: 'tags: glass jar · title: Glass'
    });
    expect(grid.highlights[0]?.map(h => h.column)).toEqual([
      'title',
      '_highlight'
    ]);
  });
});
