import {
  generateBooks,
  loadSampleData,
  loadSampleDataOverHttp
} from '../../src/data/generate-books';
import { ADMIN_KEY, start } from './helpers';

describe('Typesense sample data', () => {
  test('the generator is deterministic', () => {
    const a = [...generateBooks(50, 1)];
    const b = [...generateBooks(50, 1)];
    expect(a).toEqual(b);
    expect([...generateBooks(50, 2)]).not.toEqual(a);
  });

  test('loads books and notes into a running sandbox; nested and learned fields appear', async () => {
    const t = await start({ version: '29.0' });
    try {
      expect(loadSampleData(t.sandbox, { books: 3000, notes: 200 })).toEqual({
        books: 3000,
        notes: 200
      });
      const books = (await t.call('GET', '/collections/books')).json() as {
        num_documents: number;
        fields: { name: string }[];
      };
      expect(books.num_documents).toBe(3000);
      const names = books.fields.map(f => f.name);
      for (const n of [
        'meta.pages',
        'meta.publisher',
        'variants.sku',
        'variants.format'
      ]) {
        expect(names).toContain(n);
      }
      const notes = (await t.call('GET', '/collections/notes')).json() as {
        fields: { name: string; type: string }[];
      };
      expect(notes.fields.map(f => [f.name, f.type])).toEqual(
        expect.arrayContaining([
          ['priority', 'int64'],
          ['done', 'bool'],
          ['text', 'string']
        ])
      );
      const r = await t.call(
        'GET',
        '/collections/books/documents/search?q=*&filter_by=meta.pages:>500%20%26%26%20in_print:true&sort_by=title:asc'
      );
      expect(r.status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test('loads over HTTP through the import endpoint', async () => {
    const t = await start({ version: '26.0' });
    try {
      await loadSampleDataOverHttp(t.url, ADMIN_KEY, {
        books: 2500,
        notes: 10
      });
      const books = (await t.call('GET', '/collections/books')).json() as {
        num_documents: number;
      };
      expect(books.num_documents).toBe(2500);
    } finally {
      await t.close();
    }
  });
});
