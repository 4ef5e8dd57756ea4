/**
 * How the panel prints figures and keys: a figure the server did not send reads "not
 * reported" (never 0), sizes read in binary units out of their total, a key scoped to `*` reads
 * server-wide, and an expiry in the past says so.
 */
import {
  formatMetric,
  NOT_REPORTED
} from '../../extension/src/admin/metric-format';
import { expiryText, scopeText } from '../../extension/src/admin/scope-text';

describe('figures', () => {
  it('says "not reported" for a figure the server did not send, and 0 only when it sent 0', () => {
    expect(
      formatMetric({
        id: 'c',
        label: 'Cache hit ratio',
        unit: 'ratio',
        value: null
      })
    ).toBe(NOT_REPORTED);
    expect(
      formatMetric({
        id: 'c',
        label: 'Cache hit ratio',
        unit: 'ratio',
        value: 0
      })
    ).toBe('0');
    expect(
      formatMetric({
        id: 'r',
        label: 'Searches',
        unit: 'per_second',
        value: null,
        missing: 'measuring: a rate needs two readings'
      })
    ).toBe('measuring: a rate needs two readings');
  });

  it('prints sizes out of their total, rates, latencies, counts and statuses', () => {
    expect(
      formatMetric({
        id: 'd',
        label: 'Disk',
        unit: 'bytes',
        value: 10 * 1024 ** 3,
        total: 100 * 1024 ** 3
      })
    ).toBe('10 GiB of 100 GiB (10%)');
    expect(
      formatMetric({
        id: 'm',
        label: 'Memory',
        unit: 'bytes',
        value: 1536 * 1024
      })
    ).toBe('1.5 MiB');
    expect(
      formatMetric({ id: 'b', label: 'Tiny', unit: 'bytes', value: 512 })
    ).toBe('512 B');
    expect(
      formatMetric({
        id: 'r',
        label: 'Requests',
        unit: 'per_second',
        value: 12.345
      })
    ).toBe('12.35/s');
    expect(
      formatMetric({ id: 'l', label: 'Latency', unit: 'ms', value: 3 })
    ).toBe('3 ms');
    expect(
      formatMetric({ id: 'n', label: 'Shards', unit: 'count', value: 12000 })
    ).toBe('12,000');
    expect(
      formatMetric({
        id: 's',
        label: 'Status',
        unit: 'text',
        value: null,
        text: 'yellow'
      })
    ).toBe('yellow');
  });
});

describe('keys', () => {
  it('reads a key scoped to * as server-wide, and lists named collections', () => {
    expect(scopeText(['*'])).toBe('server-wide');
    expect(scopeText(['books', 'authors'])).toBe('books, authors');
  });

  it('says never, or when the key expires or expired', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(expiryText(null, now)).toBe('never expires');
    expect(expiryText(now / 1000 + 3600, now)).toMatch(/^expires /);
    expect(expiryText(now / 1000 - 3600, now)).toMatch(/^expired /);
  });
});
