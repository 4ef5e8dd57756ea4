/**
 * The grid's search preview over the wire (kernel process, ZeroMQ, sandboxes imitating
 * Typesense 29 and 30 and the run's real Typesense server over HTTP): a query opens the grid on the documents that match, counted
 * and paged as the engine counts them (`found`), ranked by text match, with the score and the
 * highlighted snippets as columns and the matched parts of cells as plain text parts; filters
 * and header sorts combine with it; the copied request carries it; clearing it browses again;
 * an engine without a preview refuses a query instead of dropping it.
 */
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import type { GridReply } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import { typesenseTargets } from '../support/typesense-targets';
import { type PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

let kernel: KernelClient;
let comm: PanelCommClient;
const servers: Record<string, Pick<ListeningServer, 'url' | 'close'>> = {};
/** The real server (shared by the run) beside the stand-ins, unless it cannot run here. */
const REAL = typesenseTargets('29.0').find(t => t.real && !t.skipped);
const VERSIONS = ['29.0', '30.0', ...(REAL ? [REAL.version] : [])];
const conn = (version: string) =>
  version === '30.0' ? 'ts30' : version === '29.0' ? 'ts29' : 'tsreal';
/** Each target's collection names: the real server's are this suite's own. */
const names: Record<string, Record<string, string>> = {};
const nameOf = (version: string, collection: string): string =>
  names[version]?.[collection] ?? collection;

const GENRES = ['fiction', 'history'];
/** 130 books about castles (every third also glass), 40 about gardens; one holds markup as text. */
const BOOKS = [
  ...Array.from({ length: 130 }, (_, n) => ({
    id: `c${n}`,
    title: n % 3 === 0 ? `Glass castle ${n}` : `Castle number ${n}`,
    author: n % 5 === 0 ? 'Anna Castle' : 'Ben Stone',
    genre: GENRES[n % 2] ?? 'fiction',
    tags: n % 4 === 0 ? ['stone', 'castle walls'] : ['stone'],
    year: 1900 + n
  })),
  ...Array.from({ length: 40 }, (_, n) => ({
    id: `g${n}`,
    title: `Garden ${n}`,
    author: 'Cleo Green',
    genre: 'fiction',
    tags: ['green'],
    year: 2000 + n
  })),
  {
    id: 'm1',
    title: 'Use <mark>tags</mark> & <b>bold</b> markers',
    author: 'Dee Markup',
    genre: 'fiction',
    tags: [],
    year: 1999
  }
];
const SCHEMA = {
  name: 'books',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'author', type: 'string' },
    { name: 'genre', type: 'string', facet: true },
    { name: 'tags', type: 'string[]' },
    { name: 'notes', type: 'string', index: false, optional: true },
    { name: 'year', type: 'int32', sort: true }
  ],
  default_sorting_field: 'year'
};

type Opened = Extract<GridReply, { type: 'opened' }>;
type Block = Opened['first'];

interface Hit {
  document: { id: string };
  text_match: number;
}

/** The engine's own answer to the search the grid should send, for comparing. */
async function search(
  version: string,
  params: Record<string, string>
): Promise<{ found: number; ids: string[] }> {
  let ids: string[] = [];
  let found = 0;
  for (let page = 1; page <= 10; page++) {
    const query = new URLSearchParams({
      ...params,
      per_page: '250',
      page: String(page)
    });
    const r = await fetch(
      `${servers[version]?.url}/collections/${nameOf(version, 'books')}/documents/search?${query}`,
      { headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY } }
    );
    const body = (await r.json()) as { found: number; hits: Hit[] };
    found = body.found;
    ids = [...ids, ...body.hits.map(h => h.document.id)];
    if (ids.length >= found || body.hits.length === 0) {
      break;
    }
  }
  return { found, ids };
}

const open = (version: string, view: Record<string, unknown>, blockSize = 50) =>
  comm.expect(
    {
      type: 'open',
      connection: conn(version),
      target: nameOf(version, 'books'),
      blockSize,
      view
    },
    'opened'
  );

/** Every row of an opened grid, block by block, as the panel reads them. */
async function allRows(opened: Opened): Promise<Block[]> {
  const blocks = [opened.first];
  for (let b = 1; b * opened.blockSize < opened.total; b++) {
    blocks.push(
      (
        await comm.expect(
          { type: 'read', gridId: opened.gridId, block: b },
          'block'
        )
      ).block
    );
  }
  return blocks;
}

