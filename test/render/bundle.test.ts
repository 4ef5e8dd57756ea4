import type { JsonValue } from '../../kernel/src/console/cell';
import type { ConsoleResult } from '../../kernel/src/driver-core/driver';
import type { Column } from '../../contracts/columns';
import {
  aggregationRows,
  answerValue,
  hitsPayloadRows,
  swapQuotes,
  tablePayloadRows
} from '../../contracts/answer-rows';
import {
  type Answer,
  type MimeBundle,
  toBundle as bundleOf
} from '../../kernel/src/render/bundle';
import {
  HITS_MIME,
  HitsPayloadSchema,
  TABLE_MIME,
  TablePayloadSchema
} from '../../contracts/mime-types';
import {
  DEFAULT_LIMITS,
  limitsFromEnv
} from '../../kernel/src/render/output-limits';
import { serialise } from '../../kernel/src/protocol/encoded-string';
import { ExactNumber, exactJson } from '../../contracts/exact-json';

const info = {
  connection: 'es-local',
  engine: 'elasticsearch' as const,
  method: 'GET',
  path: '/products/_search',
  status: 200,
  elapsedMs: 12.4
};
const column = (name: string, json = false): Column => ({
  name,
  type: json ? 'nested' : 'keyword',
  readOnly: false,
  json
});
const LAYOUT = {
  at: ['hits', 'hits'],
  source: ['_source'],
  meta: { _id: ['_id'] }
};

/** A bundle as a frontend receives it: serialised as the kernel's messages serialise it. */
const toBundle = (...args: Parameters<typeof bundleOf>): MimeBundle =>
  JSON.parse(serialise(bundleOf(...args)).toString('utf8')) as MimeBundle;

function hits(
  rows: Record<string, JsonValue>[],
  extra: Partial<Extract<ConsoleResult, { kind: 'hits' }>> = {}
): ConsoleResult {
  return {
    kind: 'hits',
    columns: [column('_id'), column('name'), column('tags', true)],
    rows,
    ...extra
  };
}

/** A search answer of `n` documents, as an engine sends it, and the rows a driver makes of it. */
function search(
  n: number,
  source: (i: number) => Record<string, JsonValue> = i => ({
    name: `n${i}`,
    tags: ['a', `t${i}`]
  })
) {
  const value = {
    took: 3,
    hits: {
      total: { value: n, relation: 'eq' },
      hits: Array.from({ length: n }, (_, i) => ({
        _index: 'p',
        _id: String(i),
        _source: source(i)
      }))
    }
  };
  const text = JSON.stringify(value);
  const answer: Answer = { bytes: Buffer.from(text, 'utf8'), value };
  const rows = value.hits.hits.map(h => ({ _id: h._id, ...h._source }));
  return { answer, text, value, result: hits(rows, { documents: LAYOUT }) };
}

