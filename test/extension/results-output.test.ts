/** @jest-environment jsdom */
import './support/dom';
import { gzipSync } from 'node:zlib';
import { Widget } from '@lumino/widgets';
import { swapQuotes } from '../../contracts/answer-rows';
import {
  ANSWER_FORMAT,
  COMPRESSED_ANSWER_FORMAT,
  HITS_MIME,
  JSON_MIME,
  PROGRESS_MIME,
  TABLE_MIME,
  TYPED_SECRET_MIME
} from '../../contracts/mime-types';
import { ValueView } from '../../extension/src/datagrid/value-view';
import { GridWhenNear } from '../../extension/src/mime/grid-when-near';
import { ResultsOutput } from '../../extension/src/mime/results-output';
import extensions from '../../extension/src/mime-extension';

const info = {
  connection: 'sandbox-es',
  engine: 'elasticsearch' as const,
  method: 'GET',
  path: '/products/_search',
  status: 200,
  elapsedMs: 12.4
};
const payload = {
  info,
  columns: [
    { name: '_id', type: '_id', readOnly: true, json: false },
    { name: 'name', type: 'text', readOnly: false, json: false }
  ],
  rows: [
    { _id: '1', name: '<img src=x onerror="window.__pwned=1">' },
    { _id: '2', name: 'plain' }
  ],
  total: { value: 10000, relation: 'gte' },
  omittedRows: 3,
  cut: [],
  aggregations: [
    {
      name: 'brands',
      rows: [
        { key: 'acme', doc_count: 7 },
        { key: '<b>bold</b>', doc_count: 3 }
      ]
    }
  ]
};

