/**
 * The notebook saved by an earlier searchbook (test/fixtures/saved-hits-outputs.ipynb), run
 * again against the sandbox engines: every hits output now keeps the engine's answer, even
 * where its columns nest (`address` beside `address.city`) and that version kept the rows
 * instead, and the rows rebuilt from it are the ones that version showed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hitsPayloadRows } from '../../contracts/answer-rows';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import { KernelClient } from '../support/kernel-client';
import { displays } from '../support/shown-text';

const FIXTURES = join(__dirname, '..', 'fixtures');
const notebook = JSON.parse(
  readFileSync(join(FIXTURES, 'saved-hits-outputs.ipynb'), 'utf8')
) as {
  cells: {
    cell_type: string;
    source: string | string[];
    outputs?: { data?: Record<string, unknown> }[];
  }[];
};
const grids = JSON.parse(
  readFileSync(join(FIXTURES, 'saved-hits-outputs.grids.json'), 'utf8')
) as { columns: string[]; rows: Record<string, unknown>[] }[];

let kernel: KernelClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    // The row cap the notebook was saved with: its Typesense export left all but 4 documents out.
    KernelClient.start({ ...SECRETS, SEARCHBOOK_MAX_ROWS: '4' }),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 20
    })
  ]);
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('every hits output keeps the answer, and its rows are the ones the notebook was saved with', async () => {
  const outputs: unknown[] = [];
  for (const cell of notebook.cells.filter(c => c.cell_type === 'code')) {
    const source = (
      Array.isArray(cell.source) ? cell.source.join('') : cell.source
    )
      .replace('http://127.0.0.1:9200', sandbox.esUrl)
      .replace('http://127.0.0.1:8108', sandbox.tsUrl);
    const { reply, iopub } = await kernel.execute(source);
    expect(reply.content.status).toBe('ok');
    outputs.push(
      ...displays(iopub)
        .map(d => d[HITS_MIME])
        .filter(p => p !== undefined)
    );
  }
  const payloads = outputs.map(p => HitsPayloadSchema.parse(p));
  expect(
    payloads.map(p => (p.answer === undefined ? 'rows' : 'answer'))
  ).toEqual(grids.map(() => 'answer'));
  const expected = grids.map(unscored).map((grid, i) =>
    outputs[i] !== undefined &&
    HitsPayloadSchema.parse(outputs[i]).info.title?.startsWith('Search ')
      ? {
          columns: ['_id', '_index'],
          rows: grid.rows.map(row => ({
            _id: row['_id'],
            _index: row['_index']
          }))
        }
      : grid
  );
  expect(
    payloads.map(p => {
      // That version built an _msearch's grids from its documents; now each is the grid of the
      // same search run alone, from its index's mapping (other columns: nested leaves as lists,
      // objects as JSON; console-answers tests them). Here: the same documents, in order.
      const several = p.info.title?.startsWith('Search ') === true;
      const columns = several ? ['_id', '_index'] : p.columns.map(c => c.name);
      return {
        columns,
        rows: hitsPayloadRows(p).map(row =>
          Object.fromEntries(
            columns
              .filter(name => Object.hasOwn(row, name))
              .map(name => [name, row[name]])
          )
        )
      };
    })
  ).toEqual(expected);
}, 60_000);

/** That version showed `_score` even when no hit had one (a sorted search); now it is left out then. */
function unscored(grid: (typeof grids)[number]): (typeof grids)[number] {
  if (!grid.rows.every(row => row['_score'] === null)) {
    return grid;
  }
  return {
    columns: grid.columns.filter(name => name !== '_score'),
    rows: grid.rows.map(row =>
      Object.fromEntries(Object.entries(row).filter(([k]) => k !== '_score'))
    )
  };
}