describe('console output bundles', () => {
  test('hold the answer once: no application/json, no rows, and the rows rebuilt from the answer are the grid', () => {
    const { answer, text, result } = search(3);
    const bundle = toBundle(result, info, answer);
    expect(bundle['application/json']).toBeUndefined();
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    expect(payload.rows).toBeUndefined();
    expect(answerValue(payload)).toEqual(answer.value);
    expect(swapQuotes(payload.answer as string)).toBe(text);
    expect(hitsPayloadRows(payload)).toEqual(
      (result as { rows: unknown }).rows
    );
  });

  test("quotes, apostrophes, backslashes and any Unicode in documents survive the stored answer's quote swap", () => {
    const { answer, text, value, result } = search(2, i => ({
      name: i ? 'He said "it\'s" \\ \u2603 ☃ 😀 \n\t' : "'\"'",
      tags: ["'", '"']
    }));
    const payload = HitsPayloadSchema.parse(
      toBundle(result, info, answer)[HITS_MIME]
    );
    expect(answerValue(payload)).toEqual(value);
    expect(JSON.stringify(payload).length).toBeLessThan(text.length + 800);
  });

  test('past the row cap, the answer kept holds the first rows and the notice says how to keep more', () => {
    const { answer, value, result } = search(1500);
    const bundle = toBundle(result, info, answer);
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    const kept = answerValue(payload) as unknown as typeof value;
    expect(kept.hits.hits).toEqual(value.hits.hits.slice(0, 1000));
    expect({ ...kept, hits: { ...kept.hits, hits: [] } }).toEqual({
      ...value,
      hits: { ...value.hits, hits: [] }
    });
    expect(payload.omittedRows).toBe(500);
    expect(bundle['text/plain']).toContain(
      '1000 shown; 500 rows left out of the notebook'
    );
    expect(bundle['text/plain']).toContain(
      "500 more rows of the answer are not in the notebook: raise Rows kept in notebook outputs in searchbook's settings (or SEARCHBOOK_MAX_ROWS) and run the cell again"
    );
  });

  test('the fallbacks show the first ten rows, as pandas shows a long frame, and say where the rest is, never "in the grid"', () => {
    const { answer, text, result } = search(1000, i => ({
      name: `n${i}`,
      tags: ['a', `t${i}`],
      about: `A product of about 250 bytes, number ${i}. `.repeat(5)
    }));
    const bundle = toBundle(result, info, answer);
    const html = String(bundle['text/html']);
    const plain = String(bundle['text/plain']);
    expect(html.match(/<tr><td>/g)).toHaveLength(DEFAULT_LIMITS.fallbackRows);
    expect(html).toContain('<tr><td>9</td><td>n9</td>');
    expect(plain).toMatch(/\n9 +n9 /);
    expect(plain).not.toMatch(/\n10 +n10 /);
    for (const fallback of [html, plain]) {
      expect(fallback).toContain(
        `This table shows the first ${DEFAULT_LIMITS.fallbackRows} of the 1000 rows this notebook holds (the engine's answer, in the output's ${HITS_MIME} data)`
      );
      expect(fallback).not.toContain('in the grid');
    }
    // JupyterLab sanitizes each output's HTML as a notebook opens (its table of contents).
    expect(html.length).toBeLessThan(8_000);
    expect(html.length + plain.length).toBeLessThan(text.length * 0.05);
  });

  test('a table of up to 60 rows shows them all in its fallbacks, one of 61 its first ten', () => {
    for (const [rows, shown] of [
      [DEFAULT_LIMITS.fallbackWholeRows, DEFAULT_LIMITS.fallbackWholeRows],
      [DEFAULT_LIMITS.fallbackWholeRows + 1, DEFAULT_LIMITS.fallbackRows]
    ] as const) {
      const { answer, result } = search(rows, i => ({ name: `n${i}` }));
      const bundle = toBundle(result, info, answer);
      const html = String(bundle['text/html']);
      const plain = String(bundle['text/plain']);
      expect(html.match(/<tr><td>/g)).toHaveLength(shown);
      expect(plain).toMatch(
        new RegExp(`\\n${shown - 1} +n${shown - 1}(\\n|$)`)
      );
      expect(plain).not.toMatch(new RegExp(`\\n${shown} +n${shown}(\\n|$)`));
    }
  });

  test("rows of many long cells show fewer than ten, as many as fit the fallback's characters", () => {
    const fields = Array.from({ length: 8 }, (_, f) => `field${f}`);
    const { answer, result } = search(50, i =>
      Object.fromEntries(
        fields.map(f => [f, `${f} of ${i}: ${'a long text '.repeat(25)}`])
      )
    );
    const wide = {
      ...result,
      columns: [column('_id'), ...fields.map(f => column(f))]
    } as ConsoleResult;
    const html = String(toBundle(wide, info, answer)['text/html']);
    const shown = html.match(/<tr><td>/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(1);
    expect(shown).toBeLessThan(DEFAULT_LIMITS.fallbackRows);
    expect(html).toContain(
      `This table shows the first ${shown} of the 50 rows this notebook holds`
    );
  });

  test('an aggregation-only answer has no empty hits table in its fallbacks', () => {
    const bundle = toBundle(
      hits([], {
        aggregations: [
          { name: 'brands', rows: [{ key: 'Acme', doc_count: 3 }] }
        ]
      }),
      info,
      undefined
    );
    expect(bundle['text/plain']).toMatch(/Aggregation brands\nkey\s+doc_count/);
    expect(String(bundle['text/plain'])).not.toMatch(/_id\s+name/);
    expect(String(bundle['text/html']).match(/<table/g)).toHaveLength(1);
    expect(bundle['text/html']).toContain(
      '<caption>Aggregation brands</caption>'
    );
  });

  test('SEARCHBOOK_MAX_ROWS changes the cap; nonsense keeps the default', () => {
    expect(limitsFromEnv({ SEARCHBOOK_MAX_ROWS: '5000' }).gridRows).toBe(5000);
    expect(limitsFromEnv({ SEARCHBOOK_MAX_ROWS: 'lots' }).gridRows).toBe(
      DEFAULT_LIMITS.gridRows
    );
  });

  test('an answer too large to keep keeps its rows, long array and object cells cut at 10,000 characters and marked', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `tag-${i}`);
    const { answer, result } = search(2, (i): Record<string, JsonValue> =>
      i === 0 ? { name: 'short', tags: long } : { tags: ['a'] }
    );
    const bundle = toBundle(result, info, answer, {
      ...DEFAULT_LIMITS,
      answerChars: 1000
    });
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    expect(payload.answer).toBeUndefined();
    const cell = payload.rows?.[0]?.tags as string;
    expect(cell).toHaveLength(10_003);
    expect(cell.endsWith('...')).toBe(true);
    expect(cell.startsWith('["tag-0","tag-1"')).toBe(true);
    expect(payload.cut).toEqual([{ row: 0, column: 'tags' }]);
    expect(payload.rows?.[1]?.tags).toEqual(['a']);
  });

  test('show document values as text in every fallback, never as markup', () => {
    const payloadText = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const { answer, result } = search(1, () => ({ name: payloadText }));
    const bundle = toBundle(result, info, answer);
    expect(bundle['text/html']).not.toMatch(/<img|<script/);
    expect(bundle['text/html']).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(bundle['text/plain']).toContain('<img src=x onerror=alert(1)>');
  });

  test('the status line names the connection, request, status, time and a lower-bound total', () => {
    const bundle = toBundle(
      hits([{ _id: '1' }], { total: { value: 10000, relation: 'gte' } }),
      info,
      undefined
    );
    expect(bundle['text/plain']).toMatch(
      /^es-local: GET \/products\/_search → 200 in 12 ms \(≥10000 total, 1 shown\)/
    );
  });

  test('arrays become tables that keep the engine array once; rows rebuilt from it match', () => {
    const value = [{ index: 'products', health: 'green', docs: { count: 3 } }];
    const bundle = toBundle(
      {
        kind: 'table',
        rows: [{ index: 'products', health: 'green', 'docs.count': 3 }]
      },
      info,
      { bytes: Buffer.from(JSON.stringify(value), 'utf8'), value }
    );
    const payload = TablePayloadSchema.parse(bundle[TABLE_MIME]);
    expect(payload.columns).toEqual(['index', 'health', 'docs.count']);
    expect(bundle['application/json']).toBeUndefined();
    expect(tablePayloadRows(payload)).toEqual([
      { index: 'products', health: 'green', 'docs.count': 3 }
    ]);
  });

  test('any other answer too large for the notebook is replaced by a note', () => {
    const big = 'x'.repeat(DEFAULT_LIMITS.rawJsonChars + 10);
    const bundle = toBundle(
      { kind: 'json', value: { blob: big } },
      info,
      undefined
    );
    expect(bundle['application/json']).toEqual({
      searchbook: expect.stringMatching(/left out of the notebook/)
    });
  });
});

