/**
 * Answers of every shape up to the connection's cap, over ZeroMQ against a loopback engine:
 * an array of millions of tiny elements, a search with millions of hits, hits a hundred
 * thousand fields wide. The kernel survives each with its peak memory (VmHWM of its process)
 * within 1.5 GB, is back under 300 MB within 10 s after, and writes an output no larger than
 * its row and size caps. Memory-heavy: one kernel, one answer at a time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { HITS_MIME, TABLE_MIME } from '../../contracts/mime-types';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { KernelClient, type IopubMessage } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(180_000);

const MIB = 1024 * 1024;
/** Just under the connection's default cap (256 MiB). */
const NEAR_CAP = 250 * MIB;
const PEAK_LIMIT = 1.5 * 1024 * MIB;
const SETTLED_LIMIT = 300 * MIB;
/** Rows and characters a cell's output may hold: the row cap, the rows' share, the fallbacks and the columns. */
const ROW_CAP = 1_000;
const OUTPUT_LIMIT = 25 * 1000 * 1000;

let kernel: KernelClient;
let engine: HostileEngine;

/** Writes `head`, then `piece` repeated to about `size` bytes, then `tail`, as the client reads it. */
function repeated(
  res: ServerResponse,
  head: string,
  piece: string,
  size: number,
  tail: string
): void {
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
  const block = Buffer.from(
    piece.repeat(Math.max(1, Math.floor((64 * 1024) / piece.length))),
    'utf8'
  );
  let written = 0;
  res.write(head);
  const pump = (): void => {
    while (written < size && !res.destroyed) {
      written += block.length;
      if (!res.write(block)) {
        return void res.once('drain', pump);
      }
    }
    res.end(tail);
  };
  pump();
}

/** 50 hits of 100,000 fields each. */
function wideHits(res: ServerResponse): void {
  const fields = Array.from({ length: 100_000 }, (_, i) => `"f${i}":${i}`).join(
    ','
  );
  const hits = Array.from(
    { length: 50 },
    (_, i) => `{"_id":"${i}","_index":"wide","_score":1,"_source":{${fields}}}`
  );
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
  res.end(
    `{"took":1,"hits":{"total":{"value":50,"relation":"eq"},"hits":[${hits.join(',')}]}}`
  );
}

beforeAll(async () => {
  engine = await startHostileEngine({
    '/empty-objects/_cat': (_req, res) =>
      repeated(res, '[', '{},', NEAR_CAP, '{}]'),
    '/small-objects/_cat': (_req, res) =>
      repeated(res, '[', '{"a":1},', NEAR_CAP, '{"a":1}]'),
    '/many/_search': (_req, res) =>
      repeated(
        res,
        '{"took":1,"hits":{"total":{"value":10000,"relation":"gte"},"hits":[',
        '{"_id":"1","_source":{}},',
        NEAR_CAP,
        '{"_id":"1","_source":{}}]}}'
      ),
    '/wide/_search': (_req, res) => wideHits(res)
  });
  kernel = await KernelClient.start();
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${engine.url} name=es`
  );
  expect(reply.content.status).toBe('ok');
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

/** VmHWM (peak) and VmRSS of the kernel's process, in bytes. */
function memory(): { peak: number; now: number } {
  const status = readFileSync(`/proc/${kernel.process.pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { peak: kib('VmHWM'), now: kib('VmRSS') };
}

/** Resets the process's peak (VmHWM) to what it holds now. */
function resetPeak(): void {
  writeFileSync(`/proc/${kernel.process.pid}/clear_refs`, '5');
}

async function settledWithin(ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { now } = memory();
    if (now < SETTLED_LIMIT || Date.now() > deadline) {
      return now;
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

const outputs = (iopub: IopubMessage[]) =>
  iopub.filter(
    m =>
      KernelMessage.isDisplayDataMsg(m) ||
      KernelMessage.isUpdateDisplayDataMsg(m)
  );

const mb = (bytes: number) => `${Math.round(bytes / MIB)} MiB`;

it.each([
  [
    'an array of 87 million empty objects',
    'GET /empty-objects/_cat',
    TABLE_MIME,
    /the answer itself holds \d+ values, of which the first 3000000 were read/
  ],
  [
    'an array of 31 million one-field objects',
    'GET /small-objects/_cat',
    TABLE_MIME,
    /the answer itself holds \d+ values, of which the first \d+ were read/
  ],
  [
    'a search answering 10 million hits',
    'GET /many/_search',
    HITS_MIME,
    /hits\.hits holds \d+ values, of which the first \d+ were read/
  ],
  [
    '50 hits of 100,000 fields each',
    'GET /wide/_search',
    HITS_MIME,
    /99003 of 100003 columns left out of the notebook, the first 1000 kept/
  ]
])(
  '%s: the kernel survives within 1.5 GB, its output within the caps, and gives the memory back',
  async (_shape, cell, mime, said) => {
    resetPeak();
    const { reply, iopub } = await kernel.execute(cell);
    const { peak } = memory();
    expect(reply.content.status).toBe('ok');
    const shown = outputs(iopub);
    const payload = shown.map(m => m.content.data[mime]).find(Boolean) as {
      rows?: unknown[];
      columns: unknown[];
    };
    expect(payload.rows?.length ?? 0).toBeLessThanOrEqual(ROW_CAP);
    expect(payload.columns.length).toBeLessThanOrEqual(ROW_CAP);
    const written = shown.reduce(
      (sum, m) => sum + JSON.stringify(m.content).length,
      0
    );
    expect(written).toBeLessThanOrEqual(OUTPUT_LIMIT);
    // What was left out is said, in place.
    expect(
      shown.map(m => String(m.content.data['text/plain'])).join('\n')
    ).toMatch(said);
    const settled = await settledWithin(10_000);
    // The figures, for whoever reads the run.
    process.stdout.write(
      `${_shape}: peak ${mb(peak)}, after 10 s ${mb(settled)}, output ${Math.round(written / 1000)} kB\n`
    );
    expect(peak).toBeLessThanOrEqual(PEAK_LIMIT);
    expect(settled).toBeLessThan(SETTLED_LIMIT);
    // The kernel still answers.
    expect((await kernel.execute('%vars')).reply.content.status).toBe('ok');
  }
);
