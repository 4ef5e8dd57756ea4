/**
 * Every digit, everywhere: documents holding whole numbers anywhere in [-2^63, 2^64) (and at
 * 2^53±1, the int64 and uint64 limits), written through a console cell, read back by each
 * reader and written again by each writer, over the wire: the kernel process over ZeroMQ, the
 * sandbox engines (and real Elasticsearch nodes) over HTTP. Each must give the digits written:
 * the JSON output of GET /<index>/_doc/<id> (its searchbook payload as the extension reads it,
 * its text/plain and text/html fallbacks, and the message as Python's json reads it), the hits
 * grid's rows and the rows sent to Python, the panel's grid blocks and whole document, a
 * duplicated row saved, and JSONL and CSV exports.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  aggregationRows,
  answerValue,
  hitsPayloadRows
} from '../../contracts/answer-rows';
import { exactJson, parseExactJson } from '../../contracts/exact-json';
import { isJsonObject, type JsonValue } from '../../contracts/json';
import {
  HITS_MIME,
  type HitsPayload,
  HitsPayloadSchema,
  JSON_MIME,
  JsonPayloadSchema,
  ROWS_MIME
} from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import { parseCsv, scratchDir } from '../export/export-helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { KernelClient, type IopubMessage } from '../support/kernel-client';
import { textOf } from '../support/shown-text';
import { PanelCommClient, type OpenedGrid } from '../panel/panel-comm-client';
import { KernelMessage } from '../support/kernel-messages';

const cwd = scratchDir();
let kernel: KernelClient;
let comm: PanelCommClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    // The rows sent to Python ride along, as under searchbook's IPython extension.
    KernelClient.start({ ...SECRETS, SEARCHBOOK_ROWS_AS_VALUES: '1' }, { cwd }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 5
    })
  ]);
  comm = await PanelCommClient.open(kernel);
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const EDGES = [
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 1n,
  -(2n ** 53n) - 1n,
  INT64_MIN,
  INT64_MAX,
  0n
];
const int64 = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX })
);
const uint64 = fc.oneof(
  fc.constantFrom(0n, 2n ** 53n + 1n, INT64_MAX + 1n, UINT64_MAX),
  fc.bigInt({ min: 0n, max: UINT64_MAX })
);
const anyWhole = fc.oneof(
  fc.constantFrom(UINT64_MAX, INT64_MIN, 2n ** 53n + 1n),
  fc.bigInt({ min: INT64_MIN, max: UINT64_MAX })
);

/** A document's JSON text with every number a bare literal of its digits. */
function documentText(fields: [string, bigint | bigint[]][]): string {
  const value = (v: bigint | bigint[]) =>
    Array.isArray(v) ? `[${v.join(', ')}]` : v.toString();
  return `{${fields.map(([k, v]) => `"${k}": ${value(v)}`).join(', ')}}`;
}

/** Objects with their keys sorted: engines may answer a document's fields in another order. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sorted);
  }
  if (isJsonObject(value as JsonValue)) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map(key => [key, sorted(record[key])])
    );
  }
  return value;
}

/** The value printed as JSON, every number with the digits it holds. */
const digitsOf = (value: unknown): string => exactJson(sorted(value)) ?? '';

/** What the JSON text says, printed as digitsOf prints a value read back. */
const written = (text: string): string => digitsOf(parseExactJson(text));

function shownText(iopub: IopubMessage[]): string {
  return iopub.map(m => textOf(m) ?? '').join('\n');
}

async function run(code: string): Promise<IopubMessage[]> {
  const { reply, iopub } = await kernel.execute(code);
  if (reply.content.status !== 'ok') {
    throw new Error(`${code.slice(0, 300)}\n→ ${shownText(iopub)}`);
  }
  return iopub;
}

/** The one display_data a cell showed: as JupyterLab reads it (JSON.parse), and as Python's json does (exact). */
async function shown(code: string) {
  const outputs = (await run(code)).filter(m =>
    KernelMessage.isDisplayDataMsg(m)
  );
  expect(outputs).toHaveLength(1);
  const [message] = outputs;
  return {
    data: message?.content.data ?? {},
    python: (
      parseExactJson(message?.contentText ?? '') as {
        data: Record<string, unknown>;
      }
    ).data
  };
}

/** Each whole number of a document's text, as digits. */
const numbersIn = (text: string): string[] => text.match(/-?\d+/g) ?? [];

