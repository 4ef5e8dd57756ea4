/** `_cat` APIs: text tables by default, arrays of string-valued objects with format=json. */
import { narrow } from './auth';
import type { Context } from './context';
import type { Exchange } from './exchange';
import { optionsFromQuery, resolveIndices } from './resolve';
import { atLeast } from './version';

type Row = Record<string, string>;

export function formatBytes(bytes: number): string {
  const units = ['b', 'kb', 'mb', 'gb', 'tb'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const text =
    u === 0 ? String(Math.round(v)) : v.toFixed(1).replace(/\.0$/, '');
  return text + units[u];
}

function sendTable(ex: Exchange, columns: string[], rows: Row[]): void {
  const h = ex.query.get('h');
  const cols = h
    ? h
        .split(',')
        .map(c => c.trim())
        .filter(c => columns.includes(c))
    : columns;
  const sortSpec = ex.query.get('s');
  if (sortSpec) {
    const keys = sortSpec
      .split(',')
      .map(k => k.split(':') as [string, string?]);
    rows.sort((a, b) => {
      for (const [k, dir] of keys) {
        const x = a[k] ?? '';
        const y = b[k] ?? '';
        const nx = Number(x);
        const ny = Number(y);
        const c =
          Number.isFinite(nx) && Number.isFinite(ny) && x !== '' && y !== ''
            ? nx - ny
            : x < y
              ? -1
              : x > y
                ? 1
                : 0;
        if (c !== 0) {
          return dir === 'desc' ? -c : c;
        }
      }
      return 0;
    });
  }
  const picked = rows.map(r =>
    Object.fromEntries(cols.map(c => [c, r[c] ?? '']))
  );
  if (ex.query.get('format') === 'json') {
    ex.send(200, picked);
    return;
  }
  const lines: string[][] = picked.map(r => cols.map(c => r[c] ?? ''));
  if (ex.flag('v')) {
    lines.unshift(cols);
  }
  const widths = cols.map((_, i) =>
    Math.max(...lines.map(l => (l[i] ?? '').length), 0)
  );
  const text = lines
    .map(
      l =>
        l
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join(' ')
          .trimEnd() + '\n'
    )
    .join('');
  ex.sendRaw(200, text, 'text/plain; charset=UTF-8');
}

export function catIndices(ex: Exchange, ctx: Context): void {
  const expr = ex.params['index'];
  const targets = narrow(
    ex,
    'monitor',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  const raw = ex.query.get('bytes') === 'b';
  const withDataset = atLeast(ctx.version, 8, 11);
  const columns = [
    'health',
    'status',
    'index',
    'uuid',
    'pri',
    'rep',
    'docs.count',
    'docs.deleted',
    'store.size',
    'pri.store.size'
  ];
  if (withDataset) {
    columns.push('dataset.size');
  }
  const rows = targets.map(idx => {
    const size = raw ? String(idx.storeBytes) : formatBytes(idx.storeBytes);
    const row: Row = {
      health: idx.health,
      status: 'open',
      index: idx.name,
      uuid: idx.uuid,
      pri: '1',
      rep: String(idx.replicas),
      'docs.count': String(idx.luceneDocCount()),
      'docs.deleted': String(idx.deletedDocs),
      'store.size': size,
      'pri.store.size': size
    };
    if (withDataset) {
      row['dataset.size'] = size;
    }
    return row;
  });
  sendTable(ex, columns, rows);
}

export function catAliases(ex: Exchange, ctx: Context): void {
  const rows: Row[] = [];
  const wanted = ex.params['name']?.split(',');
  for (const idx of ctx.state.indices.values()) {
    for (const [alias, props] of idx.aliases) {
      if (wanted && !wanted.includes(alias)) {
        continue;
      }
      rows.push({
        alias,
        index: idx.name,
        filter: props.filter ? '*' : '-',
        'routing.index': '-',
        'routing.search': '-',
        is_write_index:
          props.is_write_index === undefined
            ? '-'
            : String(props.is_write_index)
      });
    }
  }
  sendTable(
    ex,
    [
      'alias',
      'index',
      'filter',
      'routing.index',
      'routing.search',
      'is_write_index'
    ],
    rows
  );
}

export function catCount(ex: Exchange, ctx: Context): void {
  const targets = narrow(
    ex,
    'search',
    resolveIndices(ctx.state, ex.params['index'], optionsFromQuery(ex.query))
  );
  const count = targets.reduce((n, idx) => n + idx.searchable().length, 0);
  const now = Date.now();
  sendTable(
    ex,
    ['epoch', 'timestamp', 'count'],
    [
      {
        epoch: String(Math.floor(now / 1000)),
        timestamp: new Date(now).toISOString().slice(11, 19),
        count: String(count)
      }
    ]
  );
}
