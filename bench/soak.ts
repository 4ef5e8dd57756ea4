/**
 * Soak: a real kernel over ZeroMQ fed hostile engine answers and fuzzed cells for a bounded
 * time, then asked whether it still answers and how much memory it kept.
 *
 * The engine is a loopback HTTP server that answers `GET /` as Elasticsearch 8 and every other
 * path with one of the behaviours a broken or hostile server shows: a body larger than the
 * connection's answer cap, a trickle after the headers, JSON nested 100,000 deep, redirects,
 * empty error bodies, gzip, invalid JSON, terminal escapes, documents whose keys are
 * JavaScript property names, a socket cut mid-body. Cells are drawn from those paths and from
 * fast-check strings (seeded, so a run can be repeated); every tenth cell is interrupted.
 *
 * Prints the kernel's RSS after warm-up, its peak, and at the end after a pause, with the ratio
 * end / warm-up; the cells run and how they ended; whether kernel_info answered. Asserts nothing
 * and stops by itself (at most --seconds, default 120, and --cells, default 3,000).
 *
 *   npm run build:kernel && node dist/bench/soak.js [--seconds 120] [--cells 3000] [--seed 1]
 */
import {
  createServer,
  type IncomingMessage,
  type ServerResponse
} from 'node:http';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { KernelClient } from '../test/support/kernel-client';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    cells: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '1' }
  }
});
const SECONDS = Number(args.seconds);
const MAX_CELLS = Number(args.cells);
const SEED = Number(args.seed);

/** Each hostile behaviour, by path. The answer cap of the soak's connection is set below this size. */
const BIG_BYTES = 48 * 1024 * 1024;
const HOSTILE_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
  'k'.repeat(3000),
  'a.b'
];

function hits(count: number, withKeys: boolean): string {
  const docs = Array.from({ length: count }, (_, i) => {
    const source: Record<string, unknown> = Object.create(null) as Record<
      string,
      unknown
    >;
    source.title = `doc ${i}`;
    if (withKeys && i % 2 === 0) {
      for (const key of HOSTILE_KEYS) {
        source[key] = `${key.slice(0, 20)}-${i}`;
      }
    }
    return { _index: 'soak', _id: String(i), _score: 1, _source: source };
  });
  return JSON.stringify({
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { total: { value: count, relation: 'eq' }, max_score: 1, hits: docs }
  });
}

const BEHAVIOURS: Record<
  string,
  (req: IncomingMessage, res: ServerResponse) => void
> = {
  big: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = (): void => {
      while (sent < BIG_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          return void res.once('drain', more);
        }
      }
      res.end('{}');
    };
    res.write('{"pad":"');
    more();
  },
  trickle: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 200);
    res.on('close', () => clearInterval(timer));
    setTimeout(() => res.end('{}'), 30_000).unref();
  },
  deep: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('['.repeat(100_000) + ']'.repeat(100_000));
  },
  redirect: (_req, res) => {
    res.writeHead(301, { location: 'http://127.0.0.1:1/elsewhere' });
    res.end();
  },
  empty500: (_req, res) => {
    res.writeHead(503);
    res.end();
  },
  gzip: (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip'
    });
    res.end(gzipSync(hits(200, false)));
  },
  badjson: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"hits": {"hits": [ {"_id": 1,');
  },
  ansi: (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('health \u001b[31mred\u001b[0m \u0007\u0000 index\n');
  },
  keys: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(hits(500, true));
  },
  cut: (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': '100000'
    });
    res.write('{"hits":{"hits":[');
    setTimeout(() => res.destroy(), 20).unref();
  },
  wide: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        hits: {
          total: { value: 1, relation: 'eq' },
          hits: [{ _id: '1', _source: { text: 'x'.repeat(6 * 1024 * 1024) } }]
        }
      })
    );
  }
};
const PATHS = Object.keys(BEHAVIOURS);

function engine(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('x-elastic-product', 'Elasticsearch');
  req.resume();
  const name = /^\/h\/(\w+)/.exec(req.url ?? '')?.[1];
  const behaviour = name ? BEHAVIOURS[name] : undefined;
  if (behaviour) {
    return behaviour(req, res);
  }
  res.setHeader('content-type', 'application/json');
  if (req.url === '/' || req.url === '/?') {
    res.end(
      JSON.stringify({
        name: 'soak',
        cluster_name: 'soak',
        version: { number: '8.19.0', build_flavor: 'default' },
        tagline: 'You Know, for Search'
      })
    );
    return;
  }
  res.end(hits(3, false));
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return (
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
  );
}