/** The JSON output of GET <path>: the document as the extension, Python and the fallbacks show it. */
async function checkJsonOutput(
  path: string,
  source: (answer: unknown) => unknown,
  text: string
): Promise<void> {
  const { data, python } = await shown(`GET ${path}`);
  const payload = JsonPayloadSchema.parse(data[JSON_MIME]);
  // The extension: the exact text where application/json would round, else application/json.
  const seen = answerValue(payload) ?? data['application/json'];
  expect(digitsOf(source(seen))).toBe(written(text));
  // Python's json reads the message exactly: application/json, or the payload's exact text.
  const pythonSees =
    python['application/json'] ??
    answerValue(JsonPayloadSchema.parse(python[JSON_MIME]));
  expect(digitsOf(source(pythonSees))).toBe(written(text));
  for (const digits of numbersIn(text)) {
    expect(String(data['text/plain'])).toMatch(
      new RegExp(`(?<![\\d])${digits}(?![\\d])`)
    );
    expect(String(data['text/html'])).toMatch(
      new RegExp(`(?<![\\d])${digits}(?![\\d])`)
    );
  }
}

/** A search's hits grid: the rows the extension rebuilds, the rows sent to Python, the text fallback. */
async function checkHits(
  code: string,
  columns: string[],
  text: string
): Promise<{ payload: HitsPayload; python: Record<string, unknown> }> {
  const { data, python } = await shown(code);
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  const rows = hitsPayloadRows(payload);
  expect(rows).toHaveLength(1);
  const expected = parseExactJson(text) as Record<string, unknown>;
  const pick = (row: Record<string, unknown>) =>
    digitsOf(columns.map(c => row[c]));
  const want = digitsOf(columns.map(c => expected[c]));
  expect(pick(rows[0] as Record<string, unknown>)).toBe(want);
  // The magics' kernel sends rows beside the answer only where Python cannot rebuild them from
  // it; otherwise Python rebuilds them with the same rules (python/searchbook/answer_rows.py).
  const pythonRows =
    (python[ROWS_MIME] as { rows: Record<string, unknown>[] } | undefined)
      ?.rows ?? hitsPayloadRows(HitsPayloadSchema.parse(python[HITS_MIME]));
  expect(pick(pythonRows[0] as Record<string, unknown>)).toBe(want);
  // Lists are cut to the table's width in the text; whole numbers are shown whole.
  for (const column of columns) {
    if (!Array.isArray(expected[column])) {
      expect(String(data['text/plain'])).toContain(digitsOf(expected[column]));
    }
  }
  return { payload, python };
}

/** The panel's grid of the target: the row of `id` in its first block. */
async function gridRow(
  connection: string,
  target: string,
  id: string,
  idColumn: string
): Promise<{ grid: OpenedGrid; row: Record<string, unknown> }> {
  const grid = await comm.expect(
    { type: 'open', connection, target, blockSize: 1000 },
    'opened'
  );
  const row = grid.first.rows.find(r => r[idColumn] === id);
  expect(row).toBeDefined();
  return { grid, row: row as Record<string, unknown> };
}

/** A value as the grid's cells hand it to an edit: the text typed (valueText of the extension). */
const cellText = (value: unknown): string =>
  typeof value === 'string' ? value : digitsOf(value);

let ids = 0;
const PROPERTY_RUNS = 8;

