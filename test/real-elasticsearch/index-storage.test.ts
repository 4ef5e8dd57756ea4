/**
 * Indices that store documents otherwise, on real nodes, through the panel's grid: a
 * time-series index (which refuses `_update` on 8.19 and 9.5), one without sequence numbers
 * (`index.disable_sequence_numbers`, 9.5: hits answer `_seq_no: -2`, `if_seq_no` is refused),
 * and indices whose `_source` the engine rebuilds (logsdb, the synthetic source setting, and
 * on 8.19 a mapping's `_source.mode`). The grid says so above its rows, and edits are saved
 * and read back.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS } from '../drivers/helpers';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  suitesNode
} from '../support/elasticsearch-targets';
import type { KernelClient } from '../support/kernel-client';
import { REAL_FLAVOURS } from '../support/real-elasticsearch/flavours';
import { java21Missing } from '../support/real-elasticsearch/jvm';
import {
  authHeaders,
  fetchFromNode,
  type RealNodeAddress
} from '../support/real-elasticsearch/launch';
import { runCell } from './console-smoke';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../panel/panel-comm-client';
import { scratchDir } from '../support/scratch-dir';

const NO_SEQ_NO =
  'This is a time-series index: Elasticsearch keeps no sequence numbers here, so a save cannot detect changes made by others since the rows were read.';
const rebuilt = (because: string) =>
  `This index's _source is rebuilt by Elasticsearch (synthetic _source, ${because}), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. A save replaces the document with what is shown.`;

const METRICS = {
  properties: {
    '@timestamp': { type: 'date' },
    host: { type: 'keyword', time_series_dimension: true },
    cpu: { type: 'double', time_series_metric: 'gauge' },
    note: { type: 'keyword' }
  }
};
const timeSeries = (extra: Record<string, unknown> = {}) => ({
  settings: {
    'index.mode': 'time_series',
    'index.routing_path': ['host'],
    number_of_replicas: 0,
    ...extra
  },
  mappings: METRICS
});
/** Within the time series' accepted window (two hours either side of now by default). */
const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
const POINTS = ['a', 'b', 'c'].map((host, i) => ({
  '@timestamp': now,
  host,
  cpu: i / 2,
  note: `n${i}`
}));
const LOG = {
  message: 'started',
  '@timestamp': now,
  tags: ['b', 'a', 'b'],
  note: 'first'
};

type Flavour = 'es-9.5' | 'es-8.19';

function suite(flavour: Flavour, body: (ctx: Context) => void): void {
  const spec = REAL_FLAVOURS[flavour];
  const skipped =
    elasticsearchTargets().find(t => t.engine === 'real')?.skipped ??
    (flavour === 'es-9.5' ? java21Missing(flavour) : undefined);
  const describeNode = skipped ? describe.skip : describe;
  describeNode(
    skipped
      ? `index storage on Elasticsearch ${spec.version} (skipped: ${skipped})`
      : `index storage on Elasticsearch ${spec.version}`,
    () => {
      const ctx = {} as Context;
      ctx.created = [];
      ctx.cwd = scratchDir('searchbook-storage-');
      beforeAll(async () => {
        ctx.node = await suitesNode(flavour);
        ctx.headers = {
          ...authHeaders(ctx.node),
          'content-type': 'application/json'
        };
        ({ kernel: ctx.kernel, comm: ctx.comm } = await kernelWithPanelComm(
          [`%connect elasticsearch ${ctx.node.url} auth=none name=es`],
          { ...SECRETS },
          { cwd: ctx.cwd }
        ));
      }, REAL_START_TIMEOUT_MS);
      afterAll(async () => {
        await ctx.kernel?.close();
        for (const name of ctx.created) {
          await fetchFromNode(ctx.node, `/${name}`, {
            method: 'DELETE',
            headers: ctx.headers
          });
        }
      });
      body(ctx);
    }
  );
}

interface Context {
  node: RealNodeAddress;
  headers: Record<string, string>;
  kernel: KernelClient;
  comm: PanelCommClient;
  created: string[];
  /** The kernel's working folder, where exports are written. */
  cwd: string;
}

