/**
 * When the panel lists connections, indices and collections again after a cell: after magics
 * and requests that may write, never after a search, so the cells run most cost the engines
 * no listing.
 */
import { mayChangeListing } from '../../extension/src/sidebar/listing-changes';

describe('a cell that may change what the panel lists', () => {
  it('searches and reads do not', () => {
    expect(
      mayChangeListing('GET /products/_search\n{"query": {"match_all": {}}}')
    ).toBe(false);
    expect(mayChangeListing('get /_cat/indices')).toBe(false);
    expect(mayChangeListing('HEAD /products')).toBe(false);
    expect(
      mayChangeListing(
        'GET /collections/books/documents/search?q=*&query_by=title'
      )
    ).toBe(false);
    expect(
      mayChangeListing(
        '# PUT /products would create it\n// DELETE /products too\nGET /products/_count'
      )
    ).toBe(false);
    expect(mayChangeListing('')).toBe(false);
  });

  it('requests with another method do, in any case and after blanks, wherever they are in the cell', () => {
    expect(mayChangeListing('PUT /fresh')).toBe(true);
    expect(mayChangeListing('GET /a/_search\n  delete /old-index')).toBe(true);
    expect(mayChangeListing('POST /products/_doc\n{"name": "x"}')).toBe(true);
    expect(mayChangeListing('Patch /collections/books')).toBe(true);
    expect(mayChangeListing('POST')).toBe(true);
  });

  it('magics do (%connect, %use, a profile saved)', () => {
    expect(
      mayChangeListing('%connect elasticsearch http://127.0.0.1:9200 name=es')
    ).toBe(true);
    expect(mayChangeListing('GET /a/_search\n%use es')).toBe(true);
    expect(mayChangeListing('  %connect my-profile')).toBe(true);
  });

  it('a word that only begins like a method is no method', () => {
    expect(mayChangeListing('PUTTING /x')).toBe(false);
    expect(mayChangeListing('Postman /x')).toBe(false);
  });
});
