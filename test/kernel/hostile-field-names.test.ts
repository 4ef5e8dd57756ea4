/**
 * Documents whose fields are named like JavaScript object properties, over the wire: the kernel
 * process over ZeroMQ, the sandbox engines and real Elasticsearch nodes over HTTP. A racing
 * document's `constructor` (and `__proto__`, `toString`, `valueOf`) is indexed, searched and
 * shown as a hits grid with those columns, empty in the rows that lack them, and exported as
 * CSV with empty cells there; an empty field name is refused by Elasticsearch, and the cell
 * shows its refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { hitsPayloadRows } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import { parseCsv, scratchDir } from '../export/export-helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { KernelClient, type IopubMessage } from '../support/kernel-client';
import { displays, textOf } from '../support/shown-text';

let kernel: KernelClient;
let sandbox: RunningSandbox;
const cwd = scratchDir();

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start({ ...SECRETS }, { cwd }),
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
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

/** Everything a cell showed as text: outputs' text/plain, streams and the error. */
function shownText(iopub: IopubMessage[]): string {
  return iopub.map(m => textOf(m) ?? '').join('\n');
}

async function run(code: string): Promise<IopubMessage[]> {
  const { reply, iopub } = await kernel.execute(code);
  expect({
    code,
    status: reply.content.status,
    shown: shownText(iopub)
  }).toMatchObject({ status: 'ok' });
  return iopub;
}

/** The one hits grid a search cell shows: its payload and the rows a notebook grid rebuilds. */
async function hitsOf(code: string) {
  const shown = displays(await run(code));
  expect(shown).toHaveLength(1);
  const data = shown[0] ?? {};
  const payload = HitsPayloadSchema.parse(data[HITS_MIME]);
  return {
    payload,
    rows: hitsPayloadRows(payload),
    plain: String(data['text/plain']),
    html: String(data['text/html'])
  };
}

const own = (row: Record<string, unknown>, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(row, key) ? row[key] : undefined;

const RACING = [
  { id: '1', source: '{"name": "F40", "constructor": "Ferrari"}' },
  { id: '2', source: '{"name": "Model T"}' },
  {
    id: '3',
    source:
      '{"name": "W196", "constructor": "Mercedes", "__proto__": "p", "toString": "t", "valueOf": 3}'
  }
];

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }),
  'fields named constructor, __proto__, toString, valueOf',
  target => {
    let engine: RunningEsTarget;
    const index = 'racing-hostile-fields';
    beforeAll(async () => {
      engine = await target.start({ security: target.canSecure });
      await run(
        `%connect elasticsearch ${engine.url} ${target.canSecure ? 'user=elastic password=${env:ES_PASSWORD}' : 'auth=none'} name=es`
      );
      await kernel.execute(`DELETE /${index}`);
      for (const doc of RACING) {
        await run(`PUT /${index}/_doc/${doc.id}?refresh=true\n${doc.source}`);
      }
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      // A real node is shared by the run: remove what this suite created.
      await kernel.execute(`DELETE /${index}`);
      await engine?.close();
    });

    it('a search shows them as columns of the hits grid, empty in rows that lack them', async () => {
      const { payload, rows, plain, html } = await hitsOf(
        `GET /${index}/_search\n{"sort": [{"name.keyword": "asc"}]}`
      );
      const columns = payload.columns.map(c => c.name);
      expect(columns).toEqual(
        expect.arrayContaining([
          'constructor',
          '__proto__',
          'toString',
          'valueOf',
          'name'
        ])
      );
      // Read from the index mapping like any other field (the header says nothing of "not mapped").
      const origins = new Map(payload.columns.map(c => [c.name, c.origin]));
      expect(
        ['constructor', '__proto__', 'toString', 'valueOf'].map(name =>
          origins.get(name)
        )
      ).toEqual(['mapping', 'mapping', 'mapping', 'mapping']);
      expect(rows.map(row => own(row, '_id'))).toEqual(['1', '2', '3']);
      expect(rows.map(row => own(row, 'constructor'))).toEqual([
        'Ferrari',
        undefined,
        'Mercedes'
      ]);
      expect(
        rows.map(row => [
          own(row, '__proto__'),
          own(row, 'toString'),
          own(row, 'valueOf')
        ])
      ).toEqual([
        [undefined, undefined, undefined],
        [undefined, undefined, undefined],
        ['p', 't', 3]
      ]);
      for (const text of [plain, html]) {
        expect(text).not.toMatch(/native code|function \w*\(/);
      }
      // Sorted, so no score: row 2's empty cells, then its name.
      expect(plain).toMatch(/\n2\s+racing-hostile-fields\s+Model T/);
      expect(html).toContain('<td>Ferrari</td>');
    });

    it('a CSV export leaves the cells of documents without them empty', async () => {
      await run(
        `%export ${index} racing-${target.engine}-${target.version}.csv format=csv overwrite`
      );
      const [header, ...records] = parseCsv(
        readFileSync(
          join(cwd, `racing-${target.engine}-${target.version}.csv`),
          'utf8'
        )
      );
      const at = (name: string) => (header as string[]).indexOf(name);
      const byId = new Map(records.map(r => [r[at('_id')], r]));
      expect(
        [at('constructor'), at('__proto__'), at('toString')].every(i => i >= 0)
      ).toBe(true);
      expect(
        ['1', '2', '3'].map(id => byId.get(id)?.[at('constructor')])
      ).toEqual(['Ferrari', '', 'Mercedes']);
      expect(['1', '2', '3'].map(id => byId.get(id)?.[at('toString')])).toEqual(
        ['', '', 't']
      );
    });

    it('an empty field name is refused by the engine, and the cell says why', async () => {
      const { iopub } = await kernel.execute(
        `PUT /${index}/_doc/4?refresh=true\n{"": "nameless"}`
      );
      expect(shownText(iopub)).toContain(
        'field name cannot be an empty string'
      );
    });
  }
);

describe('Typesense', () => {
  beforeAll(async () => {
    await run(
      `%connect typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY} name=ts`
    );
    await run(
      'POST /collections\n{"name": "racing", "fields": [{"name": ".*", "type": "auto"}]}'
    );
    await run(
      `POST /collections/racing/documents/import?action=create\n${RACING.map(d => JSON.stringify({ id: d.id, ...(JSON.parse(d.source) as object) })).join('\n')}`
    );
  });

  it('a search shows them as columns of the hits grid, empty in rows that lack them', async () => {
    const { rows, plain } = await hitsOf(
      'GET /collections/racing/documents/search?q=*'
    );
    const byId = new Map(rows.map(row => [own(row, 'id'), row]));
    expect(
      ['1', '2', '3'].map(id => own(byId.get(id) ?? {}, 'constructor'))
    ).toEqual(['Ferrari', undefined, 'Mercedes']);
    expect(plain).not.toMatch(/native code|function \w*\(/);
  });

  it('a CSV export leaves the cells of documents without `constructor` empty, never `function Object() { [native code] }`', async () => {
    await run('%export racing racing-typesense.csv format=csv overwrite');
    const text = readFileSync(join(cwd, 'racing-typesense.csv'), 'utf8');
    expect(text).not.toContain('native code');
    const [header, ...records] = parseCsv(text);
    const at = (name: string) => (header as string[]).indexOf(name);
    const byId = new Map(records.map(r => [r[at('id')], r]));
    expect(
      ['1', '2', '3'].map(id => byId.get(id)?.[at('constructor')])
    ).toEqual(['Ferrari', '', 'Mercedes']);
  });
});
