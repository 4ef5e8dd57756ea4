/**
 * Fields named like JavaScript object properties (`constructor`, `__proto__`, `toString`, ...),
 * empty, very long or dotted, held by some hits and absent from others: every presenter, both
 * fallbacks, the grid rows (the notebook's, rebuilt from the answer kept, and the panel's, as
 * its comm sends them) and every export format show each value in its own column, and an empty
 * cell where a document lacks the field.
 */
import fc from 'fast-check';
import type { ConsoleRequest, JsonValue } from '../../kernel/src/console/cell';
import type {
  ConsoleResult,
  EngineResponse,
  PresentedResult
} from '../../kernel/src/driver-core/driver';
import type { Column } from '../../contracts/columns';
import { presentElasticsearch } from '../../kernel/src/engines/elasticsearch/present';
import type {
  ExportPage,
  ExportStream
} from '../../kernel/src/driver-core/capabilities/export';
import type { GridDocument } from '../../kernel/src/driver-core/grid-columns';
import { presentTypesense } from '../../kernel/src/engines/typesense/present';
import { type ExportFormat, pageWriter } from '../../kernel/src/export/formats';
import {
  answerValue,
  hitsPayloadRows,
  type Row
} from '../../contracts/answer-rows';
import { toBundle } from '../../kernel/src/render/bundle';
import { cutLongCells } from '../../kernel/src/render/cell-cut';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import {
  CLIP_HTML,
  clip,
  escapeHtmlText,
  plainTable
} from '../../kernel/src/render/text-table';
import { cellText } from '../../kernel/src/json/cell-text';
import { serialise } from '../../kernel/src/protocol/encoded-string';
import { parseCsv } from '../export/export-helpers';
import {
  type HostileDocument,
  hostileDocuments
} from '../support/hostile-documents';

type Hits = Extract<ConsoleResult, { kind: 'hits' }>;

/** A document's JSON text with `more` (JSON members) first. */
const withMembers = (json: string, more: string): string =>
  json === '{}' ? `{${more}}` : `{${more},${json.slice(1)}`;

interface Case {
  engine: 'elasticsearch' | 'typesense';
  /** The engine's answer as it sent it. */
  text: string;
  /** Each document's cells, the leading columns included. */
  expected: Map<string, JsonValue>[];
  present(value: JsonValue): PresentedResult;
  /** Export lines as the engine writes them, and their grid form, as its driver reads them. */
  exportLines: string[];
  exportDocuments(): GridDocument[];
  leading: Column[];
}

const request = (path: string, query = ''): ConsoleRequest => ({
  kind: 'request',
  method: 'GET',
  path,
  query,
  line: 1
});
const json = (value: JsonValue): EngineResponse => ({
  status: 200,
  headers: {},
  body: { kind: 'json', value },
  elapsedMs: 1
});
const meta = (name: string): Column => ({
  name,
  type: 'keyword',
  readOnly: true,
  json: false,
  origin: 'meta'
});

function elasticsearchCase(docs: HostileDocument[]): Case {
  const hits = docs.map(
    (d, i) => `{"_index":"cars","_id":"d${i}","_score":1,"_source":${d.json}}`
  );
  const lines = docs.map(
    (d, i) => `{"_index":"cars","_id":"d${i}","_source":${d.json}}`
  );
  return {
    engine: 'elasticsearch',
    text: `{"took":1,"hits":{"total":{"value":${docs.length},"relation":"eq"},"hits":[${hits.join(',')}]}}`,
    expected: docs.map(
      (d, i) =>
        new Map<string, JsonValue>([
          ['_id', `d${i}`],
          ['_index', 'cars'],
          ['_score', 1],
          ...d.cells
        ])
    ),
    present: value =>
      presentElasticsearch(request('/cars/_search'), json(value)),
    exportLines: lines,
    exportDocuments: () =>
      lines.map(line => {
        const hit = JSON.parse(line) as {
          _index: string;
          _id: string;
          _source: JsonValue;
        };
        return {
          meta: { _id: hit._id, _index: hit._index },
          source: hit._source
        };
      }),
    leading: [meta('_id'), meta('_index')]
  };
}

