import { start, type Running } from './helpers';

describe('Typesense sandbox: operations and metrics', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', {
      body: { name: 'c', fields: [{ name: 'a', type: 'string' }] }
    });
  });
  afterAll(() => t.close());

  test('/health answers {"ok":true}, or 503 {"ok":false} when not ready', async () => {
    expect((await t.call('GET', '/health')).text).toBe('{"ok":true}');
    t.sandbox.setReady(false);
    const r = await t.call('GET', '/health');
    expect([r.status, r.text]).toEqual([503, '{"ok":false}']);
    t.sandbox.setReady(true);
  });

  test('/debug answers the version', async () => {
    expect((await t.call('GET', '/debug')).json()).toEqual({
      state: 1,
      version: '29.0'
    });
  });

  test('/metrics.json: every value a string, the named keys present', async () => {
    const m = (await t.call('GET', '/metrics.json')).json() as Record<
      string,
      unknown
    >;
    expect(Object.values(m).every(v => typeof v === 'string')).toBe(true);
    for (const k of [
      'system_cpu1_active_percentage',
      'system_disk_total_bytes',
      'system_disk_used_bytes',
      'system_memory_total_bytes',
      'system_memory_used_bytes',
      'system_network_received_bytes',
      'system_network_sent_bytes',
      'typesense_memory_active_bytes',
      'typesense_memory_allocated_bytes',
      'typesense_memory_resident_bytes',
      'typesense_memory_fragmentation_ratio'
    ]) {
      expect(m).toHaveProperty(k);
    }
  });

  test('/stats.json counts real requests; 29+ adds cache figures and percentiles', async () => {
    for (let i = 0; i < 5; i++) {
      await t.call('GET', '/collections/c/documents/search?q=*');
    }
    const s = (await t.call('GET', '/stats.json')).json() as Record<
      string,
      unknown
    >;
    expect(s.search_requests_per_second).toBeGreaterThan(0);
    expect(s.total_requests_per_second).toBeGreaterThan(0);
    expect(
      (s.requests_per_second as Record<string, number>)[
        'GET /collections/c/documents/search'
      ]
    ).toBeGreaterThan(0);
    expect(s).toHaveProperty('latency_ms');
    expect(s).toHaveProperty('pending_write_batches', 0);
    expect(s).toHaveProperty('cache_hit_ratio');
    expect(s).toHaveProperty('search_latency_p95_ms');
  });

  test('26: no cache figures in /stats.json', async () => {
    const t26 = await start({ version: '26.0' });
    try {
      const s = (await t26.call('GET', '/stats.json')).json() as Record<
        string,
        unknown
      >;
      expect(s).not.toHaveProperty('cache_hit_ratio');
      expect(s).toHaveProperty('write_latency_ms');
    } finally {
      await t26.close();
    }
  });

  test('POST /operations/db/compact answers {"success":true}', async () => {
    const r = await t.call('POST', '/operations/db/compact');
    expect([r.status, r.text]).toEqual([200, '{"success":true}']);
  });
});
