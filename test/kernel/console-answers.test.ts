/**
 * What the kernel sends for the console's everyday answers, over ZeroMQ against the sandbox
 * engines over HTTP: JSON answers carry their status line for the searchbook renderer (and a
 * field / type list for mappings), errors lead with the engine's root cause and say their
 * prefix once, Typesense query strings that would be cut at `&` are refused before sending, and
 * kernel_info's language_info is what the example notebooks store. A %connect refused for a
 * typed secret says it is still in the cell and offers its removal; history_request answers
 * with the session's cells, typed secrets removed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  HITS_MIME,
  JSON_MIME,
  JsonPayloadSchema,
  TYPED_SECRET_MIME
} from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import {
  KernelClient,
  REPO,
  type IopubMessage,
  errorOf,
  okOf
} from '../support/kernel-client';
import { displays } from '../support/shown-text';
import { KernelMessage } from '../support/kernel-messages';

let kernel: KernelClient;
let sandbox: RunningSandbox;

const errorOutput = (iopub: IopubMessage[]) =>
  iopub.find(KernelMessage.isErrorMsg)?.content;
// The traceback's first line without its colour codes.
const firstLine = (iopub: IopubMessage[]) =>
  (errorOutput(iopub)?.traceback[0] ?? '').replace(/\u001b\[[0-9;]*m/g, '');

async function ok(code: string): Promise<IopubMessage[]> {
  const { reply, iopub } = await kernel.execute(code);
  if (reply.content.status !== 'ok') {
    throw new Error(
      `${code}\nfailed: ${errorOf(reply).ename}: ${errorOf(reply).evalue}`
    );
  }
  return iopub;
}

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 20
    })
  ]);
  await ok(
    `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
  );
  await ok(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=es`
  );
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

describe('JSON answers carry their status line for the searchbook renderer', () => {
  it('a write: who answered, method, path, status and time, with the raw answer and the plain-text line kept', async () => {
    const [bundle] = displays(
      await ok('PUT /daily/_doc/1?refresh=true\n{"name": "lamp"}')
    );
    const payload = JsonPayloadSchema.parse(bundle?.[JSON_MIME]);
    expect(payload).toEqual({
      info: {
        connection: 'es',
        engine: 'elasticsearch',
        method: 'PUT',
        path: '/daily/_doc/1?refresh=true',
        status: 201,
        elapsedMs: expect.any(Number)
      }
    });
    expect(bundle?.['application/json']).toMatchObject({
      _index: 'daily',
      _id: '1',
      result: 'created'
    });
    expect(String(bundle?.['text/plain'])).toMatch(
      /^es: PUT \/daily\/_doc\/1\?refresh=true → 201 in \d+ ms\n/
    );
  });

  it('an Elasticsearch mapping also lists every field with its type, dotted', async () => {
    await ok(
      'PUT /daily/_mapping\n{"properties": {"address": {"properties": {"city": {"type": "keyword"}}}}}'
    );
    const [bundle] = displays(await ok('GET /daily/_mapping'));
    const payload = JsonPayloadSchema.parse(bundle?.[JSON_MIME]);
    // Properties in name order, as Elasticsearch (and the sandbox) print a mapping.
    expect(payload.fields).toEqual([
      { field: 'address', type: 'object' },
      { field: 'address.city', type: 'keyword' },
      { field: 'name', type: 'text' }
    ]);
  });

  it('a Typesense collection also lists its schema fields', async () => {
    await ok('%use ts');
    try {
      const [bundle] = displays(await ok('GET /collections/books'));
      const payload = JsonPayloadSchema.parse(bundle?.[JSON_MIME]);
      expect(payload.info).toMatchObject({
        connection: 'ts',
        engine: 'typesense',
        status: 200
      });
      expect(payload.fields).toEqual(
        expect.arrayContaining([
          { field: 'title', type: 'string' },
          { field: 'year', type: 'int32' }
        ])
      );
    } finally {
      await ok('%use es');
    }
  });
});

describe('errors lead with the cause and say their name once', () => {
  it('a terms aggregation on a text field: the fielddata reason first, all shards failed after it', async () => {
    await ok('%use es');
    const { reply, iopub } = await kernel.execute(
      'POST /products/_search\n{"size": 0, "aggs": {"names": {"terms": {"field": "name"}}}}'
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'RequestFailed'
    });
    expect(errorOutput(iopub)?.evalue).toMatch(
      /^Elasticsearch answered 400: illegal_argument_exception: Fielddata is disabled on \[name\] in \[products\]/
    );
    expect(errorOutput(iopub)?.evalue).toContain(
      '(reported as search_phase_execution_exception: all shards failed)'
    );
    expect(errorOutput(iopub)?.evalue).toContain('name.keyword');
  });

  it('a refused password: "Authentication failed:" once, and no HTTPS advice from a server that answered over HTTP', async () => {
    const { iopub } = await kernel.execute(
      `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:WRONG} name=wrong`
    );
    expect(firstLine(iopub)).toMatch(
      /^Authentication failed: unable to authenticate user \[elastic\]/
    );
    expect(firstLine(iopub)).not.toMatch(
      /Authentication failed:.*Authentication failed:|HTTPS/
    );
  });

  it('nothing listening: "Connection failed:" once, naming the address as the address and the connection as a connection', async () => {
    const { iopub } = await kernel.execute(
      '%connect elasticsearch http://127.0.0.1:1 auth=none name=nowhere'
    );
    expect(firstLine(iopub)).toMatch(
      /^Connection failed: nothing accepts connections at http:\/\/127\.0\.0\.1:1 \(connection nowhere\) \(ECONNREFUSED/
    );
    expect(firstLine(iopub).match(/Connection failed/g)).toHaveLength(1);
  });

  it('a trailing comma: its place and the one fix, without the general request form', async () => {
    const { iopub } = await kernel.execute(
      'POST /products/_search\n{"size": 1,}'
    );
    expect(errorOutput(iopub)?.evalue).toBe(
      "Invalid JSON at line 2, column 11: a trailing comma before '}'. Nothing was sent."
    );
    const traceback = errorOutput(iopub)?.traceback.join('\n') ?? '';
    expect(traceback).toContain('Remove the comma after the last member');
    expect(traceback).not.toContain('Write an HTTP request');
  });
});

describe('Typesense query strings that would be cut at "&"', () => {
  beforeAll(() => ok('%use ts'));
  afterAll(() => ok('%use es'));
  const search =
    'GET /collections/books/documents/search?q=*&query_by=title&per_page=1';
  const found = (iopub: IopubMessage[]) =>
    (displays(iopub)[0]?.[HITS_MIME] as { total: { value: number } }).total
      .value;

  it('&& inside filter_by is refused before sending, with the encoded form and the %set form', async () => {
    const { reply, iopub } = await kernel.execute(
      `${search}&filter_by=year:>=1990 && rating:>4.5`
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'QueryStringRefused'
    });
    expect(displays(iopub)).toEqual([]);
    const error = errorOutput(iopub);
    expect(error?.evalue).toContain(
      'Typesense reads `filter_by=year:>=1990 ` as the whole filter_by'
    );
    expect(error?.evalue).toMatch(/Nothing was sent\.$/);
    const hint = error?.traceback.join('\n') ?? '';
    expect(hint).toContain('filter_by=year:>=1990 %26%26 rating:>4.5');
    expect(hint).toContain('%set filter_by = "year:>=1990 && rating:>4.5"');
  });

  it('the encoded and the %set forms both apply the whole filter: fewer books than the year alone', async () => {
    const year = found(await ok(`${search}&filter_by=year:>=1990`));
    const encoded = found(
      await ok(`${search}&filter_by=year:>=1990 %26%26 rating:>4.5`)
    );
    const viaSet = found(
      await ok(
        `%set filter_by = "year:>=1990 && rating:>4.5"\n${search}&filter_by=\${filter_by}`
      )
    );
    expect(encoded).toBeLessThan(year);
    expect(viaSet).toBe(encoded);
  });

  it('a bare word is refused; || needs no escaping', async () => {
    const { reply } = await kernel.execute(`${search}&exhaustive_search`);
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'QueryStringRefused'
    });
    await ok(`${search}&filter_by=year:<1950 || year:>2020`);
  });

  it('a cell is checked whole: a refused second request means the first is not sent either', async () => {
    const { reply, iopub } = await kernel.execute(
      `POST /collections/books/documents\n{"id": "never-written", "title": "T", "author": "A", "genre": "G", "year": 2000, "ratings_count": 1, "rating": 1, "in_print": true, "meta": {"pages": 1, "publisher": "P"}}\n${search}&filter_by=year:>1 && year:<3`
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'QueryStringRefused'
    });
    expect(displays(iopub)).toEqual([]);
    const { reply: read } = await kernel.execute(
      'GET /collections/books/documents/never-written'
    );
    expect(read.content.status).toBe('error');
  });
});

it('kernel_info language_info is what the example notebooks store, so opening one changes nothing', async () => {
  const reply = await kernel.request('shell', 'kernel_info_request', {});
  for (const name of ['elasticsearch.ipynb', 'typesense.ipynb']) {
    const notebook = JSON.parse(
      await readFile(join(REPO, 'examples', name), 'utf8')
    ) as { metadata: { language_info: unknown } };
    expect(okOf(reply).language_info).toEqual(notebook.metadata.language_info);
  }
});

describe('a password typed into %connect', () => {
  it.each([
    ['password=hunter2', 'password'],
    ['http://elastic:hunter2@127.0.0.1:9 user=elastic', 'address']
  ])(
    '%s: refused, the message says it is still in the cell, and the extension is asked to offer its removal',
    async (typed, option) => {
      const line = typed.startsWith('http')
        ? `%connect elasticsearch ${typed}`
        : `%connect elasticsearch ${sandbox.esUrl} user=elastic ${typed}`;
      const { reply, iopub } = await kernel.execute(line);
      expect(reply.content).toMatchObject({
        status: 'error',
        ename: 'SecretInCell'
      });
      expect(errorOf(reply).evalue).toMatch(
        /is still in this cell, and is saved with the notebook, until you remove it\.$/
      );
      const [offer] = displays(iopub);
      expect(offer?.[TYPED_SECRET_MIME]).toEqual({ option });
      expect(String(offer?.['text/plain'])).toContain(
        'Remove typed secrets from the cell'
      );
      // Only execute_input echoes the cell; nothing the kernel wrote repeats the password.
      const written = iopub.filter(m => m.header.msg_type !== 'execute_input');
      expect(
        JSON.stringify([reply.content, ...written.map(m => m.content)])
      ).not.toContain('hunter2');
    }
  );
});

describe('history_request', () => {
  it('tail: the last cells run, in order, with their execution counts; typed secrets removed', async () => {
    await ok('%set marker = 1');
    await kernel.execute(
      `%connect elasticsearch ${sandbox.esUrl} user=elastic password=hunter2`
    );
    await ok('GET /daily/_doc/1');
    const reply = await kernel.request('shell', 'history_request', {
      hist_access_type: 'tail',
      n: 3,
      output: false,
      raw: true
    });
    const history = okOf(reply).history as [number, number, string][];
    expect(history.map(([, , input]) => input)).toEqual([
      '%set marker = 1',
      `%connect elasticsearch ${sandbox.esUrl} user=elastic`,
      'GET /daily/_doc/1'
    ]);
    const lines = history.map(([, line]) => line);
    expect(lines).toEqual([
      lines[0],
      (lines[0] as number) + 1,
      (lines[0] as number) + 2
    ]);
    expect(JSON.stringify(reply.content)).not.toContain('hunter2');
  });

  it('search by glob, unique; range by execution count', async () => {
    await ok('GET /daily/_doc/1');
    const search = await kernel.request('shell', 'history_request', {
      hist_access_type: 'search',
      pattern: 'GET /daily/_doc/?',
      unique: true,
      n: 10
    });
    expect(
      (okOf(search).history as [number, number, string][]).map(
        ([, , input]) => input
      )
    ).toEqual(['GET /daily/_doc/1']);
    const tail = okOf(
      await kernel.request('shell', 'history_request', {
        hist_access_type: 'tail',
        n: 1
      })
    ).history as [number, number, string][];
    const [session, line] = tail[0] ?? [0, 0];
    const range = await kernel.request('shell', 'history_request', {
      hist_access_type: 'range',
      session: 0,
      start: line - 1,
      stop: line + 1
    });
    expect(okOf(range).history).toEqual([
      [session, line - 1, 'GET /daily/_doc/1'],
      [session, line, 'GET /daily/_doc/1']
    ]);
  });

  it.each([
    [
      '%CONNECT elasticsearch URL user=elastic password=hunter2',
      '%CONNECT elasticsearch URL user=elastic',
      'password'
    ],
    [
      '%connect elasticsearch URL user=elastic password=\thunter2',
      '%connect elasticsearch URL user=elastic',
      'password'
    ],
    [
      '%connect elasticsearch URL user=elastic PASSWORD=hunter2',
      '%connect elasticsearch URL user=elastic',
      'password'
    ],
    [
      '%connect typesense 127.0.0.1:9 key = hunter2 name=t',
      '%connect typesense 127.0.0.1:9 name=t',
      'key'
    ]
  ])(
    '%j: refused as typed, and kept in history without the secret',
    async (typed, kept, option) => {
      const line = typed.replace('URL', sandbox.esUrl);
      const { reply, iopub } = await kernel.execute(line);
      expect(reply.content).toMatchObject({
        status: 'error',
        ename: 'SecretInCell'
      });
      expect(displays(iopub)[0]?.[TYPED_SECRET_MIME]).toEqual({ option });
      const tail = await kernel.request('shell', 'history_request', {
        hist_access_type: 'tail',
        n: 1,
        output: false,
        raw: true
      });
      expect(
        (okOf(tail).history as [number, number, string][]).map(
          ([, , input]) => input
        )
      ).toEqual([kept.replace('URL', sandbox.esUrl)]);
      const search = await kernel.request('shell', 'history_request', {
        hist_access_type: 'search',
        pattern: '*hunter2*',
        n: 10
      });
      expect(okOf(search).history).toEqual([]);
    }
  );
});

describe('several searches in one request: one output per search, titled', () => {
  const titles = (iopub: IopubMessage[]) =>
    displays(iopub).map(b => {
      const payload = (b['application/vnd.searchbook.hits+json'] ??
        b[JSON_MIME]) as {
        info: { title?: string; status: number };
        total?: { value: number };
      };
      return [payload.info.title, payload.info.status, payload.total?.value];
    });

  it('_msearch: a grid per search with its index, status and total; a failed search shows its error', async () => {
    await ok('%use es');
    const iopub = await ok(
      [
        'POST /products/_msearch',
        '{}',
        '{"query": {"match_all": {}}, "size": 2}',
        '{"index": "daily"}',
        '{"query": {"match_all": {}}}',
        '{"index": "nope"}',
        '{"query": {"match_all": {}}}'
      ].join('\n')
    );
    expect(titles(iopub)).toEqual([
      ['Search 1 of 3: products', 200, 20],
      ['Search 2 of 3: daily', 200, 1],
      ['Search 3 of 3: nope', 404, undefined]
    ]);
    const [first, , failed] = displays(iopub);
    expect(String(first?.['text/plain'])).toMatch(
      /^Search 1 of 3: products · es: POST \/products\/_msearch → 200 in \d+ ms/
    );
    expect(failed?.['application/json']).toMatchObject({
      error: { type: 'index_not_found_exception' },
      status: 404
    });
  });

  it('_msearch: each grid has the columns, types and order of the same search run alone (from the mapping)', async () => {
    await ok('%use es');
    const columnsOf = (bundle: Record<string, unknown> | undefined) =>
      (
        bundle?.['application/vnd.searchbook.hits+json'] as {
          columns: { name: string; type: string }[];
        }
      ).columns.map(c => `${c.name}:${c.type}`);
    const alone = displays(
      await ok('GET /products/_search\n{"size": 2, "sort": ["_doc"]}')
    );
    const sourceFiltered = displays(
      await ok('GET /products/_search\n{"size": 2, "_source": ["name"]}')
    );
    const several = displays(
      await ok(
        [
          'POST /_msearch',
          '{"index": "products"}',
          '{"size": 2, "sort": ["_doc"]}',
          '{"index": "products"}',
          '{"size": 2, "_source": ["name"]}'
        ].join('\n')
      )
    );
    const expected = columnsOf(alone[0]);
    // The mapping types its columns: not only what two documents happen to hold.
    expect(
      expected.some(c =>
        /:(keyword|text|long|integer|double|float|date|nested|object)$/.test(c)
      )
    ).toBe(true);
    expect(columnsOf(several[0])).toEqual(expected);
    expect(columnsOf(several[1])).toEqual(columnsOf(sourceFiltered[0]));
  });

  it('multi_search: a grid per search with its collection and found', async () => {
    await ok('%use ts');
    try {
      const iopub = await ok(
        'POST /multi_search\n{"searches": [{"collection": "books", "q": "*", "filter_by": "year:<1950", "per_page": 3}, {"collection": "books", "q": "*", "per_page": 1}]}'
      );
      const [first, second] = titles(iopub);
      expect([first?.[0], first?.[1], second?.[0]]).toEqual([
        'Search 1 of 2: books',
        200,
        'Search 2 of 2: books'
      ]);
      expect(first?.[2]).toBeLessThan(second?.[2] as number);
    } finally {
      await ok('%use es');
    }
  });
});

describe('Typesense query-string parameters complete field names from the schema', () => {
  beforeAll(() => ok('%use ts'));
  afterAll(() => ok('%use es'));
  const complete = async (line: string) => {
    const reply = await kernel.request('shell', 'complete_request', {
      code: line,
      cursor_pos: [...line].length
    });
    return reply.content as {
      matches: string[];
      cursor_start: number;
      cursor_end: number;
    };
  };
  const search = 'GET /collections/books/documents/search?q=*';

  it.each([
    [`${search}&query_by=ti`, ['title']],
    [`${search}&query_by=title,au`, ['author']],
    [`${search}&sort_by=rating:desc,ye`, ['year']],
    [`${search}&filter_by=genre:Fiction && ye`, ['year']],
    [`${search}&facet_by=`, expect.arrayContaining(['genre', 'year', 'title'])]
  ])('%s', async (line, matches) => {
    const reply = await complete(line);
    expect(reply.matches).toEqual(matches);
    const partial = /[\w.@-]*$/.exec(line)?.[0] ?? '';
    expect([reply.cursor_start, reply.cursor_end]).toEqual([
      [...line].length - partial.length,
      [...line].length
    ]);
  });

  it('not in a value after ":" nor in a parameter that takes no fields', async () => {
    expect((await complete(`${search}&filter_by=genre:Fi`)).matches).toEqual(
      []
    );
    expect((await complete(`${search}&per_page=1`)).matches).toEqual([]);
  });
});

describe('an environment value in a request line never reaches an output', () => {
  beforeAll(() => ok('%use ts'));
  afterAll(() => ok('%use es'));

  it('a key passed in the query string shows as its ${env:NAME} reference in the status line, the grid and the fallbacks', async () => {
    const iopub = await ok(
      'GET /collections/books/documents/search?q=*&query_by=title&per_page=1&x-typesense-api-key=${env:TS_API_KEY}'
    );
    const shown = JSON.stringify(displays(iopub));
    expect(shown).toContain('x-typesense-api-key=${env:TS_API_KEY}');
    expect(shown).not.toContain(SECRETS.TS_API_KEY);
    expect(JSON.stringify(iopub)).not.toContain(SECRETS.TS_API_KEY);
  });
});