/** `%export` of an index to JSONL: the cell's text and the file's sources. */
async function exported(ctx: Context, index: string) {
  const file = `${index}.jsonl`;
  const run = await runCell(ctx.kernel, `%export ${index} ${file}`);
  expect(run.status).toBe('ok');
  const sources = readFileSync(join(ctx.cwd, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(line => (JSON.parse(line) as { _source: unknown })._source);
  return { text: run.text, sources };
}
const exportNote = (because: string) =>
  `This index's _source is rebuilt by Elasticsearch (synthetic _source, ${because}), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. The file holds the documents as rebuilt, and so will a re-import of it.`;

async function call(
  ctx: Context,
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetchFromNode(ctx.node, path, {
    method,
    headers: ctx.headers,
    ...(body === undefined
      ? {}
      : { body: typeof body === 'string' ? body : JSON.stringify(body) })
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>
  };
}

/** A fresh index with these settings and documents (ids chosen by the engine where it must). */
async function created(
  ctx: Context,
  prefix: string,
  definition: unknown,
  documents: unknown[]
): Promise<string> {
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  const made = await call(ctx, 'PUT', `/${name}`, definition);
  expect(made).toMatchObject({ status: 200 });
  ctx.created.push(name);
  const bulk = documents
    .map(d => `{"create":{}}\n${JSON.stringify(d)}\n`)
    .join('');
  const loaded = await call(ctx, 'POST', `/${name}/_bulk?refresh=true`, bulk);
  expect(loaded.body['errors']).toBe(false);
  return name;
}

async function source(
  ctx: Context,
  index: string,
  id: string
): Promise<Record<string, unknown>> {
  const got = await call(
    ctx,
    'GET',
    `/${index}/_doc/${encodeURIComponent(id)}`
  );
  return got.body['_source'] as Record<string, unknown>;
}

async function open(ctx: Context, target: string) {
  return ctx.comm.expect(
    { type: 'open', connection: 'es', target, blockSize: 50 },
    'opened'
  );
}

type Opened = Awaited<ReturnType<typeof open>>;

/** Changes one row's `note` through the grid (its version as read, when it has one). */
async function editNote(ctx: Context, grid: Opened, at: number, note: string) {
  const row = grid.first.keys?.[at];
  const version = grid.first.versions?.[at] ?? undefined;
  const change = {
    kind: 'update' as const,
    key: `k-${note}`,
    row,
    ...(version ? { version } : {}),
    fields: { note }
  };
  const plan = await ctx.comm.expect(
    { type: 'plan', gridId: grid.gridId, changes: [change] },
    'plan'
  );
  const saved = await ctx.comm.expect(
    { type: 'save', gridId: grid.gridId, changes: [change] },
    'saved'
  );
  return { plan, saved, row };
}

suite('es-9.5', ctx => {
  it('a time-series index without sequence numbers (hits answer _seq_no -2; _update and if_seq_no are refused): the grid says a save cannot detect concurrent changes and that _source is rebuilt; an edit is written without if_seq_no and reads back', async () => {
    const index = await created(
      ctx,
      'tsdb-noseq',
      timeSeries({ 'index.disable_sequence_numbers': true }),
      POINTS
    );
    const hits = await call(ctx, 'POST', `/${index}/_search`, {
      seq_no_primary_term: true
    });
    const hit = (hits.body['hits'] as { hits: Record<string, unknown>[] })
      .hits[0];
    expect(hit).toMatchObject({ _seq_no: -2, _primary_term: 0 });
    const id = encodeURIComponent(String(hit?.['_id']));
    const update = await call(ctx, 'POST', `/${index}/_update/${id}`, {
      doc: { note: 'x' }
    });
    expect(JSON.stringify(update.body)).toContain(
      'update is not supported because the destination index'
    );
    const conditional = await call(
      ctx,
      'PUT',
      `/${index}/_doc/${id}?if_seq_no=0&if_primary_term=1`,
      hit?.['_source']
    );
    expect(JSON.stringify(conditional.body)).toContain(
      'Optimistic concurrency control is not supported on indices with sequence numbers disabled'
    );
    const grid = await open(ctx, index);
    expect(grid.first.rows).toHaveLength(3);
    expect(grid.notes).toEqual([NO_SEQ_NO, rebuilt('index.mode: time_series')]);
    expect(grid.first.versions).toEqual([null, null, null]);
    const at = grid.first.rows.findIndex(r => r['host'] === 'b');
    const { plan, saved, row } = await editNote(ctx, grid, at, 'edited');
    expect(plan.requests[0]).toMatchObject({ method: 'PUT' });
    expect(plan.requests[0]?.path).not.toContain('if_seq_no');
    expect(plan.requests[0]?.body).toMatchObject({
      host: 'b',
      cpu: 0.5,
      note: 'edited'
    });
    expect(saved.results[0]).toMatchObject({
      status: 'saved',
      document: { host: 'b', note: 'edited' }
    });
    expect(await source(ctx, index, String(row?.id))).toMatchObject({
      host: 'b',
      cpu: 0.5,
      note: 'edited'
    });
    // Read again, the grid shows the saved value and still says so.
    const again = await open(ctx, index);
    expect(again.notes[0]).toBe(NO_SEQ_NO);
    expect(again.first.rows.find(r => r['host'] === 'b')?.['note']).toBe(
      'edited'
    );
  });

  it('a time-series index keeping sequence numbers: edits are whole documents with if_seq_no, a stale one is a conflict; only the rebuilt _source is said', async () => {
    const index = await created(ctx, 'tsdb', timeSeries(), POINTS);
    const grid = await open(ctx, index);
    expect(grid.notes).toEqual([rebuilt('index.mode: time_series')]);
    const at = grid.first.rows.findIndex(r => r['host'] === 'a');
    expect(grid.first.versions?.[at]).toMatchObject({ seqNo: 0 });
    const first = await editNote(ctx, grid, at, 'one');
    expect(first.plan.requests[0]?.method).toBe('PUT');
    expect(first.plan.requests[0]?.path).toContain('if_seq_no=');
    expect(first.saved.results[0]?.status).toBe('saved');
    expect(await source(ctx, index, String(first.row?.id))).toMatchObject({
      note: 'one'
    });
    // The grid's rows still carry the version read before that save.
    const stale = await editNote(ctx, grid, at, 'two');
    expect(stale.saved.results[0]?.status).toBe('conflict');
    expect(await source(ctx, index, String(first.row?.id))).toMatchObject({
      note: 'one'
    });
  });

  it.each([
    ['index.mode: logsdb', { 'index.mode': 'logsdb' }],
    [
      'index.mapping.source.mode: synthetic',
      { 'index.mapping.source.mode': 'synthetic' }
    ]
  ])(
    'synthetic _source (%s): the grid says the source is rebuilt; an edit is saved and reads back',
    async (because, settings) => {
      const index = await created(
        ctx,
        'synthetic',
        { settings: { number_of_replicas: 0, ...settings } },
        [LOG]
      );
      const grid = await open(ctx, index);
      expect(grid.notes).toEqual([rebuilt(because)]);
      // The exported document is the rebuilt one (its keys in the engine's order), and the cell says so.
      const { text, sources } = await exported(ctx, index);
      expect(text).toContain(JSON.stringify(exportNote(because)).slice(1, -1));
      expect(Object.keys(sources[0] as object)).toEqual(
        Object.keys(LOG).sort()
      );
      const { saved, row } = await editNote(ctx, grid, 0, 'edited');
      expect(saved.results[0]?.status).toBe('saved');
      expect(await source(ctx, index, String(row?.id))).toMatchObject({
        message: 'started',
        note: 'edited'
      });
    }
  );

  it('an alias over a logsdb index and one stored as indexed: the notice names the logsdb index only, and the other keeps _update with if_seq_no', async () => {
    const logs = await created(
      ctx,
      'logs',
      { settings: { number_of_replicas: 0, 'index.mode': 'logsdb' } },
      [LOG]
    );
    const plain = await created(
      ctx,
      'plain',
      { settings: { number_of_replicas: 0 } },
      [{ ...LOG, message: 'plain' }]
    );
    const alias = `both-${randomUUID().slice(0, 8)}`;
    const aliased = await call(ctx, 'POST', '/_aliases', {
      actions: [{ add: { indices: [logs, plain], alias } }]
    });
    expect(aliased.status).toBe(200);
    const { text } = await exported(ctx, plain);
    expect(text).not.toContain('rebuilt');
    const grid = await open(ctx, alias);
    expect(grid.notes).toEqual([
      `The _source of ${logs} is rebuilt by Elasticsearch (synthetic _source, index.mode: logsdb), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. A save replaces the document with what is shown.`
    ]);
    const at = grid.first.rows.findIndex(r => r['message'] === 'plain');
    const { plan, saved } = await editNote(ctx, grid, at, 'edited');
    expect(plan.requests[0]?.path).toMatch(
      new RegExp(`^/${plain}/_update/.*if_seq_no=0`)
    );
    expect(saved.results[0]?.status).toBe('saved');
  });
});

suite('es-8.19', ctx => {
  it('a time-series index refuses _update; the grid edits it as whole documents with if_seq_no and says its _source is rebuilt', async () => {
    const index = await created(ctx, 'tsdb', timeSeries(), POINTS);
    const grid = await open(ctx, index);
    expect(grid.notes).toEqual([rebuilt('index.mode: time_series')]);
    const at = grid.first.rows.findIndex(r => r['host'] === 'c');
    const { plan, saved, row } = await editNote(ctx, grid, at, 'edited');
    expect(plan.requests[0]?.method).toBe('PUT');
    const version = grid.first.versions?.[at];
    expect(plan.requests[0]?.path).toContain(
      `if_seq_no=${version?.seqNo}&if_primary_term=${version?.primaryTerm}`
    );
    expect(saved.results[0]).toMatchObject({
      status: 'saved',
      document: { host: 'c', cpu: 1, note: 'edited' }
    });
    expect(await source(ctx, index, String(row?.id))).toMatchObject({
      host: 'c',
      cpu: 1,
      note: 'edited'
    });
  });

  it("a mapping's _source mode synthetic: the grid says the source is rebuilt", async () => {
    const index = await created(
      ctx,
      'mapped-synthetic',
      {
        settings: { number_of_replicas: 0 },
        mappings: { _source: { mode: 'synthetic' } }
      },
      [LOG]
    );
    const grid = await open(ctx, index);
    expect(grid.notes).toEqual([
      rebuilt("its mapping's _source mode: synthetic")
    ]);
    const { text } = await exported(ctx, index);
    expect(text).toContain(
      JSON.stringify(exportNote("its mapping's _source mode: synthetic")).slice(
        1,
        -1
      )
    );
  });
});
