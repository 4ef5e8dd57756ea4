/**
 * `%connect` over ZeroMQ to a loopback server answering `GET /` as each Elasticsearch major:
 * 7.x, 8.x and 9.x connect without a version warning; a later major connects with one that
 * names the supported versions.
 */
import type { HostileEngine } from '../support/hostile-engine';
import { KernelClient, errorOf } from '../support/kernel-client';
import { startVersionedRoot } from '../support/versioned-root';

jest.setTimeout(30_000);

let kernel: KernelClient;
let engine: HostileEngine;
let answer: (version: string) => void;

beforeAll(async () => {
  ({ engine, answer } = await startVersionedRoot());
  kernel = await KernelClient.start();
});

afterAll(async () => {
  await kernel?.close();
  await engine?.close();
});

async function connectTo(version: string): Promise<string> {
  answer(version);
  const { reply, iopub } = await kernel.execute(
    `%connect elasticsearch ${engine.url} auth=none`
  );
  expect(reply.content['status']).toBe('ok');
  return JSON.stringify(iopub.map(m => m.content));
}

it.each(['7.17.29', '8.19.21', '9.5.3', '9.0.0'])(
  'Elasticsearch %s connects without a version warning',
  async version => {
    const said = await connectTo(version);
    expect(said).toContain(`Connected to Elasticsearch ${version}`);
    expect(said).not.toContain('not a supported version');
  }
);

it('a later major connects with a warning naming the supported versions', async () => {
  const said = await connectTo('10.0.0');
  expect(said).toContain(
    'Elasticsearch 10.0.0 is not a supported version (7.x, 8.x and 9.x are); requests are sent as written.'
  );
});

describe('what Elasticsearch 9.x removed is refused before sending, with the 9.x way to write it', () => {
  const cases = [
    {
      cell: 'POST /kk/_knn_search\n{"knn": {"field": "v", "query_vector": [1, 2], "k": 1, "num_candidates": 5}}',
      path: '/kk/_knn_search',
      said: /removed the _knn_search endpoint.*POST \/kk\/_search with \{\\"knn\\"/
    },
    {
      cell: 'GET /_alias/ka?local=true',
      path: '/_alias/ka?local=true',
      said: /removed the local parameter of the alias APIs.*Leave local out/
    }
  ];

  it.each(cases)(
    'on 9.5.3: $path is refused and not sent',
    async ({ cell, path, said }) => {
      await connectTo('9.5.3');
      const { reply, iopub } = await kernel.execute(cell);
      expect(reply.content['status']).toBe('error');
      expect(
        JSON.stringify([reply.content, ...iopub.map(m => m.content)])
      ).toMatch(said);
      // Said once, as every refusal says it.
      expect(errorOf(reply).evalue).toMatch(/^[^]*Nothing was sent\.$/);
      expect(errorOf(reply).evalue).not.toMatch(
        /Nothing was sent\.[^]*Nothing was sent/
      );
      expect(engine.requests).not.toContain(path);
    }
  );

  it.each(cases)(
    'on 8.19: $path is sent as written',
    async ({ cell, path }) => {
      await connectTo('8.19.21');
      await kernel.execute(cell);
      expect(engine.requests).toContain(path);
    }
  );
});
