import type { JsonValue } from '../../kernel/src/console/cell';
import type { ConsoleResult, GridColumn } from '../../kernel/src/drivers/driver';
import { toBundle } from '../../kernel/src/render/bundle';
import { HITS_MIME, HitsPayloadSchema, TABLE_MIME } from '../../kernel/src/render/mime-types';
import { DEFAULT_LIMITS, limitsFromEnv } from '../../kernel/src/render/output-limits';

const info = { connection: 'es-local', engine: 'elasticsearch' as const, method: 'GET', path: '/products/_search', status: 200, elapsedMs: 12.4 };
const column = (name: string, json = false): GridColumn => ({ name, type: json ? 'nested' : 'keyword', readOnly: false, json });

function hits(rows: Record<string, JsonValue>[], extra: Partial<Extract<ConsoleResult, { kind: 'hits' }>> = {}): ConsoleResult {
  return { kind: 'hits', columns: [column('_id'), column('name'), column('tags', true)], rows, ...extra };
}

describe('console output bundles', () => {
  test('keep at most 1,000 rows in the notebook and say how many were left out', () => {
    const rows = Array.from({ length: 1500 }, (_, i) => ({ _id: String(i), name: `n${i}` }));
    const bundle = toBundle(hits(rows), info, undefined);
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    expect(payload.rows).toHaveLength(1000);
    expect(payload.omittedRows).toBe(500);
    expect(bundle['text/plain']).toContain('1000 shown; 500 rows left out of the notebook');
    expect(bundle['text/plain']).toContain('950 more rows in the grid');
  });

  test('SEARCHBOOK_MAX_ROWS changes the cap; nonsense keeps the default', () => {
    expect(limitsFromEnv({ SEARCHBOOK_MAX_ROWS: '5000' }).gridRows).toBe(5000);
    expect(limitsFromEnv({ SEARCHBOOK_MAX_ROWS: 'lots' }).gridRows).toBe(DEFAULT_LIMITS.gridRows);
  });

  test('cut array and object cells at 10,000 characters ending in ... and mark them', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `tag-${i}`);
    const bundle = toBundle(hits([{ _id: '1', name: 'short', tags: long }, { _id: '2', tags: ['a'] }]), info, undefined);
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    const cell = payload.rows[0]?.tags as string;
    expect(cell).toHaveLength(10_003);
    expect(cell.endsWith('...')).toBe(true);
    expect(cell.startsWith('["tag-0","tag-1"')).toBe(true);
    expect(payload.cut).toEqual([{ row: 0, column: 'tags' }]);
    expect(payload.rows[1]?.tags).toEqual(['a']);
  });

  test('show document values as text in every fallback, never as markup', () => {
    const payloadText = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const bundle = toBundle(hits([{ _id: 'x', name: payloadText }]), info, { hits: { hits: [] } });
    expect(bundle['text/html']).not.toMatch(/<img|<script/);
    expect(bundle['text/html']).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(bundle['text/plain']).toContain('<img src=x onerror=alert(1)>');
  });

  test('the status line names the connection, request, status, time and a lower-bound total', () => {
    const bundle = toBundle(hits([{ _id: '1' }], { total: { value: 10000, relation: 'gte' } }), info, undefined);
    expect(bundle['text/plain']).toMatch(/^es-local: GET \/products\/_search → 200 in 12 ms \(≥10000 total, 1 shown\)/);
  });

  test('aggregation tables appear in the fallbacks too', () => {
    const bundle = toBundle(hits([], { aggregations: [{ name: 'brands', rows: [{ key: 'Acme', doc_count: 3 }] }] }), info, undefined);
    expect(bundle['text/plain']).toMatch(/Aggregation brands\nkey\s+doc_count/);
    expect(bundle['text/html']).toContain('<caption>Aggregation brands</caption>');
  });

  test('arrays become tables; a raw body too large for the notebook is replaced by a note', () => {
    const big = 'x'.repeat(DEFAULT_LIMITS.rawJsonChars + 10);
    const bundle = toBundle({ kind: 'table', rows: [{ index: 'products', health: 'green' }] }, info, [{ blob: big }]);
    expect((bundle[TABLE_MIME] as { columns: string[] }).columns).toEqual(['index', 'health']);
    expect(bundle['application/json']).toEqual({ searchbook: expect.stringMatching(/left out of the notebook/) });
  });
});
