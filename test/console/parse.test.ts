import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import { parseCell } from '../../kernel/src/console/parse';
import { parseSetArgs } from '../../kernel/src/console/magics';
import { items, refusal, requests, scope, SECRET } from './helpers';

describe('requests', () => {
  test('method in any case, optional leading slash, query string', () => {
    expect(requests('get products/_search?q=title:shoes&size=5')).toEqual([
      {
        kind: 'request',
        method: 'GET',
        path: '/products/_search',
        query: 'q=title:shoes&size=5',
        line: 1
      }
    ]);
    expect(requests('HEAD /products')[0]).toMatchObject({
      method: 'HEAD',
      path: '/products',
      query: ''
    });
  });

  test('several requests run in order, each with its own body and line', () => {
    const cell = [
      '# list first',
      'GET /_cat/indices?format=json',
      '',
      'POST /products/_search',
      '{',
      '  "query": { "match": { "title": "shoes" } }',
      '}',
      'DELETE /old'
    ].join('\n');
    const got = requests(cell);
    expect(got.map(r => [r.method, r.path, r.line])).toEqual([
      ['GET', '/_cat/indices', 2],
      ['POST', '/products/_search', 4],
      ['DELETE', '/old', 8]
    ]);
    expect(got[1]?.body).toEqual({
      kind: 'json',
      value: { query: { match: { title: 'shoes' } } }
    });
    expect(got[0]?.body).toBeUndefined();
  });

  test('comment lines anywhere, also inside a multi-line body; // inside a string is data', () => {
    const cell = [
      '// search',
      'GET /products/_search',
      '{',
      '  # a comment inside the body',
      '  "query": { "match": { "url": "http://example.com/#x" } },',
      '  // another',
      '  "size": 1',
      '}'
    ].join('\n');
    expect(requests(cell)[0]?.body).toEqual({
      kind: 'json',
      value: { query: { match: { url: 'http://example.com/#x' } }, size: 1 }
    });
  });

  test('a cell of only comments and blank lines has no items', () => {
    expect(
      parseCell('# nothing\n\n   // here\n', scope(), CONSOLE_WORDING)
    ).toEqual({
      ok: true,
      items: []
    });
    expect(parseCell('', scope(), CONSOLE_WORDING)).toEqual({
      ok: true,
      items: []
    });
  });

  test('CRLF line ends', () => {
    const got = requests('GET /a\r\n{"size": 1}\r\nGET /b\r\n');
    expect(got.map(r => r.path)).toEqual(['/a', '/b']);
    expect(got[0]?.body).toEqual({ kind: 'json', value: { size: 1 } });
  });

  test('triple-quoted text becomes a JSON string, verbatim over lines', () => {
    const cell = [
      'POST /_scripts/s',
      '{"script": {"lang": "painless", "source": """',
      'if (doc["a"].value > 1) {',
      '  return "x\\n";',
      '}"""}}'
    ].join('\n');
    const body = requests(cell)[0]?.body;
    expect(body).toEqual({
      kind: 'json',
      value: {
        script: {
          lang: 'painless',
          source: '\nif (doc["a"].value > 1) {\n  return "x\\n";\n}'
        }
      }
    });
  });

  test('NDJSON for _bulk, _msearch and Typesense documents/import', () => {
    const bulk = requests(
      'POST /_bulk\n{"index": {"_index": "p"}}\n# doc\n{"title": "a"}\n\n{"delete": {"_index": "p", "_id": "1"}}'
    );
    expect(bulk[0]?.body).toEqual({
      kind: 'ndjson',
      values: [
        { index: { _index: 'p' } },
        { title: 'a' },
        { delete: { _index: 'p', _id: '1' } }
      ]
    });
    expect(
      requests('GET /p/_msearch\n{}\n{"query": {"match_all": {}}}')[0]?.body
        ?.kind
    ).toBe('ndjson');
    const imp = requests(
      'POST /collections/books/documents/import?action=upsert\n{"id": "1"}\n{"id": "2"}'
    );
    expect(imp[0]?.body).toEqual({
      kind: 'ndjson',
      values: [{ id: '1' }, { id: '2' }]
    });
  });

  test('a second JSON value in a plain body is refused with its place', () => {
    const r = refusal('POST /p/_doc\n{"a": 1}\n{"b": 2}');
    expect(r.ename).toBe('InvalidJSON');
    expect(r.where).toEqual({ kind: 'cell', line: 3, column: 1 });
  });
});

