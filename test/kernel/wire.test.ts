import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PANEL_PROTOCOL_VERSION } from '../../contracts/panel-protocol';
import {
  KernelClient,
  REPO,
  type IopubMessage,
  okOf
} from '../support/kernel-client';
import { type SlowEngine, startSlowEngine } from '../support/slow-engine';
import { KernelMessage } from '../support/kernel-messages';

const types = (messages: IopubMessage[]) =>
  messages.map(m => m.header.msg_type);

describe('the kernel over ZeroMQ', () => {
  let kernel: KernelClient;

  beforeAll(async () => {
    kernel = await KernelClient.start();
  });
  afterAll(async () => {
    await kernel.close();
  });

  test.each(['shell', 'control'] as const)(
    'answers kernel_info_request on %s, with busy and idle around it',
    async channel => {
      const reply = await kernel.request(channel, 'kernel_info_request', {});
      expect(reply.header.msg_type).toBe('kernel_info_reply');
      expect(reply.content).toMatchObject({
        status: 'ok',
        protocol_version: '5.3',
        implementation: 'searchbook',
        language_info: { name: 'searchbook', mimetype: 'text/x-searchbook' }
      });
      expect(
        types(await kernel.iopubFor(reply.parent_header.msg_id as string))
      ).toEqual(['status', 'status']);
    }
  );

  test('echoes heartbeats', async () => {
    expect(await kernel.heartbeat()).toBe(true);
  });

  test('drops a message with a forged signature and keeps answering signed ones', async () => {
    const { frames } = kernel.frames('kernel_info_request', {});
    frames[1] = Buffer.from('0'.repeat(64));
    await kernel.sendRaw('shell', frames);
    const reply = await kernel.request('shell', 'kernel_info_request', {});
    expect(reply.content.status).toBe('ok');
    await expect(kernel.stderrHolding('invalid signature')).resolves.toContain(
      'invalid signature'
    );
  });

  test('runs a cell: execute_input, display_data, then the reply with its execution count', async () => {
    const first = await kernel.execute('%set size = 3');
    const second = await kernel.execute('# a comment\n%vars');
    expect(first.reply.content).toMatchObject({ status: 'ok' });
    expect(second.reply.content.execution_count).toBe(
      (first.reply.content.execution_count as number) + 1
    );
    expect(types(second.iopub)).toEqual([
      'status',
      'execute_input',
      'display_data',
      'status'
    ]);
    expect(
      second.iopub
        .filter(KernelMessage.isStatusMsg)
        .map(m => m.content.execution_state)
    ).toEqual(['busy', 'idle']);
    expect(second.iopub.find(KernelMessage.isExecuteInputMsg)?.content).toEqual(
      {
        code: '# a comment\n%vars',
        execution_count: second.reply.content.execution_count
      }
    );
    const data = second.iopub.find(KernelMessage.isDisplayDataMsg)?.content
      .data;
    expect(data?.['text/plain']).toMatch(/size\s+3/);
    expect(data?.['text/html']).toContain('<td>size</td>');
  });

  test('refuses SQL with an error output that shows the request form, and runs later cells', async () => {
    const { reply, iopub } = await kernel.execute('SELECT * FROM products');
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'SQLRefused'
    });
    const error = iopub.find(KernelMessage.isErrorMsg);
    expect(error?.content.evalue).toMatch(/HTTP requests, not SQL/);
    expect(error?.content.traceback.join('\n')).toContain(
      'GET /my-index/_search'
    );
    expect(error?.content.traceback.join('\n')).not.toMatch(/at .*\.js:\d+/);
    const after = await kernel.execute('%vars');
    expect(after.reply.content.status).toBe('ok');
  });

  test('tells a console whether a cell is complete', async () => {
    const open = await kernel.request('shell', 'is_complete_request', {
      code: 'GET /products/_search\n{\n  "query": {'
    });
    expect(open.content).toMatchObject({
      status: 'incomplete',
      indent: expect.any(String)
    });
    const done = await kernel.request('shell', 'is_complete_request', {
      code: 'GET /products/_search\n{"query": {"match_all": {}}}'
    });
    expect(done.content.status).toBe('complete');
    const sql = await kernel.request('shell', 'is_complete_request', {
      code: 'SELECT * FROM products'
    });
    expect(sql.content.status).toBe('invalid');
  });

  test('completes methods and magics, counting the cursor in code points', async () => {
    const method = await kernel.request('shell', 'complete_request', {
      code: 'PU',
      cursor_pos: 2
    });
    expect(method.content).toMatchObject({
      status: 'ok',
      cursor_start: 0,
      cursor_end: 2
    });
    expect(okOf(method).matches).toContain('PUT');
    const code = '# 🔎 search\n%con';
    const magic = await kernel.request('shell', 'complete_request', {
      code,
      cursor_pos: [...code].length
    });
    expect(okOf(magic).matches).toEqual(
      expect.arrayContaining(['%connect', '%connections'])
    );
    expect(okOf(magic).cursor_end).toBe([...code].length);
  });

  test('explains a magic under the cursor', async () => {
    const reply = await kernel.request('shell', 'inspect_request', {
      code: '%set size = 3',
      cursor_pos: 2,
      detail_level: 0
    });
    expect(reply.content).toMatchObject({ status: 'ok', found: true });
    expect((okOf(reply).data as Record<string, string>)['text/plain']).toMatch(
      /%set/
    );
  });

  test('round-trips a comm on searchbook.panel and closes comms to unknown targets', async () => {
    const open = await kernel.submit('shell', 'comm_open', {
      comm_id: 'c1',
      target_name: 'searchbook.panel',
      data: {}
    });
    await kernel.iopubFor(open.id);
    const info = await kernel.request('shell', 'comm_info_request', {
      target_name: 'searchbook.panel'
    });
    expect(info.content).toEqual({
      status: 'ok',
      comms: { c1: { target_name: 'searchbook.panel' } }
    });
    // Grid replies run beside the shell loop, so they may follow the request's idle.
    const replyTo = async (requestId: string | null) => {
      for (let tries = 0; tries < 250; tries++) {
        const found = kernel
          .iopubMessages()
          .filter(KernelMessage.isCommMsgMsg)
          .find(m => m.content.data.requestId === requestId);
        if (found) {
          return found.content;
        }
        await new Promise(r => setTimeout(r, 20));
      }
      throw new Error(`no grid reply to ${requestId}`);
    };
    await kernel.submit('shell', 'comm_msg', {
      comm_id: 'c1',
      data: { v: PANEL_PROTOCOL_VERSION, type: 'connections', requestId: 'r1' }
    });
    expect(await replyTo('r1')).toEqual({
      comm_id: 'c1',
      data: {
        v: PANEL_PROTOCOL_VERSION,
        type: 'connections',
        requestId: 'r1',
        connections: []
      }
    });
    await kernel.submit('shell', 'comm_msg', {
      comm_id: 'c1',
      data: { v: PANEL_PROTOCOL_VERSION, type: 'drop-tables' }
    });
    expect((await replyTo(null)).data).toMatchObject({
      type: 'error',
      requestId: null
    });
    const unknown = await kernel.submit('shell', 'comm_open', {
      comm_id: 'c2',
      target_name: 'nobody',
      data: {}
    });
    const closed = (await kernel.iopubFor(unknown.id)).find(
      KernelMessage.isCommCloseMsg
    );
    expect(closed?.content.comm_id).toBe('c2');
    const close = await kernel.submit('shell', 'comm_close', {
      comm_id: 'c1',
      data: {}
    });
    await kernel.iopubFor(close.id);
    expect(
      okOf(await kernel.request('shell', 'comm_info_request', {})).comms
    ).toEqual({});
  });
});