/** Cells: mostly the hostile paths, the rest fuzzed text (some shaped like requests). */
function cellSource(seed: number): () => string {
  const fuzz = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .tuple(
        fc.constantFrom(
          'GET',
          'POST',
          'PUT',
          'DELETE',
          'get',
          'SELECT',
          '%connect',
          '%export',
          '%set'
        ),
        fc.string({ maxLength: 80 }),
        fc.json({ maxDepth: 6 })
      )
      .map(([m, p, b]) => `${m} /${p}\n${b}`)
  );
  const samples = fc.sample(fuzz, { seed, numRuns: 2000 });
  let i = 0;
  return () => {
    i++;
    if (i % 3 === 0) {
      return samples[i % samples.length] ?? '';
    }
    return `GET /h/${PATHS[i % PATHS.length]}`;
  };
}

async function main(): Promise<void> {
  const server = createServer(engine);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const kernel = await KernelClient.start();
  const pid = kernel.process.pid as number;
  const outcomes = new Map<string, number>();
  const count = (what: string) =>
    outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
  let cells = 0;
  try {
    // A cap well below the big answer, a short timeout for the trickle.
    const connect = await kernel.execute(
      `%connect elasticsearch ${url} auth=none timeout=2 max_answer=16MiB`
    );
    if (connect.reply.content.status !== 'ok') {
      const fallback = await kernel.execute(
        `%connect elasticsearch ${url} auth=none timeout=2`
      );
      console.log(
        `connect with an answer cap failed (${JSON.stringify(connect.reply.content)}); without: ${String(fallback.reply.content.status)}`
      );
    }
    for (let i = 0; i < 20; i++) {
      await kernel.execute(`GET /h/keys`);
    }
    const warmRss = rssMb(pid, 'VmRSS');
    const next = cellSource(SEED);
    const started = Date.now();
    while (
      cells < MAX_CELLS &&
      Date.now() - started < SECONDS * 1000 &&
      kernel.process.exitCode === null
    ) {
      cells++;
      const code = next();
      const { id, reply } = await kernel.submit('shell', 'execute_request', {
        code,
        silent: false,
        store_history: true,
        user_expressions: {},
        allow_stdin: false,
        stop_on_error: false
      });
      if (cells % 10 === 0) {
        setTimeout(
          () =>
            void kernel
              .request('control', 'interrupt_request', {}, 5_000)
              .catch(() => undefined),
          50
        );
      }
      const answered = await Promise.race([
        reply,
        new Promise<undefined>(r => setTimeout(() => r(undefined), 20_000))
      ]);
      if (!answered) {
        count('no reply within 20 s');
        break;
      }
      count(
        String(
          answered.content.status === 'error'
            ? `error ${String(answered.content.ename)}`
            : answered.content.status
        )
      );
      await kernel
        .iopubFor(id, 20_000)
        .catch(() => count('no idle within 20 s'));
    }
    const elapsed = (Date.now() - started) / 1000;
    await new Promise(r => setTimeout(r, 5_000));
    const info = await kernel
      .request('shell', 'kernel_info_request', {}, 5_000)
      .then(
        () => 'answered',
        (err: Error) => `did not answer (${err.message})`
      );
    const alive = kernel.process.exitCode === null;
    const endRss = alive ? rssMb(pid, 'VmRSS') : NaN;
    const peak = alive ? rssMb(pid, 'VmHWM') : NaN;
    console.log(
      `soak: ${cells} cells in ${elapsed.toFixed(0)} s (seed ${SEED}); kernel ${alive ? 'alive' : `exited ${String(kernel.process.exitCode)}`}; kernel_info ${info}`
    );
    console.log(
      `  RSS after warm-up ${warmRss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, end ${endRss.toFixed(0)} MB (end / warm-up ${(endRss / warmRss).toFixed(2)})`
    );
    for (const [what, n] of [...outcomes].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${String(n).padStart(5)}  ${what}`);
    }
  } finally {
    await kernel.close();
    server.closeAllConnections();
    server.close();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