describe('variables', () => {
  test('%set earlier in the same cell is seen by later requests, the real scope is untouched', () => {
    const s = scope();
    const cell = [
      '%set index = "products"',
      '%set size = 3',
      '%set q = {"match": {"title": "shoes"}}',
      'GET /${index}/_search',
      '{"size": ${size}, "query": ${q}, "note": "size ${size} of ${index} ${q}"}'
    ].join('\n');
    const got = items(cell, s);
    expect(got[0]).toMatchObject({
      kind: 'magic',
      name: 'set',
      args: 'index = "products"',
      set: { name: 'index', value: 'products' }
    });
    const request = got[3];
    expect(request).toMatchObject({
      kind: 'request',
      path: '/products/_search'
    });
    expect(request?.kind === 'request' && request.body).toEqual({
      kind: 'json',
      value: {
        size: 3,
        query: { match: { title: 'shoes' } },
        note: 'size 3 of products {"match":{"title":"shoes"}}'
      }
    });
    expect(s.names()).toEqual([]);
  });

  test('a %set value may span lines while its brackets are open', () => {
    const got = items(
      '%set q = {\n  "match_all": {}\n}\nGET /p/_search\n{"query": ${q}}'
    );
    expect(got[0]).toMatchObject({
      kind: 'magic',
      name: 'set',
      set: { name: 'q', value: { match_all: {} } }
    });
    expect(got[1]).toMatchObject({
      kind: 'request',
      body: { kind: 'json', value: { query: { match_all: {} } } }
    });
  });

  test('path values are URL-encoded; query values too', () => {
    const s = scope();
    s.set('id', 'a b/c?d');
    s.set('term', 'x&y');
    expect(requests('GET /p/_doc/${id}?q=${term}', s)[0]).toMatchObject({
      path: '/p/_doc/a%20b/c%3Fd',
      query: 'q=x%26y'
    });
  });

  test('${env:NAME} reads the environment in paths and bodies', () => {
    const r = requests(
      'GET /p/_search\n{"key": "${env:API_KEY}", "raw": ${env:API_KEY}}'
    )[0];
    expect(r?.body).toEqual({
      kind: 'json',
      value: { key: SECRET, raw: SECRET }
    });
  });

  test('an unknown variable is refused, naming it and how to set it', () => {
    const r = refusal('GET /${index}/_search');
    expect(r.ename).toBe('UnknownVariable');
    expect(r.message).toContain('${index}');
    expect(r.hint).toContain('%set index = ');
    expect(r.where).toEqual({ kind: 'cell', line: 1, column: 6 });
  });

  test('an unset env var is refused, saying to export it before starting Jupyter', () => {
    const r = refusal('GET /p\n{"k": "${env:MISSING_KEY}"}');
    expect(r.ename).toBe('UnsetEnvironmentVariable');
    expect(r.message).toContain('MISSING_KEY');
    expect(r.hint).toContain('export MISSING_KEY=');
    expect(r.where).toEqual({ kind: 'cell', line: 2, column: 8 });
  });

  test('an env value never appears in refusal text', () => {
    const cells = [
      'GET /${env:API_KEY}/%0d%0a',
      'GET /x/${env:API_KEY}/_sql',
      'GET /${env:API_KEY}\n{"a": ${env:API_KEY} oops}',
      'GET /${env:API_KEY}\n{"a": "${env:API_KEY}", }',
      '%set k = "${env:API_KEY}"',
      'GET /${env:API_KEY}?x=${env:API_KEY}\n{"a": ${nope}}'
    ];
    const s = scope({ API_KEY: 'http://evil.example/\r\n' + SECRET });
    for (const cell of cells) {
      const r = refusal(cell, s);
      expect(JSON.stringify(r)).not.toContain(SECRET);
    }
  });

  test('%set may not copy an env var (so %vars cannot show it)', () => {
    expect(refusal('%set k = "${env:API_KEY}"').ename).toBe(
      'EnvironmentVariableInSet'
    );
  });

  test('%set is validated at parse time: identifier, JSON, line and column', () => {
    expect(refusal('%set 1x = 2')).toMatchObject({
      ename: 'InvalidMagic',
      where: { kind: 'cell', line: 1, column: 6 }
    });
    expect(refusal('%set x 2').ename).toBe('InvalidMagic');
    // Text that starts like JSON keeps JSON's refusal, at its place.
    const r = refusal('GET /a\n%set x = [products]');
    expect(r).toMatchObject({
      ename: 'InvalidJSON',
      where: { kind: 'cell', line: 2, column: 11 }
    });
    expect(r.message).toBe(
      "Invalid JSON at line 2, column 11: expected a JSON value (strings need double quotes), found 'p'"
    );
    expect(r.hint).toContain('%set index = "products"');
    // A bare word is a JMESPath expression: with no answer to read, the refusal says to quote text.
    const word = refusal('%set x = products');
    expect(word).toMatchObject({
      ename: 'NoAnswer',
      where: { kind: 'cell', line: 1, column: 10 }
    });
    expect(word.hint).toContain('%set name = "products"');
  });

  test('parseSetArgs for the executor gives the same value', () => {
    const s = scope();
    s.set('n', 2);
    expect(parseSetArgs('q = {"size": ${n}}', s)).toEqual({
      name: 'q',
      value: { size: 2 }
    });
    expect(() => parseSetArgs('q = nope', s)).toThrow(/Invalid JSON/);
  });
});

