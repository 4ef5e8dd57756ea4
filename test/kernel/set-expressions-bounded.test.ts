/**
 * `%set` expressions over answers, over ZeroMQ against a loopback engine: a name that only
 * Object.prototype holds (`constructor`, `toString`, `__proto__`, ...) matches nothing in an
 * answer without that key and the key itself where the answer has it; an expression that
 * multiplies its value is refused for its size, at once; one that runs on is stopped by an
 * interrupt, after which the kernel answers within a second.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { type ExecuteReply, KernelClient } from '../support/kernel-client';

jest.setTimeout(60_000);

const INHERITED = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__'
];

let kernel: KernelClient;
let engine: HostileEngine;
/** The bodies /echo/_search was sent. */
const echoed: string[] = [];

const answer =
  (text: string) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'x-elastic-product': 'Elasticsearch',
      'content-type': 'application/json'
    });
    res.end(text);
  };

beforeAll(async () => {
  engine = await startHostileEngine({
    '/plain/_count': answer('{"count": 3, "_shards": {"total": 1}}'),
    // Six million characters of text: a variable near the most one holds.
    '/large/_count': answer(`{"count": 1, "pad": "${'x'.repeat(6_000_000)}"}`),
    // Every inherited name as a key of the answer, written as JSON so `__proto__` is one too.
    '/own/_count': answer(
      `{${INHERITED.map(name => `"${name}": "${name} of the answer"`).join(', ')}}`
    ),
    '/echo/_search': (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        echoed.push(body);
        answer('{"hits": {"hits": []}}')(req, res);
      });
    }
  });
  kernel = await KernelClient.start();
  const connected = await kernel.execute(
    `%connect elasticsearch ${engine.url} auth=none name=odd`
  );
  expect(connected.reply.content.status).toBe('ok');
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

async function run(code: string) {
  return (await kernel.execute(code)).reply.content;
}

/** What a refused cell said (empty for a cell that ran). */
const evalue = (content: ExecuteReply['content'] | undefined) =>
  content && 'evalue' in content ? content.evalue : '';

it.each(INHERITED)(
  '`%%set c = %s` matches nothing over an answer without that key (and %%vars still answers), and reads the key where the answer has it, which ${c} sends',
  async name => {
    expect((await run('GET /plain/_count')).status).toBe('ok');
    const set = await run(`%set c = ${name}`);
    expect(set).toMatchObject({ status: 'error', ename: 'InvalidExpression' });
    expect(evalue(set)).toContain(
      `\`${name}\` on line 1 matched nothing in the last answer (odd: GET /plain/_count).`
    );
    expect((await run('%vars')).status).toBe('ok');

    expect((await run('GET /own/_count')).status).toBe('ok');
    expect((await run(`%set c = ${name}`)).status).toBe('ok');
    expect((await run('%vars')).status).toBe('ok');
    echoed.length = 0;
    expect((await run('GET /echo/_search\n{"x": ${c}}')).status).toBe('ok');
    expect(echoed.map(body => JSON.parse(body) as unknown)).toEqual([
      { x: `${name} of the answer` }
    ]);
  }
);

it('an expression that doubles its value thirty times is refused for its size at once, and the kernel keeps answering', async () => {
  expect((await run('GET /plain/_count')).status).toBe('ok');
  const started = performance.now();
  const set = await run(`%set exp = @${' | [@, @]'.repeat(30)}`);
  expect(set).toMatchObject({ status: 'error', ename: 'ValueTooLarge' });
  expect(evalue(set)).toContain(
    'was stopped over the last answer (odd: GET /plain/_count): its value would be more than 8 MB of JSON, the most a variable holds.'
  );
  // Refused while measured, never written out: well inside the time an expression may run.
  expect(performance.now() - started).toBeLessThan(5_000);
  const vars = await kernel.execute('%vars');
  expect(vars.reply.content.status).toBe('ok');
  expect(JSON.stringify(vars.iopub)).not.toContain('"exp"');
  // So does a literal that doubles a variable: refused before it is kept.
  expect((await run('%set v = "0123456789abcdef"')).status).toBe('ok');
  let refused;
  for (let i = 0; i < 30 && !refused; i++) {
    const r = await run('%set v = [${v}, ${v}]');
    if (r.status !== 'ok') {
      refused = r;
    }
  }
  expect(refused).toMatchObject({ status: 'error', ename: 'ValueTooLarge' });
  expect(evalue(refused)).toContain(
    'would be more than 8 MB of JSON, the most a variable holds.'
  );
});

it('a cell whose ${…} references would write more than 32 MB is refused, and nothing is sent', async () => {
  expect((await run('GET /large/_count')).status).toBe('ok');
  expect((await run('%set big = pad')).status).toBe('ok');
  echoed.length = 0;
  const refs = Array.from({ length: 6 }, () => '${big}').join(', ');
  const refused = await run(`GET /echo/_search\n{"q": [${refs}]}`);
  expect(refused).toMatchObject({ status: 'error', ename: 'ValueTooLarge' });
  expect(evalue(refused)).toContain(
    "would take this cell's variable references past 32 MB of JSON, the most one cell writes from variables."
  );
  expect(echoed).toEqual([]);
  // Fewer are sent.
  expect((await run('GET /echo/_search\n{"q": [${big}, ${big}]}')).status).toBe(
    'ok'
  );
  expect(echoed).toHaveLength(1);
});

it.each([
  ['%set', `%set slow = @${' | [@, @]'.repeat(30)} | ${'[]'.repeat(30)}`],
  [
    'a %set after a ${…} reference',
    `%set base = [1, 2]\n%set other = [\${base}, \${base}]\n%set slow = @${' | [@, @]'.repeat(30)} | sort(${'[]'.repeat(30)})`
  ]
])(
  'an interrupt stops an expression that runs on (%s), and the kernel answers kernel_info within a second of it',
  async (_what, code) => {
    expect((await run('GET /plain/_count')).status).toBe('ok');
    const cell = await kernel.submit('shell', 'execute_request', {
      code,
      silent: false,
      store_history: true,
      user_expressions: {},
      allow_stdin: false,
      stop_on_error: true
    });
    // Let it run a while.
    await new Promise(r => setTimeout(r, 700));
    const interrupted = performance.now();
    const interrupt = await kernel.request(
      'control',
      'interrupt_request',
      {},
      1_000
    );
    expect(interrupt.content.status).toBe('ok');
    const info = await kernel.request(
      'shell',
      'kernel_info_request',
      {},
      1_000
    );
    expect(info.content.status).toBe('ok');
    expect(performance.now() - interrupted).toBeLessThan(1_000);
    expect((await cell.reply).content).toMatchObject({
      status: 'error',
      ename: 'Interrupted'
    });
    expect((await run('%set n = count')).status).toBe('ok');
  }
);
