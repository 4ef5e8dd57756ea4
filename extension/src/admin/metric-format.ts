import type { Metric } from '@searchbook/contracts/admin-protocol';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const NOT_REPORTED = 'not reported';

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? whole.format(value) : decimal.format(Math.round(value * 10) / 10)} ${UNITS[unit]}`;
}

/** A figure as the panel prints it; a value the server did not send is never shown as 0. */
export function formatMetric(metric: Metric): string {
  if (metric.unit === 'text') {
    return metric.text ?? NOT_REPORTED;
  }
  const value = metric.value;
  if (value === null) {
    return metric.missing ?? NOT_REPORTED;
  }
  switch (metric.unit) {
    case 'bytes': {
      if (metric.total === undefined || metric.total <= 0) {
        return formatBytes(value);
      }
      return `${formatBytes(value)} of ${formatBytes(metric.total)} (${whole.format((value / metric.total) * 100)}%)`;
    }
    case 'per_second':
      return `${decimal.format(value)}/s`;
    case 'ms':
      return `${decimal.format(value)} ms`;
    case 'percent':
      return `${decimal.format(value)}%`;
    case 'count':
      return whole.format(value);
    case 'ratio':
      return decimal.format(value);
  }
}