describeEachTarget(
  // The sandbox, and real Elasticsearch 8.19 and 9.5 (every one maps unsigned_long).
  elasticsearchTargets(undefined, { newest: true }).filter(
    t => t.engine === 'sandbox' || /^(8\.19|9\.5)\./.test(t.version)
  ),
  'Elasticsearch long, unsigned_long (where the node has it) and unmapped numbers',
  target => {
    let engine: RunningEsTarget;
    let unsignedLong = true;
    const index = 'exact-numbers';
    const docs = new Map<string, string>();
    beforeAll(async () => {
      engine = await target.start({ security: target.canSecure });
      await run(
        `%connect elasticsearch ${engine.url} ${target.canSecure ? 'user=elastic password=${env:ES_PASSWORD}' : 'auth=none'} name=es`
      );
      await kernel.execute(`DELETE /${index}`);
      const mapping = (withUnsignedLong: boolean) =>
        `PUT /${index}\n${JSON.stringify({
          mappings: {
            dynamic: false,
            properties: {
              long: { type: 'long' },
              list: { type: 'long' },
              ...(withUnsignedLong ? { ulong: { type: 'unsigned_long' } } : {})
            }
          }
        })}`;
      // unsigned_long is a module of its own: a node built without it refuses the type.
      const { reply, iopub } = await kernel.execute(mapping(true));
      unsignedLong = reply.content.status === 'ok';
      if (!unsignedLong) {
        expect(shownText(iopub)).toContain(
          'The mapper type [unsigned_long] declared on field [ulong] does not exist'
        );
        await run(mapping(false));
      }
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      await kernel.execute(`DELETE /${index}`);
      await engine?.close();
    });

    it('every reader shows the digits written, and a duplicated row stores them', async () => {
      await fc.assert(
        fc.asyncProperty(
          int64,
          fc.array(int64, { minLength: 1, maxLength: 3 }),
          uint64,
          anyWhole,
          async (long, list, ulong, unmapped) => {
            const id = `d${++ids}`;
            const fields: [string, bigint | bigint[]][] = [
              ['long', long],
              ['list', list],
              ...(unsignedLong ? [['ulong', ulong] as [string, bigint]] : []),
              ['unmapped', unmapped]
            ];
            const text = documentText(fields);
            docs.set(id, text);
            await run(`PUT /${index}/_doc/${id}?refresh=true\n${text}`);
            const columns = fields.map(([name]) => name);

            await checkJsonOutput(
              `/${index}/_doc/${id}`,
              answer => (answer as { _source: unknown })._source,
              text
            );
            const { payload, python } = await checkHits(
              `GET /${index}/_search\n{"query": {"ids": {"values": ["${id}"]}}, "aggs": {"longs": {"terms": {"field": "long"}}}}`,
              columns,
              text
            );
            // A terms key is the long itself: the extension's table and Python's rows keep it
            // (real nodes: the sandbox's aggregations compute keys as doubles).
            if (target.engine === 'real') {
              const table = payload.aggregations[0];
              expect(
                digitsOf(aggregationRows(table ?? { rows: [] })[0]?.key)
              ).toBe(long.toString());
              const pythonTable = (
                python[HITS_MIME] as {
                  aggregations: { rows: { key: unknown }[] }[];
                }
              ).aggregations[0];
              expect(digitsOf(pythonTable?.rows[0]?.key)).toBe(long.toString());
            }

            // The panel's grid, its whole document, and a duplicate saved from its values.
            const { grid, row } = await gridRow('es', index, id, '_id');
            const expected = parseExactJson(text) as Record<string, unknown>;
            expect(digitsOf(columns.map(c => row[c]))).toBe(
              digitsOf(columns.map(c => expected[c]))
            );
            const whole = await comm.expect(
              {
                type: 'wholeDocument',
                gridId: grid.gridId,
                row: { index, id }
              },
              'wholeDocument'
            );
            expect(digitsOf(whole.document)).toBe(written(text));
            const copy = `${id}-copy`;
            const change = {
              kind: 'insert',
              key: copy,
              index,
              id: copy,
              fields: Object.fromEntries(
                columns.map(c => [
                  c,
                  cellText((whole.values as Record<string, unknown>)[c])
                ])
              )
            };
            const plan = await comm.expect(
              { type: 'plan', gridId: grid.gridId, changes: [change] },
              'plan'
            );
            const sent = plan.requests[0];
            expect(
              digitsOf(parseExactJson(sent?.bodyText ?? digitsOf(sent?.body)))
            ).toBe(written(text));
            const saved = await comm.expect(
              { type: 'save', gridId: grid.gridId, changes: [change] },
              'saved'
            );
            expect(saved.results[0]?.status).toBe('saved');
            await comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');
            await run(`POST /${index}/_refresh`);
            docs.set(copy, text);
            await checkJsonOutput(
              `/${index}/_doc/${copy}`,
              answer => (answer as { _source: unknown })._source,
              text
            );
          }
        ),
        { numRuns: PROPERTY_RUNS }
      );
    }, 600_000);

    it('JSONL and CSV exports hold the digits written', async () => {
      const name = `exact-${target.engine}-${target.version}`;
      await run(`%export ${index} ${name}.jsonl overwrite`);
      const lines = readFileSync(join(cwd, `${name}.jsonl`), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(line => parseExactJson(line) as Record<string, unknown>);
      const sources = new Map(
        lines
          .filter(l => l._source !== undefined || l._id !== undefined)
          .map(l => [String(l._id), l._source])
      );
      const documents =
        sources.size > 0
          ? sources
          : new Map(
              lines
                .filter((_, i) => i % 2 === 1)
                .map((l, i) => [
                  String(
                    (lines[i * 2] as { index?: { _id?: string } }).index?._id
                  ),
                  l
                ])
            );
      for (const [id, text] of docs) {
        expect(digitsOf(documents.get(id))).toBe(written(text));
      }
      await run(`%export ${index} ${name}.csv format=csv overwrite`);
      const [header, ...records] = parseCsv(
        readFileSync(join(cwd, `${name}.csv`), 'utf8')
      );
      const at = (column: string) => (header as string[]).indexOf(column);
      for (const [id, text] of docs) {
        const record = records.find(r => r[at('_id')] === id) ?? [];
        const expected = parseExactJson(text) as Record<string, unknown>;
        for (const column of ['long', 'ulong', 'unmapped']) {
          if (expected[column] !== undefined) {
            expect(record[at(column)]).toBe(digitsOf(expected[column]));
          }
        }
        expect(parseExactJson(record[at('list')] ?? 'null')).toEqual(
          parseExactJson(digitsOf(expected.list))
        );
      }
    }, 120_000);

    it('a document another client stored pretty-printed exports to JSONL with every digit, on one line', async () => {
      // searchbook sends bodies compact; a client that sends line breaks gets them back in
      // `_source` (the sandbox, as the real nodes, keeps a source as it was sent), which the
      // export must put on one line without rounding or rewriting its numbers (`4.0` stays `4.0`).
      const id = 'pretty-printed';
      const text =
        '{\n  "long": 123456789012345678,\n  "list": [9007199254740993, -9007199254740993],\n  "ratio": 4.0,\n  "zero": -0.0\n}';
      const response = await request(
        `${engine.url}/${index}/_doc/${id}?refresh=true`,
        {
          method: 'PUT',
          headers: {
            'content-type': 'application/json',
            ...(target.canSecure
              ? {
                  authorization: `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`
                }
              : {})
          },
          body: text
        }
      );
      await response.body.dump();
      expect(response.statusCode).toBeLessThan(300);
      const stored = await kernel.execute(`GET /${index}/_doc/${id}`);
      expect(stored.reply.content.status).toBe('ok');

      const name = `pretty-${target.engine}-${target.version}`;
      await run(`%export ${index} ${name}.jsonl overwrite`);
      const line = readFileSync(join(cwd, `${name}.jsonl`), 'utf8')
        .split('\n')
        .find(l => l.includes(`"_id":"${id}"`));
      expect(line).toBeDefined();
      expect(line).toContain(
        '"_source":{"long":123456789012345678,"list":[9007199254740993,-9007199254740993],"ratio":4.0,"zero":-0.0}'
      );
    }, 120_000);
    it("the panel's filter by a long past 2^53 asks for that long, not its nearest double", async () => {
      // 9007199254740993 and 9007199254740992 are one double: only the digits tell them apart.
      for (const [id, long] of [
        ['filter-odd', '9007199254740993'],
        ['filter-even', '9007199254740992']
      ]) {
        await run(
          `PUT /${index}/_doc/${id}?refresh=true\n{"long": ${long}, "list": [1]}`
        );
      }
      for (const [operator, expected] of [
        ['equals', ['filter-odd']],
        ['not equals', ['filter-even']],
        ['greater than', []],
        ['less than', ['filter-even']]
      ] as const) {
        const grid = await comm.expect(
          {
            type: 'open',
            connection: 'es',
            target: index,
            blockSize: 1000,
            view: {
              filters: [
                { column: 'long', operator, value: '9007199254740993' }
              ],
              join: 'all',
              sort: []
            }
          },
          'opened'
        );
        // Other documents of the index may match too: only these two are asked about.
        const found = grid.first.rows
          .map(r => r._id)
          .filter(id => id === 'filter-odd' || id === 'filter-even');
        if (target.engine === 'real') {
          expect(found).toEqual(expected);
        } else {
          // The sandbox keeps a long's doc value as a double, so it cannot tell the two apart;
          // it takes the filter as a real node does (no 400) and matches by the nearest double.
          expect(found.sort()).toEqual(
            operator === 'equals' ? ['filter-even', 'filter-odd'] : []
          );
        }
        await comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');
      }
    });

    it("a body's numbers reach the engine as written: 4.0, -0.0, 1.50, 1e3", async () => {
      await run(
        `PUT /${index}/_doc/as-written?refresh=true\n{"ratio": 4.0, "zero": -0.0, "price": 1.50, "k": 1e3, "n": 7}`
      );
      const response = await request(`${engine.url}/${index}/_doc/as-written`, {
        headers: target.canSecure
          ? {
              authorization: `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`
            }
          : {}
      });
      expect(await response.body.text()).toContain(
        '"_source":{"ratio":4.0,"zero":-0.0,"price":1.50,"k":1e3,"n":7}'
      );
    });

    it('%set keeps every digit of a long it reads, types it a number, and compares it as one', async () => {
      const id = 'set-digits';
      await run(
        `PUT /${index}/_doc/${id}?refresh=true\n{"long": 9007199254740993, "list": [9007199254740995, 1]}`
      );
      await run(
        `GET /${index}/_search\n{"query": {"ids": {"values": ["${id}"]}}}`
      );
      await run('%set n = hits.hits[0]._source.long');
      await run('%set list = hits.hits[0]._source.list');
      await run(
        '%set over = hits.hits[?_source.long > `9007199254740000`]._id'
      );
      await run('%set kind = type(hits.hits[0]._source.long)');
      await run('%set text = to_string(hits.hits[0]._source.list)');
      await run(
        `PUT /${index}/_doc/set-copy?refresh=true\n{"long": \${n}, "list": \${list}, "over": \${over}, "kind": "\${kind}", "text": "\${text}"}`
      );
      const response = await request(`${engine.url}/${index}/_doc/set-copy`, {
        headers: target.canSecure
          ? {
              authorization: `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`
            }
          : {}
      });
      const stored = await response.body.text();
      expect(stored).toContain(
        '"_source":{"long":9007199254740993,"list":[9007199254740995,1],"over":["set-digits"],"kind":"number","text":"[9007199254740995,1]"}'
      );
    });
  }
);

describe('Typesense int64', () => {
  const collection = 'exact_numbers';
  beforeAll(async () => {
    await run(
      `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
    );
    await run(
      `POST /collections\n${JSON.stringify({
        name: collection,
        fields: [
          { name: 'long', type: 'int64' },
          { name: 'list', type: 'int64[]' }
        ]
      })}`
    );
  });

  it('every reader shows the digits written, and a duplicated row stores them', async () => {
    await fc.assert(
      fc.asyncProperty(
        int64,
        fc.array(int64, { minLength: 1, maxLength: 3 }),
        async (long, list) => {
          const id = `t${++ids}`;
          const body = documentText([
            ['long', long],
            ['list', list]
          ]);
          const text = `{"id": "${id}", ${body.slice(1)}`;
          await run(`POST /collections/${collection}/documents\n${text}`);
          await checkJsonOutput(
            `/collections/${collection}/documents/${id}`,
            answer => answer,
            text
          );
          await checkHits(
            `GET /collections/${collection}/documents/search?q=*&filter_by=id:=${id}`,
            ['long', 'list'],
            text
          );
          const { grid, row } = await gridRow('ts', collection, id, 'id');
          const expected = parseExactJson(text) as Record<string, unknown>;
          expect(digitsOf([row.long, row.list])).toBe(
            digitsOf([expected.long, expected.list])
          );
          const whole = await comm.expect(
            {
              type: 'wholeDocument',
              gridId: grid.gridId,
              row: { index: collection, id }
            },
            'wholeDocument'
          );
          expect(digitsOf(whole.document)).toBe(written(text));
          const copy = `${id}-copy`;
          const saved = await comm.expect(
            {
              type: 'save',
              gridId: grid.gridId,
              changes: [
                {
                  kind: 'insert',
                  key: copy,
                  index: collection,
                  id: copy,
                  fields: {
                    long: cellText(whole.values.long),
                    list: cellText(whole.values.list)
                  }
                }
              ]
            },
            'saved'
          );
          expect(saved.results[0]?.status).toBe('saved');
          await comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');
          await checkJsonOutput(
            `/collections/${collection}/documents/${copy}`,
            answer => answer,
            `{"id": "${copy}", ${body.slice(1)}`
          );
        }
      ),
      { numRuns: PROPERTY_RUNS }
    );
  }, 600_000);
});