function model(data: Record<string, unknown>) {
  return {
    data,
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never;
}

async function render(
  mime: string,
  data: Record<string, unknown>
): Promise<ResultsOutput> {
  const output = new ResultsOutput(mime);
  Widget.attach(output, document.body);
  await output.renderModel(model(data));
  return output;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the hits output', () => {
  it('is chosen ahead of the HTML and JSON fallbacks and is safe in untrusted notebooks', () => {
    for (const extension of extensions) {
      expect(extension.rendererFactory.safe).toBe(true);
      expect(extension.rank).toBeLessThan(0);
    }
    expect(extensions.flatMap(e => e.rendererFactory.mimeTypes)).toEqual([
      HITS_MIME,
      JSON_MIME,
      PROGRESS_MIME,
      TYPED_SECRET_MIME,
      TABLE_MIME
    ]);
  });

  it('shows who answered, the lower-bound total, and how many rows were left out', async () => {
    const output = await render(HITS_MIME, {
      [HITS_MIME]: payload,
      'application/json': { took: 1 }
    });
    expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
      'sandbox-es · GET /products/_search · 200 · 12 ms · ≥10,000 total · 2 shown'
    );
    expect(
      output.node.querySelector('.searchbook-Omitted')?.textContent
    ).toContain('3 more rows were left out');
    const grid = output.node.querySelector('.searchbook-Grid');
    expect(grid?.getAttribute('aria-rowcount')).toBe('2');
    expect(JSON.parse(grid?.getAttribute('data-columns') ?? '[]')).toEqual([
      '_id',
      'name'
    ]);
  });

  it('draws a bar chart of bucket aggregations with labels as text', async () => {
    const output = await render(HITS_MIME, { [HITS_MIME]: payload });
    const labels = [
      ...output.node.querySelectorAll('.searchbook-BarChart-label')
    ].map(n => n.textContent);
    expect(labels).toEqual(['acme', '<b>bold</b>']);
    expect(output.node.querySelector('.searchbook-BarChart b')).toBeNull();
    const bars = [
      ...output.node.querySelectorAll<HTMLElement>('.searchbook-BarChart-bar')
    ].map(n => n.style.width);
    expect(bars[0]).toBe('100%');
    expect(Number.parseFloat(bars[1] ?? '')).toBeCloseTo(42.857, 2);
  });

  it('toggles to the raw response and back', async () => {
    const output = await render(HITS_MIME, {
      [HITS_MIME]: payload,
      'application/json': { took: 1, hits: { hits: [] } }
    });
    const toggle = [...output.node.querySelectorAll('button')].find(
      b => b.textContent === 'Raw JSON'
    );
    const raw = output.node.querySelector<HTMLElement>('.searchbook-RawJson');
    // The grid's place in the output, hidden with the grid in it.
    const grid = output.node.querySelector<HTMLElement>(
      '.searchbook-GridPlace'
    );
    expect(grid?.querySelector('.searchbook-GridView')).not.toBeNull();
    expect(raw?.hidden).toBe(true);
    toggle?.click();
    expect(raw?.hidden).toBe(false);
    expect(JSON.parse(raw?.textContent ?? '')).toEqual({
      took: 1,
      hits: { hits: [] }
    });
    expect(grid?.classList.contains('lm-mod-hidden')).toBe(true);
    expect(toggle?.getAttribute('aria-pressed')).toBe('true');
    toggle?.click();
    expect(raw?.hidden).toBe(true);
    expect(grid?.classList.contains('lm-mod-hidden')).toBe(false);
  });

  it('says why when a payload does not match its schema, and shows the plain text', async () => {
    const output = await render(HITS_MIME, {
      [HITS_MIME]: { info },
      'text/plain': 'the plain table'
    });
    expect(
      output.node.querySelector('.searchbook-Unreadable-reason')?.textContent
    ).toContain('did not match its schema');
    expect(output.node.querySelector('pre')?.textContent).toBe(
      'the plain table'
    );
  });

  it.each([
    ['plain', (swapped: string) => swapped, ANSWER_FORMAT],
    [
      'gzip-compressed in base64',
      (swapped: string) => gzipSync(Buffer.from(swapped)).toString('base64'),
      COMPRESSED_ANSWER_FORMAT
    ]
  ] as const)(
    'rebuilds the grid from the engine answer the notebook keeps (%s), and shows that answer as the raw response',
    async (_, kept, answerFormat) => {
      const engine = {
        took: 2,
        hits: {
          total: { value: 2, relation: 'eq' },
          hits: [
            {
              _id: 'a',
              _index: 'p',
              _score: 1,
              _source: { name: 'it\'s "quoted"', address: { city: 'Zürich' } }
            },
            { _id: 'b', _index: 'p', _score: 0.5, _source: { name: 'plain' } }
          ]
        }
      };
      const payload = {
        info,
        columns: [
          { name: '_id', type: 'keyword', readOnly: true, json: false },
          { name: 'name', type: 'text', readOnly: false, json: false },
          {
            name: 'address.city',
            type: 'keyword',
            readOnly: false,
            json: false
          }
        ],
        answer: kept(swapQuotes(JSON.stringify(engine))),
        answerFormat,
        documents: {
          at: ['hits', 'hits'],
          source: ['_source'],
          meta: { _id: ['_id'], _index: ['_index'], _score: ['_score'] }
        },
        omittedRows: 0
      };
      const output = await render(HITS_MIME, { [HITS_MIME]: payload });
      const grid = output.node.querySelector('.searchbook-Grid');
      expect(grid?.getAttribute('aria-rowcount')).toBe('2');
      expect(
        output.node.querySelector('.searchbook-Status')?.textContent
      ).toContain('2 shown');
      [...output.node.querySelectorAll('button')]
        .find(b => b.textContent === 'Raw JSON')
        ?.click();
      expect(
        JSON.parse(
          output.node.querySelector('.searchbook-RawJson')?.textContent ?? ''
        )
      ).toEqual(engine);
    }
  );

  it('builds its grid when scrolled near, lets go of its rows when far and reads them again from the output', async () => {
    const engine = {
      hits: {
        hits: [
          { _id: 'a', _source: { name: "it's" } },
          { _id: 'b', _source: { name: 'plain' } }
        ]
      }
    };
    const data = {
      [HITS_MIME]: {
        info,
        columns: [
          { name: '_id', type: 'keyword', readOnly: true, json: false }
        ],
        answer: swapQuotes(JSON.stringify(engine)),
        answerFormat: ANSWER_FORMAT,
        documents: {
          at: ['hits', 'hits'],
          source: ['_source'],
          meta: { _id: ['_id'] }
        },
        omittedRows: 0
      }
    };
    // JupyterLab's output model hands out a fresh copy of its bundle on every read.
    let reads = 0;
    const counted = {
      get data() {
        reads++;
        return JSON.parse(JSON.stringify(data)) as typeof data;
      },
      metadata: {},
      trusted: false,
      setData: () => undefined
    } as never;
    const watched: { margin?: string; call: (shown: boolean) => void }[] = [];
    const globals = globalThis as { IntersectionObserver?: unknown };
    globals.IntersectionObserver = class {
      constructor(
        callback: (entries: { isIntersecting: boolean }[]) => void,
        options: { rootMargin?: string }
      ) {
        watched.push({
          margin: options.rootMargin,
          call: shown => callback([{ isIntersecting: shown }])
        });
      }
      observe(): void {}
      disconnect(): void {}
    };
    try {
      const output = new ResultsOutput(HITS_MIME);
      Widget.attach(output, document.body);
      await output.renderModel(counted);
      expect(
        output.node.querySelector('.searchbook-Status')?.textContent
      ).toContain('2 shown');
      expect(output.node.querySelector('.searchbook-Grid')).toBeNull();
      expect(reads).toBe(1);
      // The view itself (no margin) and the farthest margin, where a grid lets go of its rows.
      const px = (w: { margin?: string }) => parseInt(w.margin ?? '0', 10);
      const byMargin = [...watched].sort((a, b) => px(a) - px(b));
      const near = byMargin[0];
      const far = byMargin.at(-1);
      near?.call(true);
      // Built in the next frame, one grid a frame.
      await new Promise(done => setTimeout(done, 50));
      const grid = output.node.querySelector('.searchbook-Grid');
      expect(grid?.getAttribute('aria-rowcount')).toBe('2');
      expect(reads).toBe(2);
      far?.call(false);
      near?.call(true);
      // Back near, nothing is read until the grid draws a row: then from the output again.
      expect(reads).toBe(2);
      const lazy = output.widgets.find(w => w instanceof GridWhenNear);
      expect(lazy?.ensureBuilt().model.data('body', 1, 0)).toBe('b');
      expect(reads).toBe(3);
      // The same grid, not a second one.
      expect(output.node.querySelectorAll('.searchbook-Grid')).toHaveLength(1);
    } finally {
      delete globals.IntersectionObserver;
    }
  });

  it('shows a short line instead of an empty grid when only aggregations came back, and offers nothing to copy', async () => {
    const output = await render(HITS_MIME, {
      [HITS_MIME]: {
        ...payload,
        rows: [],
        total: { value: 25000, relation: 'eq' }
      }
    });
    expect(output.node.querySelector('.searchbook-Empty')?.textContent).toBe(
      'No documents in this response.'
    );
    expect(
      [...output.node.querySelectorAll('.searchbook-Toolbar button')].map(
        b => b.textContent
      )
    ).toEqual(['Raw JSON']);
    expect(
      output.node.querySelector(
        '.searchbook-GridView .searchbook-Grid[aria-label^="0 rows"]'
      )
    ).toBeNull();
    expect(output.node.querySelectorAll('.searchbook-BarChart')).toHaveLength(
      1
    );
  });

  it('renders tables (such as _cat/indices) in the same grid, without type headers', async () => {
    const table = {
      info: { ...info, path: '/_cat/indices' },
      columns: ['index', 'docs.count'],
      rows: [{ index: 'products', 'docs.count': '25000' }],
      omittedRows: 0,
      cut: []
    };
    const output = await render(TABLE_MIME, { [TABLE_MIME]: table });
    expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
      'sandbox-es · GET /_cat/indices · 200 · 12 ms · 1 shown'
    );
    expect(output.node.querySelector('.searchbook-Omitted')).toBeNull();
  });
});

describe('the value view', () => {
  it('shows markup from a document as characters and creates no elements from it', () => {
    const view = new ValueView();
    Widget.attach(view, document.body);
    view.open({
      column: 'name',
      row: 1,
      value:
        '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>',
      cut: false
    });
    expect(view.node.querySelector('pre')?.textContent).toBe(
      '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    );
    expect(view.node.querySelector('img, script')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('pretty-prints JSON values and says when a value was cut', () => {
    const view = new ValueView();
    Widget.attach(view, document.body);
    view.open({ column: 'variants', row: 3, value: [{ sku: 'a' }], cut: true });
    expect(view.node.querySelector('pre')?.textContent).toBe(
      '[\n  {\n    "sku": "a"\n  }\n]'
    );
    expect(
      view.node.querySelector('.searchbook-ValueView-notice')?.textContent
    ).toContain('was cut');
    expect(
      view.node.querySelector('.searchbook-ValueView-title')?.textContent
    ).toBe('variants · row 3');
  });
});
