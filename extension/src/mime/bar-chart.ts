import { cellText } from '../datagrid/cell-text';

/** Beyond this many buckets a bar chart stops being readable; the table below has them all. */
const MAX_BARS = 30;

export interface Bucket {
  label: string;
  count: number;
}

/**
 * The buckets of a terms, histogram or range aggregation, or nothing when the rows are not
 * buckets (a metric aggregation has no doc_count).
 */
export function bucketsOf(
  rows: readonly Record<string, unknown>[],
  keyColumns: readonly string[] = []
): Bucket[] {
  const buckets: Bucket[] = [];
  for (const row of rows) {
    const count = Object.prototype.hasOwnProperty.call(row, 'doc_count')
      ? row.doc_count
      : undefined;
    if (typeof count !== 'number') {
      return [];
    }
    // Buckets of a sub-aggregation are named by their parents' keys and their own (`acme · red`).
    const named = keyColumns.filter(column =>
      Object.prototype.hasOwnProperty.call(row, column)
    );
    // A single-bucket aggregation (nested, filter, global) is one count with nothing to name it: a bar labelled – says nothing the table does not.
    if (
      named.length === 0 &&
      !['key', 'key_as_string', 'from', 'to'].some(field =>
        Object.prototype.hasOwnProperty.call(row, field)
      )
    ) {
      return [];
    }
    const label =
      named.length > 0
        ? named.map(column => cellText(row[column])).join(' · ')
        : cellText(row.key_as_string ?? row.key ?? rangeLabel(row));
    buckets.push({ label, count });
  }
  return buckets;
}

function rangeLabel(row: Record<string, unknown>): string {
  const from = row.from === undefined ? '' : cellText(row.from);
  const to = row.to === undefined ? '' : cellText(row.to);
  return `${from}–${to}`;
}

/** Horizontal bars drawn with plain elements: labels go in as text, never as markup. */
export function barChart(
  buckets: readonly Bucket[],
  title: string
): HTMLElement {
  const chart = document.createElement('div');
  chart.className = 'searchbook-BarChart';
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `Bar chart of ${title}`);
  const shown = buckets.slice(0, MAX_BARS);
  const max = Math.max(1, ...shown.map(b => b.count));
  for (const bucket of shown) {
    const row = document.createElement('div');
    row.className = 'searchbook-BarChart-row';
    const label = document.createElement('span');
    label.className = 'searchbook-BarChart-label';
    label.textContent = bucket.label;
    label.title = bucket.label;
    const track = document.createElement('span');
    track.className = 'searchbook-BarChart-track';
    const bar = document.createElement('span');
    bar.className = 'searchbook-BarChart-bar';
    bar.style.width = `${(100 * bucket.count) / max}%`;
    track.append(bar);
    const count = document.createElement('span');
    count.className = 'searchbook-BarChart-count';
    count.textContent = bucket.count.toLocaleString('en-US');
    row.append(label, track, count);
    chart.append(row);
  }
  if (buckets.length > shown.length) {
    const more = document.createElement('div');
    more.className = 'searchbook-BarChart-more';
    more.textContent = `${buckets.length - shown.length} more buckets in the table`;
    chart.append(more);
  }
  return chart;
}