const idsOf = (blocks: Block[]) =>
  blocks.flatMap(b => b.rows.map(r => r.id as string));

const highlightOf = (block: Block, row: number, column: string) =>
  block.highlights?.[row]?.find(h => h.column === column)?.parts;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('books', { properties: { title: { type: 'text' } } }, [
    { id: '1', source: { title: 'Glass castle' } }
  ]);
  servers.es = await listen(es.handler, { port: 0 });
  if (REAL) {
    const real = await REAL.start([
      { schema: SCHEMA, docs: BOOKS },
      {
        schema: { name: 'scores', fields: [{ name: 'n', type: 'int32' }] },
        docs: [{ id: '1', n: 1 }]
      }
    ]);
    servers[REAL.version] = real;
    names[REAL.version] = real.names;
  }
  for (const version of ['29.0', '30.0']) {
    const ts = createTypesenseSandbox({ version, apiKey: SECRETS.TS_API_KEY });
    ts.createCollection(SCHEMA);
    ts.loadDocuments('books', BOOKS);
    ts.createCollection({
      name: 'scores',
      fields: [{ name: 'n', type: 'int32' }]
    });
    ts.loadDocuments('scores', [{ id: '1', n: 1 }]);
    servers[version] = await listen(ts.handler, { port: 0 });
  }
  ({ kernel, comm } = await kernelWithPanelComm(
    [
      `%connect typesense ${servers['29.0']?.url} key=\${env:TS_API_KEY} name=ts29`,
      `%connect typesense ${servers['30.0']?.url} key=\${env:TS_API_KEY} name=ts30`,
      ...(REAL
        ? [
            `%connect typesense ${servers[REAL.version]?.url} key=\${env:TS_API_KEY} name=tsreal`
          ]
        : []),
      `%connect elasticsearch ${servers.es?.url} name=es`
    ],
    SECRETS
  ));
}, 120_000);

afterAll(async () => {
  await kernel?.close();
  await Promise.all(Object.values(servers).map(s => s.close()));
});

