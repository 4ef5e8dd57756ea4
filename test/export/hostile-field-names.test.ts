/**
 * Exports of documents whose fields are named like JavaScript object properties (`constructor`,
 * `__proto__`, `toString`, ...), very long or dotted, held by some documents and absent from
 * others: indexed in the sandbox engines over HTTP, exported by the drivers as JSONL and CSV.
 * JSONL holds each document as stored; CSV has a column per field, each value in its own
 * column and an empty cell where a document lacks the field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../kernel/src/connections/open-connection';
import type { JsonValue } from '../../kernel/src/console/cell';
import { connect, SECRETS } from '../drivers/helpers';
import {
  HOSTILE_KEYS,
  type HostileDocument,
  hostileDocuments
} from '../support/hostile-documents';
import { parseCsv, run, scratchDir } from './export-helpers';

let sandbox: RunningSandbox;
let es: Connection;
let ts: Connection;
const dir = scratchDir();
let made = 0;

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 5
  });
  es = await connect(
    `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
  );
  ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`);
});
afterAll(async () => {
  await es?.driver.close();
  await ts?.driver.close();
  await sandbox?.close();
});

const ES_AUTH = `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`;

async function send(
  url: string,
  method: 'POST' | 'DELETE',
  headers: Record<string, string>,
  body?: string
): Promise<JsonValue> {
  const answer = await request(url, {
    method,
    headers,
    ...(body !== undefined ? { body } : {})
  });
  const text = await answer.body.text();
  expect({ url, status: answer.statusCode, text }).toMatchObject({
    status: expect.any(Number)
  });
  expect(answer.statusCode).toBeLessThan(300);
  return JSON.parse(text.split('\n')[0] as string) as JsonValue;
}

/** The text a CSV cell holds: empty for null and absent fields, JSON for arrays and objects. */
const csvText = (value: JsonValue | undefined): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** A document's members in a fixed order, to compare documents whatever order the engine keeps. */
const members = (json: string): string =>
  JSON.stringify(
    Object.entries(JSON.parse(json) as Record<string, JsonValue>).sort(
      ([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)
    )
  );

function expectCsv(
  file: string,
  idColumn: string,
  expected: Map<string, Map<string, JsonValue>>
): void {
  const text = readFileSync(file, 'utf8');
  expect(text).not.toContain('native code');
  const [header, ...records] = parseCsv(text);
  const columns = header as string[];
  const held = new Set(
    [...expected.values()].flatMap(cells => [...cells.keys()])
  );
  expect(new Set(columns)).toEqual(held);
  expect(records).toHaveLength(expected.size);
  for (const record of records) {
    const cells = expected.get(record[columns.indexOf(idColumn)] as string);
    expect(record).toEqual(columns.map(column => csvText(cells?.get(column))));
  }
}

/** Elasticsearch refuses an empty field name; Typesense schemas name fields, so none there either. */
const KEYS = HOSTILE_KEYS.filter(key => key !== '');

it('Elasticsearch: JSONL holds each document as indexed, CSV each value in its column and empty cells where a document lacks a field', async () => {
  await fc.assert(
    fc.asyncProperty(
      hostileDocuments({ keys: KEYS, strings: true }),
      async (docs: HostileDocument[]) => {
        const index = `hostile-fields-${made++}`;
        const bulk = docs
          .map((d, i) => `{"index":{"_id":"d${i}"}}\n${d.json}\n`)
          .join('');
        const indexed = await send(
          `${sandbox.esUrl}/${index}/_bulk?refresh=true`,
          'POST',
          { authorization: ES_AUTH, 'content-type': 'application/x-ndjson' },
          bulk
        );
        expect(indexed).toMatchObject({ errors: false });
        try {
          await run(es.driver, {
            target: index,
            file: join(dir, `${index}.jsonl`)
          });
          const lines = readFileSync(join(dir, `${index}.jsonl`), 'utf8')
            .split('\n')
            .filter(Boolean);
          const sources = new Map(
            lines
              .map(
                line => JSON.parse(line) as { _id: string; _source: JsonValue }
              )
              .map(hit => [hit._id, JSON.stringify(hit._source)])
          );
          expect(docs.map((_, i) => sources.get(`d${i}`))).toEqual(
            docs.map(d => d.json)
          );
          await run(es.driver, {
            target: index,
            file: join(dir, `${index}.csv`),
            format: 'csv'
          });
          expectCsv(
            join(dir, `${index}.csv`),
            '_id',
            new Map(
              docs.map((d, i) => [
                `d${i}`,
                new Map<string, JsonValue>([
                  ['_id', `d${i}`],
                  ['_index', index],
                  ...d.cells
                ])
              ])
            )
          );
        } finally {
          await send(`${sandbox.esUrl}/${index}`, 'DELETE', {
            authorization: ES_AUTH
          });
        }
      }
    ),
    { numRuns: 20 }
  );
});

it('Typesense: JSONL holds each document as imported, CSV each value in its column and empty cells where a document lacks a field', async () => {
  const key = { 'x-typesense-api-key': SECRETS.TS_API_KEY };
  await fc.assert(
    fc.asyncProperty(
      hostileDocuments({ keys: KEYS, strings: true, nested: false }),
      async (docs: HostileDocument[]) => {
        const collection = `hostile_fields_${made++}`;
        await send(
          `${sandbox.tsUrl}/collections`,
          'POST',
          key,
          JSON.stringify({
            name: collection,
            fields: [{ name: '.*', type: 'auto' }]
          })
        );
        const lines = docs.map((d, i) =>
          d.json === '{}'
            ? `{"id":"d${i}"}`
            : `{"id":"d${i}",${d.json.slice(1)}`
        );
        const imported = await send(
          `${sandbox.tsUrl}/collections/${collection}/documents/import?action=create`,
          'POST',
          key,
          lines.join('\n')
        );
        expect(imported).toEqual({ success: true });
        try {
          await run(ts.driver, {
            target: collection,
            file: join(dir, `${collection}.jsonl`)
          });
          const exported = readFileSync(
            join(dir, `${collection}.jsonl`),
            'utf8'
          )
            .split('\n')
            .filter(Boolean);
          expect(exported.map(members).sort()).toEqual(
            lines.map(members).sort()
          );
          await run(ts.driver, {
            target: collection,
            file: join(dir, `${collection}.csv`),
            format: 'csv'
          });
          expectCsv(
            join(dir, `${collection}.csv`),
            'id',
            new Map(
              docs.map((d, i) => [
                `d${i}`,
                new Map<string, JsonValue>([['id', `d${i}`], ...d.cells])
              ])
            )
          );
        } finally {
          await send(
            `${sandbox.tsUrl}/collections/${collection}`,
            'DELETE',
            key
          );
        }
      }
    ),
    { numRuns: 20 }
  );
});
