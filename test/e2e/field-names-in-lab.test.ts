/**
 * Fields named like JavaScript object members (`constructor`, `toString`, `valueOf`,
 * `hasOwnProperty`, `__proto__`) in the side panel's document grid, in a real JupyterLab (from
 * .venv) in Debian's Chromium, against the sandbox engines: the grid opens with a column of
 * each, sized and drawn; a click selects a cell; Document shows the row's document; typed cells
 * are pending and Save writes them, checked in the engine with a direct request. Nothing is
 * thrown in the page.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import {
  cellPoint,
  cellText,
  closeGrid,
  editBar,
  inGrid,
  openGrid,
  rowOf,
  saveEdits,
  toolbarAction,
  typeInto
} from './support/grid-page';

jest.setTimeout(240_000);

const TS_KEY = 'e2e-field-names-ts-secret';
const NAMES = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__'
] as const;

/** Parsed from JSON text, as an engine's answer is: `__proto__` is a field of it like the others. */
const fromJson = <T>(text: string): T => JSON.parse(text) as T;
const fieldsText = (value: (name: string) => string) =>
  NAMES.map(name => `"${name}": ${JSON.stringify(value(name))}`).join(', ');
/** r1 holds every name; r2 none of them. */
const R1 = fromJson<Record<string, string>>(
  `{"title": "alpha", ${fieldsText(name => `${name} of r1`)}}`
);
const R2 = { title: 'beta' };

let servers: ListeningServer[] = [];
let esUrl = '';
let tsUrl = '';
let lab: RunningLab;
let browser: Browser;
let page: Page;
const thrown: string[] = [];

async function engine(url: string, path: string): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    headers: { 'x-typesense-api-key': TS_KEY }
  });
  // As a client reads it: JSON text, where `__proto__` is a key.
  return JSON.parse(await response.text()) as unknown;
}
const own = (record: unknown) =>
  Object.entries(record as object).sort(([a], [b]) => (a < b ? -1 : 1));

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'relp',
    fromJson(
      `{"properties": {"title": {"type": "keyword"}, ${fieldsText(() => 'x').replace(/"x"/g, '{"type": "keyword"}')}}}`
    ),
    [
      { id: 'r1', source: R1 },
      { id: 'r2', source: R2 }
    ]
  );
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: TS_KEY });
  ts.createCollection({
    name: 'relp',
    fields: [
      { name: 'title', type: 'string' },
      ...NAMES.map(name => ({ name, type: 'string', optional: true }))
    ]
  });
  ts.loadDocuments('relp', [
    fromJson(`{"id": "r1", ${JSON.stringify(R1).slice(1)}`),
    { id: 'r2', ...R2 }
  ]);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  esUrl = servers[0]?.url ?? '';
  tsUrl = servers[1]?.url ?? '';
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-field-names-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'field-names.ipynb',
    cells: [
      `%connect elasticsearch ${esUrl} name=es`,
      `%connect typesense ${tsUrl} key=\${env:TS_KEY} name=ts`
    ],
    env: { TS_KEY },
    beforeOpen: opened => {
      opened.setDefaultTimeout(30_000);
      opened.on('pageerror', error => thrown.push(error.message));
      // What a grid that cannot lay its columns out logs (NaN widths: Invalid array length).
      opened.on('console', message => {
        if (/RangeError|TypeError|Invalid array length/.test(message.text())) {
          thrown.push(message.text());
        }
      });
    }
  }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const dialog = () => page.getByRole('dialog');

/** Each shown column's width, by name, as the grid lays it out. */
const widths = (label: string) =>
  inGrid<[string, number][], null>(
    page,
    label,
    null,
    `return w.model.columns.map((c, i) => [c.name, w.dataGrid.columnSize('body', i)]);`
  );

/** The grid's selected cells, as [row, column name]. */
const selected = (label: string) =>
  inGrid<[number, string][], null>(
    page,
    label,
    null,
    `const s = w.dataGrid.selectionModel; if (!s) return []; const out = []; for (const r of s.selections()) for (let row = r.r1; row <= r.r2; row++) for (let c = r.c1; c <= r.c2; c++) out.push([row, w.model.columns[c].name]); return out;`
  );

describe.each([
  {
    engineName: 'Elasticsearch',
    connection: 'es',
    stored: async (id: string) =>
      ((await engine(esUrl, `/relp/_doc/${id}`)) as { _source: unknown })
        ._source,
    document: (id: string, source: object) => source
  },
  {
    engineName: 'Typesense',
    connection: 'ts',
    stored: async (id: string) =>
      engine(tsUrl, `/collections/relp/documents/${id}`),
    document: (id: string, source: object) =>
      fromJson<object>(
        `{"id": ${JSON.stringify(id)}, ${JSON.stringify(source).slice(1)}`
      )
  }
])(
  '$engineName (sandbox): fields named like object members',
  ({ connection, stored, document }) => {
    let label = '';

    it('the grid opens with a sized, drawn column of each name, each value in its own column and empty where the row lacks it', async () => {
      label = await openGrid(page, connection, 'relp');
      const laidOut = await widths(label);
      for (const name of NAMES) {
        const width = laidOut.find(([column]) => column === name)?.[1];
        expect(Number.isFinite(width)).toBe(true);
        expect(width).toBeGreaterThan(0);
      }
      const r1 = await rowOf(page, label, 'r1');
      const r2 = await rowOf(page, label, 'r2');
      for (const name of NAMES) {
        await expect(cellText(page, label, r1, name)).resolves.toBe(
          `${name} of r1`
        );
        await expect(cellText(page, label, r2, name)).resolves.toBe('');
      }
      await screenshot(page, `field-names-${connection}`);
    });

    it('a click selects the cell, and Document shows the row as stored', async () => {
      for (const name of NAMES) {
        const row = await rowOf(page, label, 'r1');
        const point = await cellPoint(page, label, row, name);
        await page.mouse.click(point.x, point.y);
        await expect(selected(label)).resolves.toEqual([[row, name]]);
      }
      await toolbarAction(editBar(page, label), 'Document', 'View document');
      await dialog().waitFor();
      const shown = await dialog()
        .getByRole('document', { name: 'Document (JSON)' })
        .textContent();
      expect(own(JSON.parse(shown ?? ''))).toEqual(own(document('r1', R1)));
      await dialog().getByRole('button', { name: 'Close' }).click();
      await dialog().waitFor({ state: 'detached' });
    });

    it('typed cells of each name, on a row holding them and one without them, are saved as typed', async () => {
      for (const name of NAMES) {
        await typeInto(page, label, { id: 'r1' }, name, `${name} typed`);
        await typeInto(page, label, { id: 'r2' }, name, `${name} new`);
      }
      await expect(saveEdits(page, label)).resolves.toBe('Saved 2 changes.');
      expect(own(await stored('r1'))).toEqual(
        own(
          document(
            'r1',
            fromJson(
              `{"title": "alpha", ${fieldsText(name => `${name} typed`)}}`
            )
          )
        )
      );
      expect(own(await stored('r2'))).toEqual(
        own(
          document(
            'r2',
            fromJson(`{"title": "beta", ${fieldsText(name => `${name} new`)}}`)
          )
        )
      );
      const r2 = await rowOf(page, label, 'r2');
      for (const name of NAMES) {
        await expect(cellText(page, label, r2, name)).resolves.toBe(
          `${name} new`
        );
      }
      expect(thrown).toEqual([]);
    });

    // The other engine's grid opens on a target of the same name: one tab each keeps their titles apart.
    afterAll(async () => {
      if (label) {
        await closeGrid(page, label);
      }
    });
  }
);
