/**
 * searchbook's Python magics send the `%set` lines of a cell's Python values in the
 * execute_request's metadata, `{"searchbook": {"setFirst": ["%set n = 5"]}}`, so a magic call
 * is one request: over ZeroMQ against the sandbox, the lines set the variables before the cell
 * runs, a refused line fails the request with its own error and nothing of the cell is sent,
 * and anything but a `%set` line is refused unrun.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { KernelClient } from '../support/kernel-client';
import { displays } from '../support/shown-text';

jest.setTimeout(60_000);

let kernel: KernelClient;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [kernel, sandbox] = await Promise.all([
    KernelClient.start(),
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: 'unused',
      tsApiKey: 'unused',
      security: false,
      products: 200
    })
  ]);
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${sandbox.esUrl} name=es`
  );
  expect(reply.content).toMatchObject({ status: 'ok' });
});

afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

const setFirst = (lines: string[]) => ({ searchbook: { setFirst: lines } });

async function engineCount(query: string): Promise<number> {
  const res = await fetch(
    `${sandbox.esUrl}/products/_count?q=${encodeURIComponent(query)}`
  );
  return ((await res.json()) as { count: number }).count;
}

/** The `count` of the answer a cell shows. */
async function countShown(code: string, lines: string[]): Promise<number> {
  const { reply, iopub } = await kernel.execute(code, {}, setFirst(lines));
  expect(reply.content).toMatchObject({ status: 'ok' });
  const [shown] = displays(iopub);
  return (shown?.['application/json'] as { count: number }).count;
}

it('the metadata’s %set lines set the variables the cell reads, in order', async () => {
  const lines = ['%set low = 100', '%set range = {"gte": ${low}}'];
  expect(
    await countShown(
      'GET /products/_count\n{"query": {"range": {"price": ${range}}}}',
      lines
    )
  ).toBe(await engineCount('price:>=100'));
  // Set in the kernel as a cell's %set would: the next cell reads them without metadata.
  const { reply } = await kernel.execute('%vars');
  expect(reply.content).toMatchObject({ status: 'ok' });
  expect(await countShown('GET /products/_count?q=price:>=${low}', [])).toBe(
    await engineCount('price:>=100')
  );
});

it('a refused %set line fails the request with its error, and the cell is not sent', async () => {
  const index = `set-first-${Date.now()}`;
  const { reply, iopub } = await kernel.execute(
    `PUT /${index}/_doc/1?refresh=true\n{"n": 1}`,
    {},
    setFirst(['%set 1n = 1'])
  );
  expect(reply.content).toMatchObject({ status: 'error' });
  expect(iopub.some(m => m.header.msg_type === 'error')).toBe(true);
  expect((await fetch(`${sandbox.esUrl}/${index}/_doc/1`)).status).toBe(404);
});

it('anything but one %set line per entry is refused unrun', async () => {
  const index = `set-first-other-${Date.now()}`;
  for (const line of [
    `PUT /${index}/_doc/1?refresh=true\n{"n": 1}`,
    '%set n = 1\n%use es'
  ]) {
    const { reply } = await kernel.execute('%vars', {}, setFirst([line]));
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'SetUsage'
    });
  }
  expect((await fetch(`${sandbox.esUrl}/${index}/_doc/1`)).status).toBe(404);
});
