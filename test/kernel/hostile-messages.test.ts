/**
 * Messages no frontend should send, over ZeroMQ: each is answered with an error that names
 * the bound it crossed, and the kernel process stays up and goes on answering and running cells.
 */
import { randomUUID } from 'node:crypto';
import {
  PANEL_PROTOCOL_VERSION,
  GridReplySchema
} from '../../contracts/panel-protocol';
import { PanelCommClient } from '../panel/panel-comm-client';
import { KernelClient } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(30_000);

let kernel: KernelClient;
let comm: PanelCommClient;

beforeAll(async () => {
  kernel = await KernelClient.start();
  comm = await PanelCommClient.open(kernel);
});
afterAll(async () => kernel?.close());

/** An object nested `depth` levels deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) {
    value = { a: value };
  }
  return value;
}

async function commReply(
  data: Record<string, unknown>
): Promise<ReturnType<typeof GridReplySchema.parse>> {
  const requestId = randomUUID();
  await kernel.submit('shell', 'comm_msg', {
    comm_id: comm.commId,
    data: { v: PANEL_PROTOCOL_VERSION, requestId, ...data }
  });
  for (let i = 0; i < 500; i++) {
    const found = kernel
      .iopubMessages()
      .filter(KernelMessage.isCommMsgMsg)
      .find(m => m.content.data.requestId === requestId);
    if (found) {
      return GridReplySchema.parse(found.content.data);
    }
    if (kernel.process.exitCode !== null) {
      throw new Error(`the kernel exited: ${kernel.stderr}`);
    }
    await new Promise(r => setTimeout(r, 20));
  }
  throw new Error(`no reply to ${requestId}`);
}

async function stillServing(): Promise<void> {
  if (kernel.process.exitCode !== null) {
    throw new Error(`the kernel exited: ${kernel.stderr}`);
  }
  expect(
    (await kernel.request('shell', 'kernel_info_request', {})).content.status
  ).toBe('ok');
  const { reply } = await kernel.execute('%set after = 1\n%vars');
  expect(reply.content.status).toBe('ok');
  expect(kernel.process.exitCode).toBeNull();
}

it('a plan request nested 2,000 objects deep is answered with an error naming the bound, and the kernel keeps serving', async () => {
  const change = {
    kind: 'update',
    key: 'k',
    row: { index: 'i', id: '1' },
    expected: { f: nested(2_000) },
    fields: { f: 'x' }
  };
  const reply = await commReply({
    type: 'plan',
    gridId: 'g',
    changes: [change]
  });
  expect(reply).toMatchObject({ type: 'error' });
  expect(reply.type === 'error' && reply.message).toBe(
    'searchbook.panel refuses this message: it is nested more than 200 levels deep. Send smaller requests (fewer changes per save, shallower values).'
  );
  await stillServing();
});

it('a message just within the bound is read by its schema as usual', async () => {
  const change = {
    kind: 'update',
    key: 'k',
    row: { index: 'i', id: '1' },
    expected: { f: nested(190) },
    fields: { f: 'x' }
  };
  const reply = await commReply({
    type: 'plan',
    gridId: 'g',
    changes: [change]
  });
  expect(reply.type === 'error' && reply.message).toMatch(
    /^No grid g is open in this kernel/
  );
});

it('a comm message holding more values than the bound is refused by name', async () => {
  const reply = await commReply({
    type: 'curl',
    cell: 'GET /',
    padding: new Array(2_000_001).fill(0)
  });
  expect(reply.type === 'error' && reply.message).toMatch(
    /^searchbook\.panel refuses this message: it holds more than 2,000,000 JSON values\./
  );
  await stillServing();
});

it('a shell request nested 2,000 deep gets an error reply naming the bound', async () => {
  const reply = await kernel.request('shell', 'execute_request', {
    code: '%vars',
    silent: false,
    store_history: false,
    user_expressions: nested(2_000),
    allow_stdin: false
  });
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'MessageRefused',
    evalue:
      'searchbook refuses this execute_request: it is nested more than 200 levels deep.'
  });
  await stillServing();
});

it('a cell of 400,000 request lines is read in one pass: is_complete answers within its bound and the kernel goes on', async () => {
  // Each request line used to search the rest of the cell for `${`: a minute of blocked event loop.
  const cell = Array.from(
    { length: 400_000 },
    (_, i) => `GET /books/_doc/${i}`
  ).join('\n');
  const reply = await kernel.request(
    'shell',
    'is_complete_request',
    { code: cell },
    30_000
  );
  expect(reply.content.status).toBe('complete');
  await stillServing();
});
