import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import { parseCell } from '../../kernel/src/console/parse';
import { refusal, requests, scope } from './helpers';

const FORM = 'GET /my-index/_search';

describe('SQL-looking input is refused, nothing is sent', () => {
  test.each([
    'SELECT * FROM products',
    'DELETE FROM books WHERE id = 1',
    'GET rows FROM books',
    'UPDATE products SET price = 1',
    'INSERT INTO books VALUES (1)',
    'select 1'
  ])('%s', cell => {
    const r = refusal(`GET /ok\n${cell}`);
    expect(r.ename).toBe('SQLRefused');
    expect(r.message).toContain('HTTP requests, not SQL');
    expect(r.hint).toContain(FORM);
    expect(r.where).toMatchObject({ kind: 'cell', line: 2 });
  });

  test.each([
    'DELETE FROM',
    'DELETE FROM\nbooks WHERE id = 1',
    'delete from books',
    'DELETE books;',
    'DELETE /books;',
    'INSERT INTO'
  ])('%j, a method then SQL, is SQL too', cell => {
    const r = refusal(cell);
    expect(r.ename).toBe('SQLRefused');
    expect(r.where).toMatchObject({ kind: 'cell', line: 1 });
  });

  test('a path without its slash is still a request', () => {
    expect(
      requests('DELETE books\nDELETE /from-2024\nGET /books/_doc/1')
    ).toMatchObject([
      { method: 'DELETE', path: '/books' },
      { path: '/from-2024' },
      { path: '/books/_doc/1' }
    ]);
  });

  test('other bad request lines get a different ename, with the same form in the hint', () => {
    for (const cell of ['FETCH /x', 'GET /my index', 'GET']) {
      const r = refusal(cell);
      expect(r.ename).toBe('InvalidRequestLine');
      expect(r.hint).toContain(FORM);
    }
  });

  test('a body with no request line before it', () => {
    expect(refusal('{"query": {}}')).toMatchObject({
      ename: 'BodyWithoutRequest',
      where: { kind: 'cell', line: 1 }
    });
  });
});

describe('the _sql endpoint is refused', () => {
  test.each([
    'GET /_sql',
    'POST _sql?format=txt',
    'POST /_SQL/translate',
    'GET /x/%5Fsql',
    'GET /%5f%53%51%4c',
    'POST /_xpack/sql'
  ])('%s', cell => {
    const r = refusal(cell);
    expect(r.ename).toBe('SQLEndpointRefused');
    expect(r.hint).toContain(FORM);
  });

  test('also when a variable builds it', () => {
    const s = scope();
    s.set('api', '_sql');
    expect(refusal('POST /${api}', s).ename).toBe('SQLEndpointRefused');
  });

  test('a path merely containing sql is fine', () => {
    expect(
      parseCell('GET /my_sql_index/_search', scope(), CONSOLE_WORDING).ok
    ).toBe(true);
  });
});

describe('paths that would leave the host are refused', () => {
  test.each([
    'GET //other-host/x',
    'GET http://other-host/x',
    'GET https://other-host/x',
    'GET /foo/http://x',
    'GET /foo@other-host/x',
    'GET @other-host/x',
    'GET /\\other-host/x',
    'GET \\\\other-host\\x',
    'GET %2F%2Fother-host/x',
    'GET /%2Fother-host/x',
    'GET /%252F%252Fother-host',
    'GET /x/https%3A%2F%2Fevil',
    'GET https:other-host'
  ])('%s', cell => {
    const r = refusal(cell);
    expect(r.ename).toBe('PathLeavesHost');
    expect(r.hint).toContain(FORM);
  });

  test('a variable cannot smuggle a host', () => {
    for (const value of [
      '//evil.example',
      'http://evil.example',
      'x@evil.example'
    ]) {
      const s = scope();
      s.set('idx', value);
      expect(refusal('GET /${idx}/_search', s).ename).toBe('PathLeavesHost');
      expect(refusal('GET ${idx}/_search', s).ename).toBe('PathLeavesHost');
    }
  });

  test('cross-cluster names, wildcards, lists and date math stay allowed', () => {
    const result = parseCell(
      'GET /remote:logs-*,other/_search\nGET /<logs-{now/d}>/_search',
      scope(),
      CONSOLE_WORDING
    );
    expect(
      result.ok && result.items.map(i => i.kind === 'request' && i.path)
    ).toEqual([
      '/remote:logs-*,other/_search',
      '/%3Clogs-%7Bnow/d%7D%3E/_search'
    ]);
  });
});

describe('control characters and line breaks are refused in the path', () => {
  test.each([
    'GET /x%0d%0aHost:%20evil',
    'GET /x%0aX',
    'GET /x%00',
    'GET /x%250d%250a',
    'GET /x\u0000y',
    'GET /x\u2028y',
    'GET /x\ry'
  ])('%j', cell => {
    const r = refusal(cell);
    expect(r.ename).toBe('ControlCharacterRefused');
    expect(r.hint).toContain(FORM);
  });

  test('via a variable', () => {
    const s = scope({ EVIL: 'a\r\nHost: evil' });
    s.set('v', 'a\r\nX-Injected: 1');
    expect(refusal('GET /${v}', s).ename).toBe('ControlCharacterRefused');
    expect(refusal('GET /${env:EVIL}', s).ename).toBe(
      'ControlCharacterRefused'
    );
  });

  test('in the query, raw control characters are refused; encoded ones stay encoded', () => {
    expect(refusal('GET /x?q=a\u0007').ename).toBe('ControlCharacterRefused');
    const s = scope();
    s.set('v', 'a\r\nb');
    const result = parseCell('GET /x?q=${v}', s, CONSOLE_WORDING);
    expect(result.ok && result.items[0]).toMatchObject({ query: 'q=a%0D%0Ab' });
  });
});

test('a refused cell sends nothing even when earlier requests were fine', () => {
  const result = parseCell(
    'GET /a\nGET /b\nSELECT 1',
    scope(),
    CONSOLE_WORDING
  );
  expect(result.ok).toBe(false);
  expect('items' in result).toBe(false);
});
