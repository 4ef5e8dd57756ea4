import { Collection, type WriteAction } from '../../src/typesense/collection';
import { indexedMatches } from '../../src/typesense/indexed-match';
import type { JsonObject } from '../../src/typesense/json';
import { makeField } from '../../src/typesense/schema';
import { matchDocument, type QueryField } from '../../src/typesense/text';
import { start, type Running } from './helpers';

const WORDS = [
  'red',
  'read',
  'reader',
  'blue',
  'blues',
  'green',
  'gr',
  'x',
  'xy',
  'über',
  'übel',
  '42',
  '420'
];

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function collection(): Collection {
  return new Collection({
    name: 'c',
    fields: [
      makeField({ name: 'title', type: 'string' }),
      makeField({ name: 'tags', type: 'string[]', optional: true }),
      makeField({ name: 'note', type: 'string', optional: true })
    ],
    defaultSortingField: '',
    enableNestedFields: false,
    tokenSeparators: [],
    symbolsToIndex: [],
    createdAt: 0
  });
}

describe('Typesense sandbox: token index agrees with a scan of every document', () => {
  test('random writes, updates and deletes; random queries over one to three fields', () => {
    const rnd = random(7);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const phrase = (): string =>
      Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(WORDS)).join(
        rnd() < 0.5 ? ' ' : '-'
      );
    const coll = collection();
    const dirty = 'reject' as const;
    for (let step = 0; step < 1500; step++) {
      const id = String(Math.floor(rnd() * 300));
      const doc: JsonObject = { id, title: phrase() };
      if (rnd() < 0.5) {
        doc.tags = Array.from({ length: Math.floor(rnd() * 4) }, phrase);
      }
      if (rnd() < 0.3) {
        doc.note = phrase();
      }
      const roll = rnd();
      try {
        if (roll < 0.15) {
          coll.remove(id);
        } else if (roll < 0.2) {
          coll.removeWhere(r => r.doc.title === doc.title);
        } else if (roll < 0.3) {
          coll.write({ note: phrase() }, 'update', dirty, id);
        } else {
          coll.write(
            doc,
            pick<WriteAction>(['create', 'upsert', 'emplace']),
            dirty
          );
        }
      } catch {
        // A create of an existing id or an update of a missing one: the engine refuses, so do we.
      }
      if (step === 900) {
        coll.truncate();
      }
    }
    expect(coll.numDocuments).toBeGreaterThan(50);

    const fieldSets: QueryField[][] = [
      [{ name: 'title', weight: 15 }],
      [
        { name: 'tags', weight: 15 },
        { name: 'title', weight: 14 }
      ],
      [
        { name: 'note', weight: 15 },
        { name: 'title', weight: 14 },
        { name: 'tags', weight: 13 }
      ],
      [
        { name: 'title', weight: 15 },
        { name: 'title', weight: 14 }
      ]
    ];
    for (let n = 0; n < 300; n++) {
      const tokens = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
        pick(WORDS)
      ).map(w => (rnd() < 0.3 ? w.slice(0, 1) : w));
      const fields = pick(fieldSets);
      const prefix = rnd() < 0.7;
      const scanned = coll
        .snapshot()
        .filter(r => r.alive)
        .flatMap(rec => {
          const m = matchDocument(rec.doc, tokens, fields, prefix);
          return m
            ? [
                {
                  seq: rec.seq,
                  score: m.score,
                  info: [m.bestFieldScore, m.bestFieldWeight, m.fieldsMatched]
                }
              ]
            : [];
        });
      const indexed = indexedMatches(coll, tokens, fields, prefix, null).map(
        r => ({
          seq: r.rec.seq,
          score: r.match?.score,
          info: [
            r.match?.bestFieldScore,
            r.match?.bestFieldWeight,
            r.match?.fieldsMatched
          ]
        })
      );
      expect({ tokens, prefix, indexed }).toEqual({
        tokens,
        prefix,
        indexed: scanned
      });
    }
  });
});

describe('Typesense sandbox: keyword search after writes', () => {
  let t: Running;
  type Body = { found: number; hits: { document: { id: string } }[] };
  const ids = async (coll: string, q: string): Promise<string[]> => {
    const r = await t.call(
      'GET',
      `/collections/${coll}/documents/search?q=${encodeURIComponent(q)}&query_by=title&prefix=false`
    );
    return (r.json() as Body).hits.map(h => h.document.id).sort();
  };

  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', {
      body: {
        name: 'w',
        fields: [
          { name: 'title', type: 'string' },
          { name: 'n', type: 'int32' }
        ]
      }
    });
    t.sandbox.loadDocuments('w', [
      { id: 'a', title: 'old words', n: 1 },
      { id: 'b', title: 'old stuff', n: 2 },
      { id: 'c', title: 'other', n: 3 }
    ]);
  });
  afterAll(() => t.close());

  test('an update moves the document from its old tokens to its new ones', async () => {
    expect(
      (
        await t.call('PATCH', '/collections/w/documents/a', {
          body: { title: 'new words' }
        })
      ).status
    ).toBe(200);
    expect(await ids('w', 'old')).toEqual(['b']);
    expect(await ids('w', 'new')).toEqual(['a']);
    expect(await ids('w', 'words')).toEqual(['a']);
  });

  test('upsert by import and update by filter re-index the documents', async () => {
    const r = await t.call(
      'POST',
      '/collections/w/documents/import?action=upsert',
      { raw: '{"id":"c","title":"fresh","n":3}' }
    );
    expect(r.status).toBe(200);
    expect(await ids('w', 'other')).toEqual([]);
    expect(await ids('w', 'fresh')).toEqual(['c']);
    expect(
      (
        await t.call('PATCH', '/collections/w/documents?filter_by=n:>=2', {
          body: { title: 'patched' }
        })
      ).status
    ).toBe(200);
    expect(await ids('w', 'patched')).toEqual(['b', 'c']);
    expect(await ids('w', 'fresh')).toEqual([]);
  });

  test('a deleted document is no longer found; truncate empties the index', async () => {
    expect((await t.call('DELETE', '/collections/w/documents/b')).status).toBe(
      200
    );
    expect(await ids('w', 'patched')).toEqual(['c']);
    expect(
      (await t.call('DELETE', '/collections/w/documents?truncate=true')).status
    ).toBe(200);
    expect(await ids('w', 'patched')).toEqual([]);
    t.sandbox.loadDocuments('w', [{ id: 'z', title: 'patched again', n: 9 }]);
    expect(await ids('w', 'patched')).toEqual(['z']);
  });

  test('a field learned after documents exist is indexed on its first search', async () => {
    await t.call('POST', '/collections', {
      body: { name: 'auto', fields: [{ name: '.*', type: 'auto' }] }
    });
    t.sandbox.loadDocuments('auto', [
      { id: '1', n: 1 },
      { id: '2', n: 2, title: 'late field' },
      { id: '3', title: 'late too' }
    ]);
    expect(await ids('auto', 'late')).toEqual(['2', '3']);
    t.sandbox.loadDocuments('auto', [{ id: '4', title: 'late again' }]);
    expect(await ids('auto', 'late')).toEqual(['2', '3', '4']);
  });
});