function typesenseCase(
  docs: HostileDocument[],
  shape: 'search' | 'export'
): Case {
  const documents = docs.map((d, i) => withMembers(d.json, `"id":"d${i}"`));
  // A JSONL answer is kept as the array of its lines.
  const text =
    shape === 'search'
      ? `{"found":${docs.length},"hits":[${documents.map(d => `{"document":${d}}`).join(',')}]}`
      : `[${documents.join(',')}]`;
  return {
    engine: 'typesense',
    text,
    expected: docs.map(
      (d, i) => new Map<string, JsonValue>([['id', `d${i}`], ...d.cells])
    ),
    present:
      shape === 'search'
        ? value =>
            presentTypesense(
              request('/collections/cars/documents/search', 'q=*'),
              json(value)
            )
        : () =>
            presentTypesense(request('/collections/cars/documents/export'), {
              status: 200,
              headers: {},
              body: {
                kind: 'jsonl',
                values: documents.map(d => JSON.parse(d) as JsonValue)
              },
              elapsedMs: 1
            }),
    exportLines: documents,
    exportDocuments: () =>
      documents.map(line => {
        const source = JSON.parse(line) as Record<string, JsonValue>;
        return { meta: { id: source.id as JsonValue }, source };
      }),
    leading: [{ ...meta('id'), type: 'string' }]
  };
}

const own = (
  row: Readonly<Record<string, unknown>>,
  column: string
): unknown =>
  Object.prototype.hasOwnProperty.call(row, column) ? row[column] : undefined;

/** Every row holds each document's values under their own columns, and nothing where the document lacks a field. */
function expectRows(
  rows: readonly Readonly<Record<string, unknown>>[],
  columns: readonly string[],
  expected: Map<string, JsonValue>[]
): void {
  expect(rows).toHaveLength(expected.length);
  rows.forEach((row, i) => {
    const cells = expected[i] as Map<string, JsonValue>;
    for (const column of columns) {
      expect([column, own(row, column)]).toEqual([column, cells.get(column)]);
    }
  });
}

/** Rows as records (no prototype), for the text-table functions that lay out the expected fallbacks. */
const expectedRows = (expected: Map<string, JsonValue>[]): Row[] =>
  expected.map(cells =>
    Object.assign(Object.create(null) as Row, Object.fromEntries(cells))
  );

/** The text a CSV cell holds: empty for null and absent fields, JSON for arrays and objects. */
const csvText = (value: JsonValue | undefined): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

