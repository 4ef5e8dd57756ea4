/** Date math for range queries: `now`, `now-1d/d`, `2024-01-01||+1M/M`. */
import { parseDate, parseWithFormat } from './date-format';

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  H: 3_600_000,
  d: 86_400_000,
  w: 604_800_000
};

function round(t: number, unit: string, up: boolean): number {
  const d = new Date(t);
  const parts = [
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds()
  ];
  const keep = { y: 1, M: 2, w: 3, d: 3, h: 4, H: 4, m: 5, s: 6 }[unit] ?? 6;
  const start = Date.UTC(
    parts[0] as number,
    keep > 1 ? (parts[1] as number) : 0,
    keep > 2 ? (parts[2] as number) : 1,
    keep > 3 ? (parts[3] as number) : 0,
    keep > 4 ? (parts[4] as number) : 0,
    keep > 5 ? (parts[5] as number) : 0
  );
  let s = start;
  if (unit === 'w') {
    s -= ((new Date(start).getUTCDay() + 6) % 7) * 86_400_000;
  }
  if (!up) {
    return s;
  }
  return add(s, 1, unit) - 1;
}

function add(t: number, n: number, unit: string): number {
  if (unit === 'y' || unit === 'M') {
    const d = new Date(t);
    if (unit === 'y') {
      d.setUTCFullYear(d.getUTCFullYear() + n);
    } else {
      d.setUTCMonth(d.getUTCMonth() + n);
    }
    return d.getTime();
  }
  return t + n * (UNIT_MS[unit] ?? 0);
}

/** Returns epoch millis, or undefined when the text is not a date. */
export function resolveDate(
  value: unknown,
  roundUp = false,
  now = Date.now(),
  format?: string
): number | undefined {
  const parse = (v: unknown): number | undefined =>
    format === undefined ? parseDate(v) : parseWithFormat(v, format);
  if (typeof value !== 'string') {
    return parse(value);
  }
  let base: number | undefined;
  let rest: string;
  if (value.startsWith('now')) {
    base = now;
    rest = value.slice(3);
  } else {
    const bar = value.indexOf('||');
    base = parse(bar >= 0 ? value.slice(0, bar) : value);
    rest = bar >= 0 ? value.slice(bar + 2) : '';
  }
  if (base === undefined) {
    return undefined;
  }
  const ops = /([+-]\d+[yMwdhHms])|(\/[yMwdhHms])/g;
  let consumed = 0;
  for (const m of rest.matchAll(ops)) {
    if (m.index !== consumed) {
      return undefined;
    }
    consumed += m[0].length;
    if (m[1]) {
      base = add(base, Number(m[1].slice(0, -1)), m[1].slice(-1));
    } else {
      base = round(base, (m[2] as string).slice(1), roundUp);
    }
  }
  return consumed === rest.length ? base : undefined;
}