describe('magics', () => {
  test('known magics become items', () => {
    expect(
      items('%vars\n%connections\n%use prod\n%connect http://localhost:9200')
    ).toEqual([
      { kind: 'magic', name: 'vars', args: '', line: 1 },
      { kind: 'magic', name: 'connections', args: '', line: 2 },
      { kind: 'magic', name: 'use', args: 'prod', line: 3 },
      { kind: 'magic', name: 'connect', args: 'http://localhost:9200', line: 4 }
    ]);
  });

  test('an unknown magic is refused, listing the magics', () => {
    const r = refusal('GET /a\n%sql SELECT 1');
    expect(r).toMatchObject({
      ename: 'UnknownMagic',
      where: { kind: 'cell', line: 2 }
    });
    for (const name of ['%set', '%vars', '%connect', '%connections', '%use']) {
      expect(r.hint).toContain(name);
    }
  });
});

describe('JSON errors give the line and column within the cell', () => {
  test.each([
    ['GET /x\n{\n  "a": 1\n  "b": 2\n}', 4, 3, "expected ',' or '}'"],
    [
      '# c\nPOST /x\n{"query": {"match": {"t": "x"}}, "size": }',
      3,
      42,
      'expected a JSON value'
    ],
    ['GET /x\n{"a": 1', 2, 8, "expected ',' or '}'"],
    ['GET /x\n{"a": "unterminated\n}', 2, 7, 'unterminated string'],
    ['GET /x\n{"a": tru}', 2, 7, 'expected a JSON value'],
    ['GET /x\n["a",, 1]', 2, 6, 'expected a JSON value']
  ])('%j', (cell, line, column, problem) => {
    const r = refusal(cell);
    expect(r.ename).toBe('InvalidJSON');
    expect(r.where).toEqual({ kind: 'cell', line, column });
    expect(r.message).toMatch(
      new RegExp(`^Invalid JSON at line ${line}, column ${column}: `)
    );
    expect(r.message).toContain(problem);
    expect(r.hint).toContain('GET /my-index/_search');
  });

  test.each([
    [
      'POST /_bulk\n{"index": {}}\n{"a": 1,}',
      3,
      8,
      "a trailing comma before '}'",
      'member'
    ],
    [
      'GET /x\n{\n  "sort": ["a", "b",\n  ]\n}',
      3,
      20,
      "a trailing comma before ']'",
      'element'
    ]
  ])(
    'a trailing comma is pointed at, with only the advice that fixes it: %j',
    (cell, line, column, problem, item) => {
      const r = refusal(cell);
      expect(r).toMatchObject({
        ename: 'InvalidJSON',
        where: { kind: 'cell', line, column }
      });
      expect(r.message).toBe(
        `Invalid JSON at line ${line}, column ${column}: ${problem}`
      );
      expect(r.hint).toBe(
        `Remove the comma after the last ${item}: JSON allows no comma before '${problem.slice(-2, -1)}'.`
      );
    }
  );

  test('a body that forgets its closing brace does not swallow the next request', () => {
    const r = refusal('GET /a\n{"query": {"match_all": {}}\nGET /b');
    expect(r).toMatchObject({
      ename: 'InvalidJSON',
      where: { kind: 'cell', line: 2 }
    });
  });
});
