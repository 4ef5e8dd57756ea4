/**
 * What the kernel says of an answer just past a cap, or one it cannot read, over ZeroMQ
 * against a loopback engine: a size one byte past a cap is said so (never as the cap itself),
 * and headers larger than the client reads are said to be that, not an unreachable engine.
 */
import { MAX_ANSWER_BYTES } from '../../kernel/src/console/answers';
import { DEFAULT_ANSWER_CAP_BYTES } from '../../kernel/src/driver-core/request-bounds';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { KernelClient, errorOf } from '../support/kernel-client';

jest.setTimeout(60_000);

let kernel: KernelClient;
let engine: HostileEngine;

const JSON_HEADERS = {
  'x-elastic-product': 'Elasticsearch',
  'content-type': 'application/json'
};

/** `{"count": 1, "pad": "…"}` of exactly `bytes` bytes. */
function answerOf(bytes: number): string {
  const head = '{"count": 1, "pad": "';
  const tail = '"}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

beforeAll(async () => {
  engine = await startHostileEngine({
    '/announced/_search': (_req, res) => {
      res.writeHead(200, {
        ...JSON_HEADERS,
        'content-length': String(DEFAULT_ANSWER_CAP_BYTES + 1)
      });
      res.write('{"hits": ');
    },
    '/kept/_search': (_req, res) => {
      res.writeHead(200, JSON_HEADERS);
      res.end(answerOf(MAX_ANSWER_BYTES + 1));
    },
    '/headers/_search': (_req, res) => {
      res.writeHead(200, { ...JSON_HEADERS, warning: 'w'.repeat(20_000) });
      res.end('{"count": 1}');
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

it('an answer announcing one byte more than the cap is said to be that', async () => {
  const { reply } = await kernel.execute('GET /announced/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Answer too large'
  });
  expect(errorOf(reply).evalue).toContain(
    'is larger than the 256 MiB one answer may hold in memory (max_answer of this connection): its Content-Length announced 268,435,457 bytes, 1 byte more than 256 MiB, so it was not read.'
  );
});

it('an answer one byte over what %set keeps is said to be that', async () => {
  expect((await kernel.execute('GET /kept/_search')).reply.content.status).toBe(
    'ok'
  );
  const { reply } = await kernel.execute('%set n = count');
  expect(reply.content.status).toBe('error');
  expect(errorOf(reply).evalue).toContain(
    'The last answer (odd: GET /kept/_search, 8,388,609 bytes, 1 byte more than 8 MB) was not kept: searchbook keeps answers of up to 8 MB for %set.'
  );
});

it('headers larger than the client reads are said to be that, not an engine out of reach', async () => {
  const { reply } = await kernel.execute('GET /headers/_search');
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Unreadable answer'
  });
  const said = errorOf(reply).evalue;
  expect(said).toContain(
    'The answer of odd could not be read: its headers are larger than the 16 KiB searchbook reads of them (UND_ERR_HEADERS_OVERFLOW'
  );
  expect(said).not.toContain('could not be reached');
});
