/**
 * The document grid's reading path on a 1,000,000-document sandbox index, over the wire (the
 * kernel process, ZeroMQ, the grid comm, HTTP to the Elasticsearch sandbox): opening a grid
 * (first block), the block at row 500,000 reached by scrolling, revisiting a passed block, and
 * a jump from row 0 to row 990,000. Ratios are against the first block read in the same run
 * (block 1, one from/size search on the point in time). Then far jumps in grids sorted by a
 * field (a unique long going down, an integer of 97 values each held by more rows than the
 * result window going up, and the same filtered), each on a fresh grid, with the engine
 * requests each took. Prints medians and the load average; asserts nothing.
 *
 *   node dist/bench/grid-paging.js [--docs 1000000] [--runs 5] [--sorted-only]
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen } from '@searchbook/sandbox/serve';
import {
  PANEL_COMM_TARGET,
  PANEL_PROTOCOL_VERSION,
  type GridReply,
  GridReplySchema
} from '../contracts/panel-protocol';
import { KernelClient } from '../test/support/kernel-client';
import { KernelMessage } from '../test/support/kernel-messages';

const docs =
  Number(process.argv[process.argv.indexOf('--docs') + 1]) || 1_000_000;
const BLOCK = 1000;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const sortedOnly = process.argv.includes('--sorted-only');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  const loadStarted = performance.now();
  function* generate() {
    for (let n = 0; n < docs; n++) {
      yield { id: `d${n}`, source: { n, label: `row ${n}`, group: n % 97 } };
    }
  }
  es.loadIndex(
    'big',
    {
      properties: {
        n: { type: 'long' },
        label: { type: 'keyword' },
        group: { type: 'integer' }
      }
    },
    generate()
  );
  console.log(
    `loaded ${docs.toLocaleString('en-US')} documents in ${Math.round(performance.now() - loadStarted)} ms`
  );
  const server = await listen(es.handler, { port: 0 });
  const kernel = await KernelClient.start();
  try {
    await kernel.execute(`%connect elasticsearch ${server.url} name=es`);
    const commId = randomUUID();
    await kernel.submit('shell', 'comm_open', {
      comm_id: commId,
      target_name: PANEL_COMM_TARGET,
      data: {}
    });
    const call = async (
      data: Record<string, unknown>
    ): Promise<{ reply: GridReply; ms: number }> => {
      const requestId = randomUUID();
      const started = performance.now();
      await kernel.submit('shell', 'comm_msg', {
        comm_id: commId,
        data: { v: PANEL_PROTOCOL_VERSION, requestId, ...data }
      });
      for (;;) {
        const found = kernel
          .iopubMessages()
          .filter(KernelMessage.isCommMsgMsg)
          .find(m => m.content.data.requestId === requestId);
        if (found) {
          const reply = GridReplySchema.parse(found.content.data);
          if (reply.type === 'error') {
            throw new Error(reply.message);
          }
          return { reply, ms: performance.now() - started };
        }
        await new Promise(r => setTimeout(r, 1));
      }
    };
    const open = async (view?: Record<string, unknown>) => {
      const { reply, ms } = await call({
        type: 'open',
        connection: 'es',
        target: 'big',
        blockSize: BLOCK,
        ...(view ? { view } : {})
      });
      if (reply.type !== 'opened') {
        throw new Error(reply.type);
      }
      return { gridId: reply.gridId, ms, requests: reply.first.requests };
    };
    const read = async (gridId: string, block: number) => {
      const { reply, ms } = await call({ type: 'read', gridId, block });
      if (reply.type !== 'block') {
        throw new Error(reply.type);
      }
      return {
        ms,
        requests: reply.block.requests.length,
        rows: reply.block.rows.length
      };
    };

    const load = () =>
      loadavg()
        .map(l => l.toFixed(1))
        .join(' ');
    console.log(`load average before: ${load()}`);
    const sortedJumps: [string, Record<string, unknown>][] = [
      ['n (unique long) desc', { sort: [{ column: 'n', direction: 'desc' }] }],
      [
        'group (97 values) asc',
        { sort: [{ column: 'group', direction: 'asc' }] }
      ],
      [
        'n asc, filtered to group < 50',
        {
          filters: [{ column: 'group', operator: 'less than', value: '50' }],
          sort: [{ column: 'n', direction: 'asc' }]
        }
      ]
    ];
    for (const [label, view] of sortedJumps) {
      for (const row of [docs / 2, docs * 0.99 - 20 * BLOCK]) {
        const block = Math.floor(row / BLOCK);
        const times: number[] = [];
        const requests: number[] = [];
        for (let i = 0; i < runs; i++) {
          const fresh = await open(view);
          const jump = await read(fresh.gridId, block);
          times.push(jump.ms);
          requests.push(jump.requests);
          await call({ type: 'close', gridId: fresh.gridId });
        }
        console.log(
          `sorted ${label}, jump to row ${(block * BLOCK).toLocaleString('en-US')}: ${median(times).toFixed(0)} ms median (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}), ${Math.min(...requests)}-${Math.max(...requests)} requests, ${runs} runs`
        );
      }
    }
    console.log(`load average after: ${load()}`);
    if (sortedOnly) {
      return;
    }

    const opens: number[] = [];
    for (let i = 0; i < 5; i++) {
      const grid = await open();
      opens.push(grid.ms);
      if (i === 0) {
        console.log(
          `open requests: ${grid.requests.map(r => `${r.method} ${r.path} ${Math.round(r.elapsedMs)} ms`).join('; ')}`
        );
      }
      await call({ type: 'close', gridId: grid.gridId });
    }

    const grid = await open();
    const first: number[] = [];
    for (let i = 0; i < 5; i++) {
      first.push((await read(grid.gridId, 1)).ms);
    }
    // Scroll: every block in turn up to row 500,000, each one request from the last checkpoint.
    const scrollStarted = performance.now();
    for (let block = 2; block < 500; block++) {
      await read(grid.gridId, block);
    }
    const scrollMs = performance.now() - scrollStarted;
    const at500k = await read(grid.gridId, 500);
    const deep: number[] = [at500k.ms];
    const revisits: number[] = [];
    for (const block of [250, 420, 499, 300, 120]) {
      revisits.push((await read(grid.gridId, block)).ms);
    }
    await call({ type: 'close', gridId: grid.gridId });

    const jumps: number[] = [];
    let jumpRequests = 0;
    for (let i = 0; i < 3; i++) {
      const fresh = await open();
      const jump = await read(fresh.gridId, Math.floor(990_000 / BLOCK));
      jumps.push(jump.ms);
      jumpRequests = jump.requests;
      await call({ type: 'close', gridId: fresh.gridId });
    }

    const base = median(first);
    const line = (label: string, ms: number) =>
      console.log(
        `${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / base).toFixed(2)}×`
      );
    console.log(
      `\n${docs.toLocaleString('en-US')} documents, blocks of ${BLOCK}; ratio against the first block read (median of 5)`
    );
    line('first block read (block 1, baseline)', base);
    line('open a grid (settings, point in time, block 0)', median(opens));
    line('block at row 500,000 reached by scrolling', median(deep));
    line('revisiting passed blocks (median of 5)', median(revisits));
    line(
      `jump row 0 → 990,000 (${jumpRequests} requests, median of 3)`,
      median(jumps)
    );
    console.log(
      `scrolling blocks 2..499: ${Math.round(scrollMs)} ms (${(scrollMs / 498).toFixed(1)} ms a block)`
    );
  } finally {
    await kernel.close();
    await server.close();
  }
}

void main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});
