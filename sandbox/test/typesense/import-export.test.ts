import { request } from 'undici';
import { ADMIN_KEY, start, type Running } from './helpers';

const SCHEMA = {
  name: 'c',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'n', type: 'int32' }
  ]
};

describe('Typesense sandbox: import and export', () => {
  let t: Running;
  let t27: Running;
  beforeAll(async () => {
    t = await start({ version: '29.0' });
    t27 = await start({ version: '27.0' });
    for (const x of [t, t27]) {
      await x.call('POST', '/collections', { body: SCHEMA });
    }
  });
  afterAll(async () => {
    await t.close();
    await t27.close();
  });

  const jsonl = (...docs: unknown[]): string =>
    docs.map(d => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n');

  test('one result line per input line, text/plain; 28+ omits the document on failure', async () => {
    const body = jsonl(
      { id: '1', title: 'a', n: 1 },
      { id: '2', title: 'b', n: 'x' },
      '{bad',
      { id: '3', title: 'c', n: 3 }
    );
    const r = await t.call('POST', '/collections/c/documents/import', {
      raw: body
    });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('text/plain; charset=utf-8');
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('{"success":true}');
    expect(lines[1]).toBe(
      '{"code":400,"error":"Field `n` must be an int32.","success":false}'
    );
    expect(JSON.parse(lines[2] as string)).toMatchObject({
      code: 400,
      success: false
    });
    expect(
      (JSON.parse(lines[2] as string) as { error: string }).error.startsWith(
        'Bad JSON: '
      )
    ).toBe(true);
    expect(lines[3]).toBe('{"success":true}');
  });

  test('28+: return_doc=true adds the document', async () => {
    const r = await t.call(
      'POST',
      '/collections/c/documents/import?return_doc=true&return_id=true',
      {
        raw: jsonl(
          { id: '9', title: 'z', n: 9 },
          { id: '10', title: 'y', n: 'q' }
        )
      }
    );
    const [ok, bad] = r.text
      .split('\n')
      .map(l => JSON.parse(l) as Record<string, unknown>);
    expect(ok).toEqual({
      document: { id: '9', n: 9, title: 'z' },
      id: '9',
      success: true
    });
    expect(bad).toEqual({
      code: 400,
      document: '{"id":"10","title":"y","n":"q"}',
      error: 'Field `n` must be an int32.',
      success: false
    });
  });

  test('26/27: failures always carry the document line', async () => {
    const line = '{"id":"5","title":"b","n":"x"}';
    const r = await t27.call('POST', '/collections/c/documents/import', {
      raw: line
    });
    expect(JSON.parse(r.text)).toEqual({
      code: 400,
      document: line,
      error: 'Field `n` must be an int32.',
      success: false
    });
  });

  test('import action=upsert and duplicate create error', async () => {
    const dup = await t.call('POST', '/collections/c/documents/import', {
      raw: jsonl({ id: '1', title: 'a', n: 1 })
    });
    expect(dup.text).toBe(
      '{"code":409,"error":"A document with id 1 already exists.","success":false}'
    );
    const up = await t.call(
      'POST',
      '/collections/c/documents/import?action=upsert',
      { raw: jsonl({ id: '1', title: 'A', n: 1 }) }
    );
    expect(up.text).toBe('{"success":true}');
  });

  test('export is JSONL in insertion order without a trailing newline', async () => {
    const r = await t.call('GET', '/collections/c/documents/export');
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('text/plain; charset=utf-8');
    expect(r.text.endsWith('\n')).toBe(false);
    expect(
      r.text.split('\n').map(l => (JSON.parse(l) as { id: string }).id)
    ).toEqual(['1', '3', '9']);
  });

  test('export with filter_by, include_fields and exclude_fields', async () => {
    const f = await t.call(
      'GET',
      '/collections/c/documents/export?filter_by=n:>1&include_fields=id,n'
    );
    expect(f.text).toBe('{"id":"3","n":3}\n{"id":"9","n":9}');
    const e = await t.call(
      'GET',
      '/collections/c/documents/export?exclude_fields=title'
    );
    expect(e.text.split('\n')[0]).toBe('{"id":"1","n":1}');
  });

  test('export streams a large collection in chunks, beyond the 250-hit cap', async () => {
    await t.call('POST', '/collections', {
      body: { name: 'big', fields: [{ name: 'n', type: 'int32' }] }
    });
    t.sandbox.loadDocuments(
      'big',
      Array.from({ length: 20_000 }, (_, i) => ({ n: i }))
    );
    const res = await request(`${t.url}/collections/big/documents/export`, {
      headers: { 'x-typesense-api-key': ADMIN_KEY }
    });
    expect(res.headers['transfer-encoding']).toBe('chunked');
    let chunks = 0;
    let text = '';
    for await (const c of res.body) {
      chunks++;
      text += (c as Buffer).toString('utf8');
    }
    expect(chunks).toBeGreaterThan(1);
    const lines = text.split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines[19_999]).toBe('{"id":"19999","n":19999}');
  });

  test('export of a missing collection', async () => {
    const r = await t.call('GET', '/collections/nope/documents/export');
    expect([r.status, r.json()]).toEqual([
      404,
      { message: 'Collection not found' }
    ]);
  });
});