describe.each(VERSIONS)('Typesense %s', version => {
  it('offers the preview with the indexed string fields as query_by', async () => {
    const opened = await open(version, {});
    // Not notes: the schema does not index it.
    expect(opened.searchPreview?.queryBy).toEqual([
      'title',
      'author',
      'genre',
      'tags'
    ]);
    expect(opened.searchPreview?.scoreColumn).toBe('_text_match');
    expect(opened.columns.map(c => c.name)).not.toContain('_text_match');
  });

  it('pages the matches as the engine counts and ranks them, score and highlights as columns', async () => {
    const opened = await open(version, { search: { q: 'castle' } });
    const engine = await search(version, {
      q: 'castle',
      query_by: 'title,author,genre,tags'
    });
    expect(engine.found).toBe(130);
    expect(opened.total).toBe(engine.found);
    expect(opened.columns.slice(0, 3).map(c => c.name)).toEqual([
      'id',
      '_text_match',
      '_highlight'
    ]);
    expect(opened.columns[1]?.readOnly).toBe(true);
    const blocks = await allRows(opened);
    // Every match once, in the engine's order, across blocks and its searches of 250.
    expect(idsOf(blocks)).toEqual(engine.ids);
    const scores = blocks.flatMap(b =>
      b.rows.map(r => BigInt(r._text_match as string))
    );
    for (let i = 1; i < scores.length; i++) {
      expect(scores[i - 1]! >= scores[i]!).toBe(true);
    }
    // Highlights: the matched word marked, in the field's own cell and in the highlight column.
    const first = blocks[0] as Block;
    const row = first.rows.findIndex(r => r.id === 'c0');
    expect(highlightOf(first, row, 'title')).toEqual([
      { text: 'Glass ', marked: false },
      { text: 'castle', marked: true },
      { text: ' 0', marked: false }
    ]);
    expect(first.rows[row]?._highlight).toMatch(/title: Glass castle 0/);
    expect(
      highlightOf(first, row, '_highlight')?.filter(p => p.marked)
    ).toEqual(
      expect.arrayContaining([
        { text: 'castle', marked: true },
        { text: 'Castle', marked: true }
      ])
    );
    const cell = await comm.expect(
      { type: 'python', cell: opened.request.cell, connection: conn(version) },
      'python'
    );
    expect(cell.code).toMatch(/"q": "castle"/);
    expect(cell.code).toMatch(/"query_by": "title,author,genre,tags"/);
    expect(opened.request.cell).toMatch(/"q": "castle"/);
    expect(opened.request.curl).toMatch(/\\?"q\\?": ?\\?"castle\\?"/);
    expect(opened.notes.join(' ')).toMatch(/ranked by text_match/);
  });

  it('marks a hit a curation rule placed, in the highlight column', async () => {
    const rule = {
      rule: { query: 'castle', match: 'exact' },
      includes: [{ id: 'g1', position: 1 }]
    };
    const put = (path: string, body: unknown) =>
      fetch(`${servers[version]?.url}${path}`, {
        method: 'PUT',
        headers: {
          'x-typesense-api-key': SECRETS.TS_API_KEY,
          'content-type': 'application/json'
        },
        body: JSON.stringify(body)
      });
    const drop = (path: string) =>
      fetch(`${servers[version]?.url}${path}`, {
        method: 'DELETE',
        headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY }
      });
    if (version !== '30.0') {
      expect(
        (
          await put(
            `/collections/${nameOf(version, 'books')}/overrides/pin-g1`,
            rule
          )
        ).status
      ).toBe(200);
    } else {
      await put('/curation_sets/pins', { items: [{ id: 'pin-g1', ...rule }] });
      await fetch(`${servers[version]?.url}/collections/books`, {
        method: 'PATCH',
        headers: {
          'x-typesense-api-key': SECRETS.TS_API_KEY,
          'content-type': 'application/json'
        },
        body: JSON.stringify({ curation_sets: ['pins'] })
      });
    }
    try {
      const opened = await open(version, { search: { q: 'castle' } });
      const [pinned, ranked] = opened.first.rows;
      expect(pinned?.id).toBe('g1');
      expect(pinned?._highlight).toBe('curated (placed by a curation rule)');
      expect(ranked?._highlight).not.toMatch(/curated/);
    } finally {
      if (version !== '30.0') {
        await drop(`/collections/${nameOf(version, 'books')}/overrides/pin-g1`);
      } else {
        await fetch(`${servers[version]?.url}/collections/books`, {
          method: 'PATCH',
          headers: {
            'x-typesense-api-key': SECRETS.TS_API_KEY,
            'content-type': 'application/json'
          },
          body: JSON.stringify({ curation_sets: [] })
        });
        await drop('/curation_sets/pins');
      }
    }
  });

  it('combines the filters, the header sort and an edited query_by with the query', async () => {
    const opened = await open(version, {
      filters: [{ column: 'genre', operator: 'equals', value: 'history' }],
      sort: [{ column: 'year', direction: 'desc' }],
      search: { q: 'glass', queryBy: 'title' }
    });
    const engine = await search(version, {
      q: 'glass',
      query_by: 'title',
      filter_by: 'genre:=`history`',
      sort_by: 'year:desc,_text_match:desc'
    });
    expect(engine.found).toBeGreaterThan(10);
    expect(opened.total).toBe(engine.found);
    expect(idsOf(await allRows(opened))).toEqual(engine.ids);
    expect(opened.sortedBy).toEqual(['year']);
    expect(opened.request.cell).toMatch(/"filter_by": "genre:=`history`"/);
    expect(opened.request.cell).toMatch(
      /"sort_by": "year:desc,_text_match:desc"/
    );
  });

  it('sorts by the score column when its header is clicked', async () => {
    const opened = await open(version, {
      sort: [{ column: '_text_match', direction: 'asc' }],
      search: { q: 'castle' }
    });
    const engine = await search(version, {
      q: 'castle',
      query_by: 'title,author,genre,tags',
      sort_by: '_text_match:asc'
    });
    expect(opened.sortedBy).toEqual(['_text_match']);
    expect(opened.request.cell).toMatch(/"sort_by": "_text_match:asc"/);
    expect(idsOf(await allRows(opened))).toEqual(engine.ids);
  });

  it('shows markup a document holds as its text, marking only the matched word', async () => {
    // A word outside the markup: the engine indexes `<b>bold</b>` as one token (bboldb).
    const opened = await open(version, { search: { q: 'markers' } });
    expect(opened.total).toBe(1);
    const title = BOOKS.at(-1)?.title;
    expect(opened.first.rows[0]?.title).toBe(title);
    expect(highlightOf(opened.first, 0, 'title')).toEqual([
      { text: 'Use <mark>tags</mark> & <b>bold</b> ', marked: false },
      { text: 'markers', marked: true }
    ]);
    expect(opened.first.rows[0]?._highlight).toBe(`title: ${title}`);
  });

  it('returns to browsing when the query is cleared, filters kept', async () => {
    const view = {
      filters: [{ column: 'genre', operator: 'equals', value: 'history' }]
    };
    const searched = await open(version, { ...view, search: { q: 'glass' } });
    // Every sixth castle is a glass castle of history.
    expect(searched.total).toBe(22);
    const browsing = await open(version, view);
    const engine = await search(version, {
      q: '*',
      filter_by: 'genre:=`history`'
    });
    expect(browsing.total).toBe(engine.found);
    expect(browsing.total).toBe(65);
    expect(idsOf(await allRows(browsing))).toEqual(engine.ids);
    expect(browsing.columns.map(c => c.name)).not.toContain('_highlight');
    expect(browsing.first.highlights).toBeUndefined();
    expect(browsing.request.cell).not.toMatch(/query_by/);
  });

  it('edits rows found by the query: a field saves, the score column is read-only', async () => {
    const opened = await open(version, { search: { q: 'garden' } });
    const at = opened.first.rows.findIndex(r => r.id === 'g7');
    const row = opened.first.keys?.[at];
    expect(row).toEqual({ index: nameOf(version, 'books'), id: 'g7' });
    const save = (change: Record<string, unknown>) =>
      comm.expect(
        { type: 'save', gridId: opened.gridId, changes: [change] },
        'saved'
      );
    const refused = await save({
      kind: 'update',
      key: 'k2',
      row,
      fields: { _text_match: '1' }
    });
    expect(refused.results).toEqual([]);
    expect(refused.refusals).toMatchObject([
      { key: 'k2', message: expect.stringMatching(/read-only/) }
    ]);
    const saved = await save({
      kind: 'update',
      key: 'k1',
      row,
      expected: { title: 'Garden 7' },
      fields: { title: 'Garden 7 revised' }
    });
    expect(saved.results.map(r => [r.key, r.status])).toEqual([
      ['k1', 'saved']
    ]);
    const r = await fetch(
      `${servers[version]?.url}/collections/${nameOf(version, 'books')}/documents/g7`,
      { headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY } }
    );
    expect(((await r.json()) as { title: string }).title).toBe(
      'Garden 7 revised'
    );
  });

  it('refuses to export a grid under a query, which would write more than its matches', async () => {
    const opened = await open(version, { search: { q: 'glass' } });
    const reply = await comm.call({
      type: 'export',
      exportId: `x${version}`,
      connection: conn(version),
      target: nameOf(version, 'books'),
      file: `never-${version}.jsonl`,
      format: 'jsonl',
      gridId: opened.gridId
    });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/clear the search \(q\)/)
    });
  });

  it('says what to write when the collection has no field to search, sending nothing', async () => {
    const reply = await comm.call({
      type: 'open',
      connection: conn(version),
      target: nameOf(version, 'scores'),
      view: { search: { q: 'castle' } }
    });
    expect(reply).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/Name the fields to search in query_by/)
    });
    const named = await comm.call({
      type: 'open',
      connection: conn(version),
      target: nameOf(version, 'scores'),
      view: { search: { q: 'castle', queryBy: 'missing' } }
    });
    // The engine's own reason for a field it cannot search.
    expect(named).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/missing/)
    });
  });
});

it('an engine without a search preview refuses a query instead of dropping it', async () => {
  const plain = await comm.expect(
    { type: 'open', connection: 'es', target: 'books', view: {} },
    'opened'
  );
  expect(plain.searchPreview).toBeUndefined();
  const reply = await comm.call({
    type: 'open',
    connection: 'es',
    target: 'books',
    view: { search: { q: 'glass' } }
  });
  expect(reply).toMatchObject({
    type: 'error',
    message: expect.stringMatching(/no search preview/)
  });
});