describe('interrupting a slow request', () => {
  let kernel: KernelClient;
  let engine: SlowEngine;

  beforeAll(async () => {
    [kernel, engine] = await Promise.all([
      KernelClient.start(),
      startSlowEngine()
    ]);
  });
  afterAll(async () => {
    await Promise.all([kernel.close(), engine.close()]);
  });

  test('aborts the HTTP request in flight, ends the cell as interrupted, and later cells run', async () => {
    const connect = await kernel.execute(
      `%connect elasticsearch ${engine.url}`
    );
    expect(connect.reply.content.status).toBe('ok');
    const cell = await kernel.submit('shell', 'execute_request', {
      code: 'GET /slow/_search',
      stop_on_error: true
    });
    await engine.slowArrived;
    const sentAt = performance.now();
    const interrupt = await kernel.request('control', 'interrupt_request', {});
    expect(interrupt.content.status).toBe('ok');
    const reply = await cell.reply;
    const abortedAt = await engine.slowAborted;
    // The figure for the note; the test asserts the behaviour: the socket really closed.
    process.stdout.write(
      `interrupt → request aborted at the server in ${(abortedAt - sentAt).toFixed(1)} ms\n`
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'Interrupted'
    });
    expect(abortedAt - sentAt).toBeLessThan(200);
    const after = await kernel.execute('%connections');
    expect(after.reply.content.status).toBe('ok');
  });

  test('during Run All: the interrupted cell fails as Interrupted and the cells queued behind it are aborted, as in ipykernel; later cells run', async () => {
    expect(
      (await kernel.execute(`%connect elasticsearch ${engine.url} name=slow`))
        .reply.content.status
    ).toBe('ok');
    const arrived = engine.slowArrivals();
    const running = await kernel.submit('shell', 'execute_request', {
      code: 'GET /slow/_search',
      stop_on_error: true
    });
    const queued = await kernel.submit('shell', 'execute_request', {
      code: '%set queued = 1',
      stop_on_error: true
    });
    await arrived;
    expect(
      (await kernel.request('control', 'interrupt_request', {})).content.status
    ).toBe('ok');
    expect((await running.reply).content).toMatchObject({
      status: 'error',
      ename: 'Interrupted'
    });
    expect((await queued.reply).content.status).toBe('aborted');
    const vars = await kernel.execute('%vars');
    expect(vars.reply.content.status).toBe('ok');
    expect(JSON.stringify(vars.iopub)).not.toContain('queued');
  });

  test('a storm of 500 interrupts stops the cell running when they came, never the next one', async () => {
    const short = await startSlowEngine(1_500);
    try {
      expect(
        (await kernel.execute(`%connect elasticsearch ${short.url} name=short`))
          .reply.content.status
      ).toBe('ok');
      expect(
        (await kernel.execute(`%connect elasticsearch ${engine.url} name=long`))
          .reply.content.status
      ).toBe('ok');
      const arrived = engine.slowArrivals();
      // Neither stops the cells behind it on error, so the next one starts as soon as the first is interrupted.
      const running = await kernel.submit('shell', 'execute_request', {
        code: 'GET /slow/_search',
        stop_on_error: false
      });
      await arrived;
      const storm: Promise<unknown>[] = [];
      for (let i = 0; i < 500; i++) {
        storm.push(
          (await kernel.submit('control', 'interrupt_request', {})).reply
        );
      }
      const next = await kernel.submit('shell', 'execute_request', {
        code: '%use short\nGET /slow/_search',
        stop_on_error: false
      });
      expect((await running.reply).content).toMatchObject({
        status: 'error',
        ename: 'Interrupted'
      });
      expect((await next.reply).content.status).toBe('ok');
      await Promise.all(storm);
      // One that comes while nothing runs is dropped too.
      expect(
        (await kernel.request('control', 'interrupt_request', {})).content
          .status
      ).toBe('ok');
      expect(
        (await kernel.execute('GET /slow/_search')).reply.content.status
      ).toBe('ok');
    } finally {
      await short.close();
    }
  });
});

