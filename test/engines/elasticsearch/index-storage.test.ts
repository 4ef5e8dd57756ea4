/**
 * The panel's grid and `%export` on indices that store documents otherwise, against the
 * sandbox (which answers as the real nodes of test/real-elasticsearch/index-storage.test.ts
 * do): a time-series index refuses `_update`, one without sequence numbers answers
 * `_seq_no: -2` and refuses `if_seq_no`, a logsdb index rebuilds its `_source`. The grid says
 * so above its rows, edits are saved and read back, and an export says what its file holds.
 * Sandbox only: `index.disable_sequence_numbers` is 9.x's, and the real 8.19 node refuses it.
 */
import { randomUUID } from 'node:crypto';
import type { GridReply } from '../../../contracts/panel-protocol';
import { SECRETS } from '../../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  type RunningEsTarget
} from '../../support/elasticsearch-targets';
import type { KernelClient } from '../../support/kernel-client';
import {
  type PanelCommClient,
  kernelWithPanelComm
} from '../../panel/panel-comm-client';
import { runCell } from '../../real-elasticsearch/console-smoke';
import { scratchDir } from '../../support/scratch-dir';

type Opened = Extract<GridReply, { type: 'opened' }>;

const NO_SEQ_NO =
  'This is a time-series index: Elasticsearch keeps no sequence numbers here, so a save cannot detect changes made by others since the rows were read.';
const rebuilt = (because: string, subject = "This index's _source is") =>
  `${subject} rebuilt by Elasticsearch (synthetic _source, ${because}), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. A save replaces the document with what is shown.`;

