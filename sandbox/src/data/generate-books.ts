/**
 * Sample data for the Typesense sandbox, generated from a seed so nothing large is
 * committed: a `books` collection that exercises every column kind the grid knows
 * (int32, bool, sortable string, facets, float, object, object[]) and an auto-schema
 * `notes` collection whose fields are learned from its documents.
 */
import { request } from 'undici';
import type { TypesenseSandbox } from '../typesense';
import { seededRandom } from './seeded-random';

export const BOOKS_SCHEMA = {
  name: 'books',
  enable_nested_fields: true,
  default_sorting_field: 'ratings_count',
  fields: [
    { name: 'title', type: 'string', sort: true },
    { name: 'author', type: 'string', facet: true },
    { name: 'genre', type: 'string', facet: true },
    { name: 'year', type: 'int32' },
    { name: 'ratings_count', type: 'int32' },
    { name: 'rating', type: 'float' },
    { name: 'in_print', type: 'bool' },
    { name: 'meta', type: 'object' },
    { name: 'variants', type: 'object[]', optional: true }
  ]
} as const;

export const NOTES_SCHEMA = {
  name: 'notes',
  enable_nested_fields: true,
  fields: [{ name: '.*', type: 'auto' }]
} as const;

export type Book = {
  id: string;
  title: string;
  author: string;
  genre: string;
  year: number;
  ratings_count: number;
  rating: number;
  in_print: boolean;
  meta: { pages: number; publisher: string };
  variants: { sku: string; format: string }[];
};

const ADJECTIVES = [
  'Silent',
  'Hidden',
  'Last',
  'Burning',
  'Glass',
  'Iron',
  'Distant',
  'Winter',
  'Broken',
  'Golden',
  'Secret',
  'Quiet'
];
const NOUNS = [
  'Harbour',
  'Empire',
  'Garden',
  'Machine',
  'River',
  'Signal',
  'Library',
  'Orchard',
  'Station',
  'Crown',
  'Archive',
  'Tide'
];
const AUTHORS = [
  'Ann Leckie',
  'Iain Banks',
  'Ursula Le Guin',
  'Ted Chiang',
  'N. K. Jemisin',
  'Octavia Butler',
  'Terry Pratchett',
  'Jo Walton',
  'China Miéville',
  'Becky Chambers'
];
const GENRES = [
  'science fiction',
  'fantasy',
  'mystery',
  'history',
  'poetry',
  'essays'
];
const PUBLISHERS = ['Orbit', 'Tor', 'Gollancz', 'Penguin', 'Vintage'];
const FORMATS = ['paperback', 'hardcover', 'ebook', 'audiobook'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

export function* generateBooks(count: number, seed = 42): Generator<Book> {
  const rand = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    const formats = FORMATS.filter(() => rand() < 0.5);
    yield {
      id: String(i),
      title: `The ${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)}${rand() < 0.3 ? ` ${i}` : ''}`,
      author: pick(rand, AUTHORS),
      genre: pick(rand, GENRES),
      year: 1950 + Math.floor(rand() * 75),
      ratings_count: Math.floor(rand() * 100_000),
      rating: Math.round(rand() * 50) / 10,
      in_print: rand() < 0.7,
      meta: {
        pages: 80 + Math.floor(rand() * 900),
        publisher: pick(rand, PUBLISHERS)
      },
      variants: formats.map((format, j) => ({ sku: `B${i}-${j}`, format }))
    };
  }
}

export function* generateNotes(
  count: number,
  seed = 7
): Generator<Record<string, unknown>> {
  const rand = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    const note: Record<string, unknown> = {
      id: `n${i}`,
      text: `${pick(rand, ADJECTIVES)} thoughts about the ${pick(rand, NOUNS).toLowerCase()}`,
      priority: Math.floor(rand() * 5),
      done: rand() < 0.5
    };
    // Some keys appear only on some notes, so the learned schema grows as documents arrive.
    if (rand() < 0.4) {
      note.weight = Math.round(rand() * 1000) / 100;
    }
    if (rand() < 0.3) {
      note.labels = [pick(rand, GENRES), pick(rand, GENRES)];
    }
    if (rand() < 0.2) {
      note.source = {
        book_id: String(Math.floor(rand() * 1000)),
        page: Math.floor(rand() * 300)
      };
    }
    yield note;
  }
}

export interface SampleSizes {
  books?: number;
  notes?: number;
  seed?: number;
}

/** Creates `books` and `notes` in a sandbox in this process and fills them (skips collections that exist). */
export function loadSampleData(
  sandbox: TypesenseSandbox,
  sizes: SampleSizes = {}
): { books: number; notes: number } {
  const out = { books: 0, notes: 0 };
  if (!sandbox.hasCollection('books')) {
    sandbox.createCollection({
      ...BOOKS_SCHEMA,
      fields: [...BOOKS_SCHEMA.fields]
    });
    out.books = sandbox.loadDocuments(
      'books',
      generateBooks(sizes.books ?? 3000, sizes.seed ?? 42)
    ).loaded;
  }
  if (!sandbox.hasCollection('notes')) {
    sandbox.createCollection({
      ...NOTES_SCHEMA,
      fields: [...NOTES_SCHEMA.fields]
    });
    out.notes = sandbox.loadDocuments(
      'notes',
      generateNotes(sizes.notes ?? 200, (sizes.seed ?? 42) + 1)
    ).loaded;
  }
  return out;
}

/** The same over HTTP, for a Typesense (sandbox or real) reachable at `url`: collections, then imports of 1,000 lines. */
export async function loadSampleDataOverHttp(
  url: string,
  apiKey: string,
  sizes: SampleSizes = {}
): Promise<void> {
  const headers = {
    'x-typesense-api-key': apiKey,
    'content-type': 'application/json'
  };
  const send = async (
    method: 'POST',
    path: string,
    body: string
  ): Promise<string> => {
    const res = await request(url + path, { method, headers, body });
    const text = await res.body.text();
    if (res.statusCode >= 400 && res.statusCode !== 409) {
      throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    }
    return text;
  };
  const importAll = async (
    collection: string,
    docs: Iterable<Record<string, unknown>>
  ): Promise<void> => {
    let batch: string[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) {
        return;
      }
      await send(
        'POST',
        `/collections/${collection}/documents/import?action=upsert`,
        batch.join('\n')
      );
      batch = [];
    };
    for (const d of docs) {
      batch.push(JSON.stringify(d));
      if (batch.length >= 1000) {
        await flush();
      }
    }
    await flush();
  };
  await send('POST', '/collections', JSON.stringify(BOOKS_SCHEMA));
  await importAll(
    'books',
    generateBooks(sizes.books ?? 3000, sizes.seed ?? 42)
  );
  await send('POST', '/collections', JSON.stringify(NOTES_SCHEMA));
  await importAll(
    'notes',
    generateNotes(sizes.notes ?? 200, (sizes.seed ?? 42) + 1)
  );
}
