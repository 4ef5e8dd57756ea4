/**
 * Outputs a notebook keeps stay readable by Python's notebook tools, over ZeroMQ against a
 * loopback engine: an answer nested as deep as the kernel reads (1,000 levels) is accepted and
 * shown, its JSON output cut at 200 levels with a note in the cut part's place; a shallower one
 * is kept whole.
 */
import type { ServerResponse } from 'node:http';
import { JSON_MIME } from '../../contracts/mime-types';
import { MAX_ANSWER_DEPTH } from '../../kernel/src/driver-core/http/json-depth';
import {
  CUT_DEEPER,
  MAX_OUTPUT_DEPTH
} from '../../kernel/src/render/output-depth';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { KernelClient } from '../support/kernel-client';
import { displays, type MimeBundle } from '../support/shown-text';

jest.setTimeout(60_000);

let kernel: KernelClient;
let engine: HostileEngine;

/** `{"a": {"a": … 7 …}}`, `depth` objects deep. */
const nested = (depth: number) =>
  `${'{"a":'.repeat(depth)}7${'}'.repeat(depth)}`;

const answer = (depth: number) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, {
    'x-elastic-product': 'Elasticsearch',
    'content-type': 'application/json'
  });
  res.end(nested(depth));
};

beforeAll(async () => {
  engine = await startHostileEngine({
    '/deepest/_search': answer(MAX_ANSWER_DEPTH),
    '/kept/_search': answer(MAX_OUTPUT_DEPTH)
  });
  kernel = await KernelClient.start();
  const connected = await kernel.execute(
    `%connect elasticsearch ${engine.url} auth=none name=deep`
  );
  expect(connected.reply.content.status).toBe('ok');
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

/** How deep the value nests, and what its innermost part is. */
function innermost(value: unknown): { depth: number; at: unknown } {
  let depth = 0;
  let at = value;
  while (at !== null && typeof at === 'object') {
    at = (at as { a: unknown }).a;
    depth++;
  }
  return { depth, at };
}

async function shown(path: string): Promise<MimeBundle> {
  const { reply, iopub } = await kernel.execute(`GET ${path}`);
  expect(reply.content.status).toBe('ok');
  return displays(iopub)[0] ?? {};
}

it(`an answer nested ${MAX_ANSWER_DEPTH} levels is shown, its JSON output cut at ${MAX_OUTPUT_DEPTH} levels and saying so there; one nested ${MAX_OUTPUT_DEPTH} is kept whole`, async () => {
  const data = await shown('/deepest/_search');
  expect(innermost(data['application/json'])).toEqual({
    depth: MAX_OUTPUT_DEPTH,
    at: CUT_DEEPER
  });
  expect(CUT_DEEPER).toContain(
    `nested deeper than ${MAX_OUTPUT_DEPTH} levels, left out here so Python's notebook tools can read the notebook`
  );
  expect(data[JSON_MIME]).toBeDefined();
  expect(String(data['text/plain'])).toContain('"a": {');

  const kept = await shown('/kept/_search');
  expect(innermost(kept['application/json'])).toEqual({
    depth: MAX_OUTPUT_DEPTH,
    at: 7
  });
});