describe('shutting down', () => {
  test('replies on control and the process exits', async () => {
    const kernel = await KernelClient.start();
    try {
      const reply = await kernel.request('control', 'shutdown_request', {
        restart: false
      });
      expect(reply.content).toEqual({ status: 'ok', restart: false });
      expect(await kernel.exited()).toBe(0);
    } finally {
      await kernel.close();
    }
  });
});

describe('a port already taken', () => {
  test('the kernel names the address it cannot listen on and exits, leaving no port bound', async () => {
    const client = new KernelClient();
    const { connectionFile, ports } = await client.prepare();
    const squatter = createServer();
    await new Promise<void>(resolve =>
      squatter.listen(ports.iopub_port, '127.0.0.1', resolve)
    );
    try {
      const kernel = spawn(
        process.execPath,
        [join(REPO, 'bin', 'searchbook.js'), 'kernel', connectionFile],
        { stdio: ['ignore', 'ignore', 'pipe'] }
      );
      let stderr = '';
      kernel.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>(resolve =>
        kernel.once('exit', resolve)
      );
      expect(code).toBe(1);
      expect(stderr).toContain(
        `cannot listen on tcp://127.0.0.1:${ports.iopub_port} (iopub)`
      );
      // The ports it did bind were released with it: Jupyter can start the next kernel there.
      const again = createServer();
      await new Promise<void>((resolve, reject) =>
        again
          .once('error', reject)
          .listen(ports.shell_port, '127.0.0.1', resolve)
      );
      again.close();
    } finally {
      squatter.close();
      await client.close();
    }
  });
});

describe('Run All after a failing cell', () => {
  let kernel: KernelClient;
  let engine: SlowEngine;

  beforeAll(async () => {
    [kernel, engine] = await Promise.all([
      KernelClient.start(),
      startSlowEngine(500)
    ]);
    const connect = await kernel.execute(
      `%connect elasticsearch ${engine.url}`
    );
    expect(connect.reply.content.status).toBe('ok');
  });
  afterAll(async () => {
    await Promise.all([kernel.close(), engine.close()]);
  });

  test('aborts the cells queued behind a failing one, as Run All expects', async () => {
    // Sent while a held search runs, so both are queued when the first fails (as Run All sends
    // them at once), whatever the machine's load does to the gap between two sends.
    const held = engine.slowArrivals();
    const running = await kernel.submit('shell', 'execute_request', {
      code: 'GET /slow/_search',
      stop_on_error: true
    });
    await held;
    const failing = await kernel.submit('shell', 'execute_request', {
      code: 'DELETE FROM books WHERE id = 1',
      stop_on_error: true
    });
    const queued = await kernel.submit('shell', 'execute_request', {
      code: '%set x = 1',
      stop_on_error: true
    });
    expect((await running.reply).content.status).toBe('ok');
    expect((await failing.reply).content.status).toBe('error');
    expect((await queued.reply).content.status).toBe('aborted');
    const vars = await kernel.execute('%vars');
    expect(JSON.stringify(vars.iopub)).not.toMatch(/\bx\b.*1/);
  });
});
