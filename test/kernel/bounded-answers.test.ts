/**
 * Bounded answers, over ZeroMQ against hostile engines on loopback: an answer larger than the
 * connection's cap (max_answer=) is aborted while it is read, the cell says why and how to ask
 * for less, and the kernel answers at once after it; timeout= is a deadline on the whole
 * answer, so a server that trickles its body is cut off; an interrupt ends a trickling request;
 * a timeout outside its range is refused before anything is sent.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { KernelClient, errorOf } from '../support/kernel-client';
import {
  type HostileEngine,
  type Streamed,
  startHostileEngine,
  streamBody,
  trickleBody
} from '../support/hostile-engine';
import { scratchDir } from '../support/scratch-dir';

jest.setTimeout(60_000);

let kernel: KernelClient;
let engine: HostileEngine;
const streamed: Promise<Streamed>[] = [];
let trickleStarted!: () => void;
let trickleArrived = new Promise<void>(r => (trickleStarted = r));
let configDir = '';

/** 50 MB of hits text, offered in 64 KiB pieces. */
const OFFERED = 50 * 1000 * 1000;
const PIECE = Buffer.from(
  '{"_id":"x","_source":{"t":"'.padEnd(64 * 1024 - 4, 'a') + '"}},',
  'utf8'
);
/** A small search answer the trickle sends one byte at a time: 16 s at 200 ms a byte, were nothing to stop it. */
const TRICKLED = JSON.stringify({
  hits: { total: { value: 0, relation: 'eq' }, hits: [] },
  took: 1,
  timed_out: false
}).padEnd(80, ' ');

const json = (res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
};

beforeAll(async () => {
  engine = await startHostileEngine({
    '/big/_search': (_req, res) => {
      json(res);
      res.write('{"hits":{"hits":[');
      streamed.push(streamBody(res, OFFERED, PIECE));
    },
    '/announced/_search': (_req, res) => {
      json(res);
      res.setHeader('content-length', String(OFFERED));
      streamed.push(streamBody(res, OFFERED, PIECE));
    },
    '/trickle/_search': (_req, res) => {
      json(res);
      res.flushHeaders();
      trickleStarted();
      streamed.push(trickleBody(res, TRICKLED, 200));
    }
  });
  // A profile sets the cap as %connect's option does; JUPYTER_CONFIG_DIR keeps the test off the user's profiles.
  configDir = scratchDir('searchbook-bounds-');
  mkdirSync(join(configDir, 'searchbook'));
  const port = Number(new URL(engine.url).port);
  const profile = {
    engine: 'elasticsearch',
    name: 'capped-profile',
    host: '127.0.0.1',
    port,
    auth: 'none',
    max_answer: '1MiB',
    timeout: 5
  };
  writeFileSync(
    join(configDir, 'searchbook', 'profiles.json'),
    JSON.stringify({ version: 1, profiles: [profile] }),
    { mode: 0o600 }
  );
  kernel = await KernelClient.start({ JUPYTER_CONFIG_DIR: configDir });
});
afterAll(async () => {
  await Promise.all([kernel?.close(), engine?.close()]);
});

async function kernelAnswers(): Promise<void> {
  const info = await kernel.request('shell', 'kernel_info_request', {}, 5_000);
  expect(info.content.status).toBe('ok');
}