function checkBundle(c: Case, hits: Hits, columns: string[]): void {
  const value = JSON.parse(c.text) as JsonValue;
  const info = {
    connection: 'cars',
    engine: c.engine,
    method: 'GET',
    path: '/cars/_search',
    status: 200,
    elapsedMs: 1
  };
  // As a frontend receives it: serialised as the kernel's messages are, and parsed again.
  const bundle = JSON.parse(
    serialise(
      toBundle(hits, info, { bytes: Buffer.from(c.text, 'utf8'), value })
    ).toString('utf8')
  ) as Record<string, unknown>;
  const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
  expect(payload.columns.map(col => col.name)).toEqual(columns);
  if (payload.answer !== undefined) {
    expect(JSON.stringify(answerValue(payload))).toBe(
      JSON.stringify(JSON.parse(c.text))
    );
  }
  // The notebook's grid: rows rebuilt from the answer kept.
  expectRows(hitsPayloadRows(payload), columns, c.expected);

  const html = String(bundle['text/html']);
  const plain = String(bundle['text/plain']);
  for (const text of [html, plain]) {
    expect(text).not.toMatch(/native code|function \w*\(/);
  }
  const head = html.slice(html.indexOf('<thead>'), html.indexOf('</thead>'));
  expect([...head.matchAll(/<th>(.*?)<\/th>/g)].map(m => m[1])).toEqual(
    columns.map(escapeHtmlText)
  );
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  const shown = [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map(m =>
    [...(m[1] as string).matchAll(/<td>(.*?)<\/td>/g)].map(cell => cell[1])
  );
  expect(shown.length).toBeGreaterThan(0);
  shown.forEach((cells, i) =>
    expect(cells).toEqual(
      columns.map(column =>
        escapeHtmlText(clip(cellText(c.expected[i]?.get(column)), CLIP_HTML))
      )
    )
  );
  const rows = expectedRows(c.expected);
  const fits = (n: number) =>
    plain.includes(plainTable(columns, rows.slice(0, n)));
  expect(rows.some((_, i) => fits(rows.length - i))).toBe(true);
}

/** The panel's rows as its comm sends them: long cells cut, then JSON on the wire. */
function checkPanelRows(
  hits: Hits,
  columns: string[],
  expected: Map<string, JsonValue>[]
): void {
  const sent = JSON.parse(
    JSON.stringify(cutLongCells(hits.rows).rows)
  ) as Record<string, unknown>[];
  expectRows(sent, columns, expected);
}

async function written(c: Case, format: ExportFormat): Promise<string> {
  const page: ExportPage = {
    count: c.exportLines.length,
    jsonl: () => `${c.exportLines.join('\n')}\n`,
    eachDocument: visit => c.exportDocuments().forEach(d => visit(d))
  };
  const stream: ExportStream = {
    total: c.exportLines.length,
    leading: c.leading,
    tree: undefined,
    pages: async function* () {
      yield page;
    },
    close: async () => undefined
  };
  const writer = pageWriter(format, stream, undefined);
  let text = '';
  for await (const p of stream.pages()) {
    text += writer.page(p).toString();
  }
  return text + writer.end();
}

async function checkExports(c: Case): Promise<void> {
  const lines = (await written(c, 'jsonl')).split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map(line => JSON.stringify(JSON.parse(line)))).toEqual(
    c.exportLines
  );
  const array = JSON.parse(await written(c, 'json')) as JsonValue[];
  expect(array.map(d => JSON.stringify(d))).toEqual(c.exportLines);
  const [header, ...records] = parseCsv(await written(c, 'csv'));
  const columns = header as string[];
  expect(records).toHaveLength(c.expected.length);
  records.forEach((record, i) =>
    expect(record).toEqual(
      columns.map(column => csvText(c.expected[i]?.get(column)))
    )
  );
  // Every field some document holds has its column.
  const held = new Set(
    c.expected
      .flatMap(cells => [...cells.keys()])
      .filter(name => name !== '_score')
  );
  expect(new Set(columns)).toEqual(held);
}

async function check(c: Case): Promise<void> {
  const result = c.present(JSON.parse(c.text) as JsonValue);
  expect(result.kind).toBe('hits');
  const hits = result as Hits;
  const columns = hits.columns.map(col => col.name);
  expect(new Set(columns)).toEqual(
    new Set(c.expected.flatMap(cells => [...cells.keys()]))
  );
  expectRows(hits.rows, columns, c.expected);
  checkPanelRows(hits, columns, c.expected);
  checkBundle(c, hits, columns);
  await checkExports(c);
}

describe('documents whose fields are named like object properties', () => {
  it('Elasticsearch search answers: presenter, fallbacks, notebook and panel rows, JSONL, JSON and CSV exports', async () => {
    await fc.assert(
      fc.asyncProperty(hostileDocuments(), docs =>
        check(elasticsearchCase(docs))
      ),
      { numRuns: 100 }
    );
  });

  it('Typesense search answers and JSONL exports: presenter, fallbacks, notebook and panel rows, JSONL, JSON and CSV exports', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileDocuments(),
        fc.constantFrom('search' as const, 'export' as const),
        (docs, shape) => check(typesenseCase(docs, shape))
      ),
      { numRuns: 100 }
    );
  });

  it('a row lacking `constructor` shows an empty cell beside one holding it, never Object.prototype.constructor', () => {
    const c = elasticsearchCase([
      {
        json: '{"constructor":"Ferrari","name":"F40"}',
        cells: new Map([
          ['constructor', 'Ferrari'],
          ['name', 'F40']
        ])
      },
      { json: '{"name":"Model T"}', cells: new Map([['name', 'Model T']]) }
    ]);
    const hits = c.present(JSON.parse(c.text) as JsonValue) as Hits;
    const bundle = toBundle(
      hits,
      {
        connection: 'cars',
        engine: 'elasticsearch',
        method: 'GET',
        path: '/cars/_search',
        status: 200,
        elapsedMs: 1
      },
      { bytes: Buffer.from(c.text), value: JSON.parse(c.text) as JsonValue }
    );
    expect(String(bundle['text/plain'])).toMatch(
      /_id\s+_index\s+_score\s+constructor\s+name\n-+.*\nd0\s+cars\s+1\s+Ferrari\s+F40\nd1\s+cars\s+1\s+Model T\n?/
    );
  });
});