const METRICS = {
  properties: {
    '@timestamp': { type: 'date' },
    host: { type: 'keyword' },
    cpu: { type: 'double' },
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
const POINTS = ['a', 'b', 'c'].map((host, i) => ({
  note: `n${i}`,
  host,
  cpu: i / 2,
  '@timestamp': '2026-11-27T03:00:00Z'
}));

describeEachTarget(
  elasticsearchTargets().filter(t => t.engine === 'sandbox'),
  'index storage in the grid',
  target => {
    const cwd = scratchDir('searchbook-storage-');
    let engine: RunningEsTarget;
    let kernel: KernelClient;
    let comm: PanelCommClient;

    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${engine.url}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : {
              body: typeof body === 'string' ? body : JSON.stringify(body),
              headers: { 'content-type': 'application/json' }
            })
      });
      return {
        status: answer.status,
        body: (await answer.json()) as Record<string, unknown>
      };
    };
    const created = async (
      prefix: string,
      definition: unknown,
      documents: unknown[]
    ) => {
      const name = `${prefix}-${randomUUID().slice(0, 8)}`;
      expect((await call('PUT', `/${name}`, definition)).status).toBe(200);
      const bulk = documents
        .map(d => `{"create":{}}\n${JSON.stringify(d)}\n`)
        .join('');
      const loaded = await call('POST', `/${name}/_bulk?refresh=true`, bulk);
      expect(loaded.body['errors']).toBe(false);
      return name;
    };
    const source = async (index: string, id: string) =>
      (await call('GET', `/${index}/_doc/${encodeURIComponent(id)}`)).body[
        '_source'
      ];
    const open = (gridTarget: string) =>
      comm.expect(
        { type: 'open', connection: 'es', target: gridTarget, blockSize: 50 },
        'opened'
      );
    const editNote = async (grid: Opened, at: number, note: string) => {
      const version = grid.first.versions?.[at];
      const change = {
        kind: 'update' as const,
        key: `k-${note}`,
        row: grid.first.keys?.[at],
        ...(version ? { version } : {}),
        fields: { note }
      };
      const plan = await comm.expect(
        { type: 'plan', gridId: grid.gridId, changes: [change] },
        'plan'
      );
      const saved = await comm.expect(
        { type: 'save', gridId: grid.gridId, changes: [change] },
        'saved'
      );
      return { plan, saved, id: String(grid.first.keys?.[at]?.id) };
    };

    beforeAll(async () => {
      engine = await target.start({ security: false });
      ({ kernel, comm } = await kernelWithPanelComm(
        [`%connect elasticsearch ${engine.url} auth=none name=es`],
        { ...SECRETS },
        { cwd }
      ));
    });
    afterAll(async () => {
      await kernel?.close();
      await engine?.close();
    });

    it('a time-series index without sequence numbers: the grid says a save cannot detect concurrent changes and that _source is rebuilt; an edit is a whole document without if_seq_no, and reads back', async () => {
      const index = await created(
        'tsdb-noseq',
        timeSeries({ 'index.disable_sequence_numbers': true }),
        POINTS
      );
      const grid = await open(index);
      expect(grid.notes).toEqual([
        NO_SEQ_NO,
        rebuilt('index.mode: time_series')
      ]);
      expect(grid.first.versions).toEqual([null, null, null]);
      const at = grid.first.rows.findIndex(r => r['host'] === 'b');
      const { plan, saved, id } = await editNote(grid, at, 'edited');
      expect(plan.requests[0]).toMatchObject({
        method: 'PUT',
        path: `/${index}/_doc/${id}?refresh=wait_for`,
        body: {
          '@timestamp': '2026-11-27T03:00:00Z',
          cpu: 0.5,
          host: 'b',
          note: 'edited'
        }
      });
      expect(saved.results[0]).toMatchObject({
        status: 'saved',
        document: { host: 'b', note: 'edited' }
      });
      expect(await source(index, id)).toEqual({
        '@timestamp': '2026-11-27T03:00:00Z',
        cpu: 0.5,
        host: 'b',
        note: 'edited'
      });
      const again = await open(index);
      expect(again.notes[0]).toBe(NO_SEQ_NO);
      expect(again.first.rows.find(r => r['host'] === 'b')?.['note']).toBe(
        'edited'
      );
    });

    it('a time-series index keeping sequence numbers: a whole document with if_seq_no; a stale row is a conflict and nothing is written', async () => {
      const index = await created('tsdb', timeSeries(), POINTS);
      const grid = await open(index);
      expect(grid.notes).toEqual([rebuilt('index.mode: time_series')]);
      const first = await editNote(grid, 0, 'one');
      const version = grid.first.versions?.[0];
      expect(first.plan.requests[0]).toMatchObject({
        method: 'PUT',
        path: `/${index}/_doc/${first.id}?refresh=wait_for&if_seq_no=${version?.seqNo}&if_primary_term=1`
      });
      expect(first.saved.results[0]?.status).toBe('saved');
      const stale = await editNote(grid, 0, 'two');
      expect(stale.saved.results[0]?.status).toBe('conflict');
      expect(await source(index, first.id)).toMatchObject({ note: 'one' });
    });

    it('an index deleted and made again as a time-series index outside the kernel: the grid opened on it afterwards edits it as one', async () => {
      const name = `replaced-${randomUUID().slice(0, 8)}`;
      const make = async (definition: unknown) => {
        expect((await call('PUT', `/${name}`, definition)).status).toBe(200);
        const bulk = POINTS.map(
          d => `{"create":{}}\n${JSON.stringify(d)}\n`
        ).join('');
        await call('POST', `/${name}/_bulk?refresh=true`, bulk);
      };
      await make({ settings: { number_of_replicas: 0 }, mappings: METRICS });
      const before = await editNote(await open(name), 0, 'plain');
      expect(before.plan.requests[0]?.path).toContain('/_update/');
      expect((await call('DELETE', `/${name}`)).status).toBe(200);
      await make(timeSeries());
      const after = await editNote(await open(name), 0, 'series');
      expect(after.plan.requests[0]?.method).toBe('PUT');
      expect(after.saved.results[0]?.status).toBe('saved');
      expect(await source(name, after.id)).toMatchObject({ note: 'series' });
    });

    it('logsdb behind an alias with a plain index: the notice names the logsdb index, its export says the file holds rebuilt documents, and both are edited with _update', async () => {
      const logs = await created(
        'logs',
        { settings: { number_of_replicas: 0, 'index.mode': 'logsdb' } },
        [{ note: 'n', message: 'logged', '@timestamp': '2026-11-27T03:00:00Z' }]
      );
      const plain = await created(
        'plain',
        { settings: { number_of_replicas: 0 } },
        [{ note: 'n', message: 'plain' }]
      );
      const alias = `both-${randomUUID().slice(0, 8)}`;
      await call('POST', '/_aliases', {
        actions: [{ add: { indices: [logs, plain], alias } }]
      });
      const grid = await open(alias);
      expect(grid.notes).toEqual([
        rebuilt('index.mode: logsdb', `The _source of ${logs} is`)
      ]);
      for (const message of ['logged', 'plain']) {
        const at = grid.first.rows.findIndex(r => r['message'] === message);
        const { plan, saved, id } = await editNote(grid, at, message);
        expect(plan.requests[0]?.path).toMatch(/\/_update\/.*if_seq_no=0/);
        expect(saved.results[0]?.status).toBe('saved');
        const index = message === 'plain' ? plain : logs;
        expect(await source(index, id)).toMatchObject({ note: message });
      }
      const exported = await runCell(kernel, `%export ${logs} logs.jsonl`);
      expect(exported.status).toBe('ok');
      expect(exported.text).toContain(
        "This index's _source is rebuilt by Elasticsearch (synthetic _source, index.mode: logsdb), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ. The file holds the documents as rebuilt, and so will a re-import of it."
      );
      const plainExport = await runCell(kernel, `%export ${plain} p.jsonl`);
      expect(plainExport.text).not.toContain('rebuilt');
    });
  }
);