describe('an answer larger than the connection cap', () => {
  beforeAll(async () => {
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch ${engine.url} auth=none name=capped max_answer=1MiB`
        )
      ).reply.content.status
    ).toBe('ok');
  });

  it('is aborted while read: the cell names the cap, the size reached and how to ask for less, and the server is cut off early', async () => {
    const { reply } = await kernel.execute('GET /big/_search');
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'Answer too large'
    });
    const text = errorOf(reply).evalue;
    expect(text).toMatch(
      /^The answer of capped is larger than the 1 MiB one answer may hold in memory \(max_answer of this connection\): the request was aborted at 1(\.\d)? MiB read and what was read let go\./
    );
    for (const advice of [
      'size and from',
      'search_after',
      'filter_path=',
      '"_source": [',
      'max_answer=<size>'
    ]) {
      expect(text).toContain(advice);
    }
    const sent = await streamed.at(-1);
    expect(sent?.closedEarly).toBe(true);
    expect(sent?.written).toBeLessThan(OFFERED / 2);
    // The kernel answers at once, and the next cell on the same connection works.
    await kernelAnswers();
    const next = await kernel.execute('GET /');
    expect(next.reply.content.status).toBe('ok');
  });

  it('is capped the same way through a profile whose max_answer says so', async () => {
    expect(
      (await kernel.execute('%connect capped-profile')).reply.content.status
    ).toBe('ok');
    const { reply } = await kernel.execute('GET /big/_search');
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'Answer too large'
    });
    expect(errorOf(reply).evalue).toMatch(
      /^The answer of capped-profile is larger than the 1 MiB one answer may hold in memory/
    );
    expect((await streamed.at(-1))?.closedEarly).toBe(true);
    expect((await kernel.execute('%use capped')).reply.content.status).toBe(
      'ok'
    );
  });

  it('--save keeps the cap and the timeout in the profile, and the profile applies them', async () => {
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch ${engine.url} auth=none max_answer=1MiB timeout=5 --save kept-cap`
        )
      ).reply.content.status
    ).toBe('ok');
    const file = JSON.parse(
      readFileSync(join(configDir, 'searchbook', 'profiles.json'), 'utf8')
    ) as { profiles: { name: string }[] };
    expect(file.profiles.find(p => p.name === 'kept-cap')).toMatchObject({
      max_answer: 1024 * 1024,
      timeout: 5
    });
    expect(
      (await kernel.execute('%connect kept-cap')).reply.content.status
    ).toBe('ok');
    const { reply } = await kernel.execute('GET /big/_search');
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'Answer too large'
    });
    expect((await kernel.execute('%use capped')).reply.content.status).toBe(
      'ok'
    );
  });

  it('is not read at all when its Content-Length already says it will not fit', async () => {
    const { reply } = await kernel.execute('GET /announced/_search');
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'Answer too large'
    });
    expect(errorOf(reply).evalue).toContain(
      'its Content-Length announced 47.7 MiB, so it was not read'
    );
    const sent = await streamed.at(-1);
    expect(sent?.closedEarly).toBe(true);
    expect(sent?.written).toBeLessThan(OFFERED / 2);
    await kernelAnswers();
  });
});

describe('timeout=', () => {
  it('is a deadline on the whole answer: a body trickled a byte at a time is cut off', async () => {
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch ${engine.url} auth=none name=hurried timeout=1`
        )
      ).reply.content.status
    ).toBe('ok');
    const { reply } = await kernel.execute('GET /trickle/_search');
    expect(reply.content).toMatchObject({ status: 'error', ename: 'Timeout' });
    expect(errorOf(reply).evalue).toBe(
      'hurried did not send its whole answer within 1 s (timeout=1 of this connection), so the request was aborted. Wait longer with timeout=<seconds> on %connect, or ask for less.'
    );
    const sent = await streamed.at(-1);
    expect(sent?.closedEarly).toBe(true);
    expect(sent?.written).toBeLessThan(TRICKLED.length);
    await kernelAnswers();
  });

  it('an interrupt ends a request whose body is trickling', async () => {
    expect(
      (
        await kernel.execute(
          `%connect elasticsearch ${engine.url} auth=none name=patient timeout=600`
        )
      ).reply.content.status
    ).toBe('ok');
    trickleArrived = new Promise<void>(r => (trickleStarted = r));
    const cell = await kernel.submit('shell', 'execute_request', {
      code: 'GET /trickle/_search',
      silent: false,
      store_history: true,
      user_expressions: {},
      allow_stdin: false,
      stop_on_error: true
    });
    await trickleArrived;
    const interrupt = await kernel.request('control', 'interrupt_request', {});
    expect(interrupt.content.status).toBe('ok');
    expect((await cell.reply).content).toMatchObject({
      status: 'error',
      ename: 'Interrupted'
    });
    const sent = await streamed.at(-1);
    expect(sent?.closedEarly).toBe(true);
    await kernelAnswers();
  });

  it.each(['1e308', '0.0001', '2147484', 'soon'])(
    'timeout=%s is refused with the range and what to write, and nothing is sent',
    async value => {
      const before = engine.requests.length;
      const { reply } = await kernel.execute(
        `%connect elasticsearch ${engine.url} auth=none timeout=${value}`
      );
      expect(reply.content.status).toBe('error');
      expect(errorOf(reply).evalue).toContain(
        'timeout: takes the seconds one answer may take, from 0.1 to 86400 (a day); write for example timeout=120'
      );
      expect(engine.requests.length).toBe(before);
    }
  );

  it.each(['1KB', '2GiB', 'lots'])(
    'max_answer=%s is refused with the range and what to write',
    async value => {
      const before = engine.requests.length;
      const { reply } = await kernel.execute(
        `%connect elasticsearch ${engine.url} auth=none max_answer=${value}`
      );
      expect(reply.content.status).toBe('error');
      expect(errorOf(reply).evalue).toContain(
        'max_answer: takes the bytes one answer may hold in memory, from 64KiB to 500MiB'
      );
      expect(engine.requests.length).toBe(before);
    }
  );
});