describe('long strings', () => {
  test('a hit holding a string of megabytes is cut in an answer too large to keep, marked as cut, in the grid rows and both fallbacks', () => {
    const huge = `start-${'x'.repeat(3_000_000)}-end`;
    const { answer, result } = search(2, (i): Record<string, JsonValue> =>
      i === 0 ? { name: huge, tags: ['a'] } : { name: 'short', tags: ['b'] }
    );
    const bundle = toBundle(result, info, answer, {
      ...DEFAULT_LIMITS,
      answerChars: 1_000_000
    });
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    expect(payload.answer).toBeUndefined();
    const cell = payload.rows?.[0]?.name as string;
    expect(cell).toHaveLength(10_003);
    expect(cell.startsWith('start-xxx')).toBe(true);
    expect(cell.endsWith('...')).toBe(true);
    expect(payload.cut).toEqual([{ row: 0, column: 'name' }]);
    expect(payload.rows?.[1]?.name).toBe('short');
    expect(JSON.stringify(bundle).length).toBeLessThan(100_000);
    for (const mime of ['text/plain', 'text/html']) {
      expect(String(bundle[mime])).not.toContain('-end');
    }
  });

  test('a JSON answer holding a string of megabytes keeps a page of it in its text fallbacks, cut and saying so', () => {
    const huge = `start-${'x'.repeat(3_000_000)}-end`;
    const bundle = toBundle(
      { kind: 'json', value: { _id: '1', _source: { body: huge } } },
      info,
      undefined
    );
    expect(bundle['application/json']).toEqual({
      searchbook: expect.stringMatching(/left out of the notebook/)
    });
    for (const mime of ['text/plain', 'text/html']) {
      const text = String(bundle[mime]);
      expect(text.length).toBeLessThan(DEFAULT_LIMITS.fallbackMaxChars + 2_000);
      expect(text).toContain('start-xxx');
      expect(text).toMatch(
        /xxx\.\.\.\n\(cut: the answer's JSON is 3000\d+ characters; the notebook keeps its first 250000\./
      );
      expect(text).not.toContain('-end');
    }
  });
});

it('an aggregation table carries its column order, which rows saved with sorted keys would lose', () => {
  const result: ConsoleResult = {
    kind: 'hits',
    columns: [],
    rows: [],
    aggregations: [
      {
        name: 'brands',
        rows: [
          { key: 'Initech', doc_count: 2368, 'price_stats.min': 1.38 },
          { key: 'Hooli', doc_count: 9, 'price_stats.min': 2, extra: 1 }
        ]
      }
    ]
  };
  const payload = HitsPayloadSchema.parse(
    JSON.parse(
      serialise(bundleOf(result, info, undefined)[HITS_MIME]).toString('utf8')
    )
  );
  expect(payload.aggregations?.[0]?.columns).toEqual([
    'key',
    'doc_count',
    'price_stats.min',
    'extra'
  ]);
});

it('an aggregation table holding a key past 2^53 keeps it exact for the extension, and bare for Python', () => {
  const key = new ExactNumber('9007199254740993');
  const result: ConsoleResult = {
    kind: 'hits',
    columns: [],
    rows: [],
    aggregations: [{ name: 'longs', rows: [{ key, doc_count: 1 }] }]
  };
  const text = serialise(bundleOf(result, info, undefined)[HITS_MIME]).toString(
    'utf8'
  );
  // JupyterLab's JSON.parse rounds `rows`; the exact text beside them does not.
  const payload = HitsPayloadSchema.parse(JSON.parse(text));
  const table = payload.aggregations?.[0];
  expect(table?.rows[0]?.key).toBe(9007199254740992);
  expect(exactJson(aggregationRows(table ?? { rows: [] }))).toBe(
    '[{"key":9007199254740993,"doc_count":1}]'
  );
  // Python's json reads the message's bare digits.
  expect(text).toContain('"rows":[{"key":9007199254740993,"doc_count":1}]');
});
