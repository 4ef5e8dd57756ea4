/**
 * A connection to two nodes, over ZeroMQ against loopback servers, when the first node fails
 * in the middle of a request rather than refusing it: it resets the connection mid-answer,
 * holds the request without answering, or trickles its answer. The failing node is marked dead
 * for its back-off, as the official clients' connection pools do: the next requests go to the
 * second node (a reset GET at once), and the first is tried again once its back-off passed.
 */
import type { ServerResponse } from 'node:http';
import {
  type HostileEngine,
  startHostileEngine,
  trickleBody
} from '../support/hostile-engine';
import { KernelClient, type IopubMessage } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(60_000);

const ANSWER = JSON.stringify({
  took: 1,
  timed_out: false,
  hits: {
    total: { value: 1, relation: 'eq' },
    hits: [{ _index: 'items', _id: '1', _score: 1, _source: { n: 1 } }]
  }
});

type Failure = 'reset' | 'hang' | 'trickle';

const headers = (res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.setHeader('x-elastic-product', 'Elasticsearch');
};

/** Node A: answers GET / (so %connect reaches it first), fails every search its own way. */
const failing: Record<Failure, (res: ServerResponse) => void> = {
  reset: res => {
    headers(res);
    res.write(ANSWER.slice(0, 40));
    setTimeout(() => res.socket?.destroy(), 50);
  },
  hang: () => undefined,
  trickle: res => {
    headers(res);
    void trickleBody(res, ANSWER, 200);
  }
};

let kernel: KernelClient;
const engines: HostileEngine[] = [];

beforeAll(async () => {
  kernel = await KernelClient.start();
});
afterAll(async () => {
  await kernel?.close();
  await Promise.all(engines.map(e => e.close()));
});

/** Two fresh nodes and a connection (`timeout=1`) listing the failing one first. */
async function twoNodes(failure: Failure) {
  const a = await startHostileEngine({
    '/items/_search': (_req, res) => failing[failure](res)
  });
  const b = await startHostileEngine({
    '/items/_search': (_req, res) => {
      headers(res);
      res.end(ANSWER);
    }
  });
  engines.push(a, b);
  const { reply, iopub } = await kernel.execute(
    `%connect elasticsearch hosts=${a.url.slice(7)},${b.url.slice(7)} auth=none timeout=1 name=${failure}`
  );
  expect(reply.content.status).toBe('ok');
  expect(plain(iopub)).toContain(`at ${a.url} as "${failure}"`);
  const searches = (e: HostileEngine) =>
    e.requests.filter(r => r.startsWith('/items/_search')).length;
  return { a, b, searches };
}

function plain(iopub: IopubMessage[]): string {
  return iopub
    .map(m =>
      KernelMessage.isErrorMsg(m)
        ? m.content.evalue
        : 'data' in m.content
          ? String(m.content.data['text/plain'] ?? '')
          : ''
    )
    .join('\n');
}

const search = () => kernel.execute('GET /items/_search');

it('a GET whose answer the first node cuts off mid-way is answered by the second, which the next requests go to', async () => {
  const { a, b, searches } = await twoNodes('reset');
  const first = await search();
  expect(first.reply.content.status).toBe('ok');
  expect(plain(first.iopub)).toMatch(
    new RegExp(
      `answered by ${b.url.slice(7)} \\(${a.url.slice(7)} did not answer: it closed the connection in the middle of its answer`
    )
  );
  for (let i = 0; i < 3; i++) {
    expect((await search()).reply.content.status).toBe('ok');
  }
  expect([searches(a), searches(b)]).toEqual([1, 4]);
  // Its back-off (1 s after one failure) passed: it is tried first again, and fails over again.
  await new Promise(r => setTimeout(r, 1_200));
  expect((await search()).reply.content.status).toBe('ok');
  expect([searches(a), searches(b)]).toEqual([2, 5]);
});

for (const failure of ['hang', 'trickle'] as const) {
  it(`a node that ${failure === 'hang' ? 'holds a request without answering' : 'trickles its answer'} is left out once its deadline passed; the next requests go to the second`, async () => {
    const { a, b, searches } = await twoNodes(failure);
    const first = await search();
    expect(first.reply.content.status).toBe('error');
    expect(plain(first.iopub)).toContain(
      `Node ${a.url.slice(7)} is left out for the next 1 s: run the cell again to send it to ${b.url.slice(7)}.`
    );
    for (let i = 0; i < 3; i++) {
      const next = await search();
      expect(next.reply.content.status).toBe('ok');
      expect(plain(next.iopub)).toContain(`answered by ${b.url.slice(7)}`);
    }
    expect([searches(a), searches(b)]).toEqual([1, 3]);
  });
}

it('connecting through a first node that is down says which node it connected to', async () => {
  const down = await startHostileEngine({});
  const downAddress = down.url.slice(7);
  await down.close();
  const b = await startHostileEngine({});
  engines.push(b);
  const { reply, iopub } = await kernel.execute(
    `%connect elasticsearch hosts=${downAddress},${b.url.slice(7)} auth=none name=through`
  );
  expect(reply.content.status).toBe('ok');
  const text = plain(iopub);
  expect(text).toContain(`at ${b.url} as "through"`);
  expect(text).not.toContain(`at http://${downAddress} as`);
});
