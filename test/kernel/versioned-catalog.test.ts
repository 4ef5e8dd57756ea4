/**
 * Completion and inspection offer what the Elasticsearch version connected serves, over the
 * kernel's ZeroMQ sockets against a loopback server answering `GET /` as 7.17, 8.10, 8.19 and
 * 9.5.3: ES|QL and the inference APIs only from 8.11, the kNN search endpoint on 8.x marked
 * deprecated and left out on 9.x.
 */
import type { HostileEngine } from '../support/hostile-engine';
import { KernelClient, okOf } from '../support/kernel-client';
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

async function connect(version: string): Promise<void> {
  answer(version);
  const { reply } = await kernel.execute(
    `%connect elasticsearch ${engine.url} auth=none`
  );
  expect(reply.content).toMatchObject({ status: 'ok' });
}

async function complete(code: string): Promise<string[]> {
  const reply = await kernel.request('shell', 'complete_request', {
    code,
    cursor_pos: [...code].length
  });
  expect(reply.content.status).toBe('ok');
  return okOf(reply).matches as string[];
}

async function inspect(code: string): Promise<string> {
  const reply = await kernel.request('shell', 'inspect_request', {
    code,
    cursor_pos: 2,
    detail_level: 0
  });
  expect(reply.content.status).toBe('ok');
  return (okOf(reply).data as Record<string, string>)['text/plain'] ?? '';
}

describe('the endpoint catalog of the version connected', () => {
  it('8.10 is offered neither ES|QL nor the inference APIs, which came in 8.11', async () => {
    await connect('8.10.4');
    expect(await complete('POST /_q')).not.toContain('/_query');
    expect(await complete('PUT /_in')).not.toContain('/_inference');
    expect(await inspect('POST /_query')).toBe('');
    // Rollups were deprecated in 8.11.
    expect(await inspect('DELETE /_rollup/job/daily')).toContain(
      'Delete a rollup job.'
    );
    expect(await inspect('DELETE /_rollup/job/daily')).not.toContain(
      'Deprecated'
    );
    // What 8.10 has is still offered.
    expect(await complete('POST /products/_sea')).toContain(
      '/products/_search'
    );
  });

  it('8.19 is offered them, and the kNN search endpoint marked deprecated', async () => {
    await connect('8.19.0');
    expect(await complete('POST /_q')).toContain('/_query');
    expect(await complete('PUT /_in')).toContain('/_inference');
    expect(await complete('POST /products/_kn')).toEqual([
      '/products/_knn_search'
    ]);
    expect(await inspect('POST /products/_knn_search')).toContain(
      'Deprecated in 8.4.0: The kNN search API has been replaced by the `knn` option in the search API.'
    );
    // ES|QL views and streams came in 9.x.
    expect(await complete('GET /_query/v')).toEqual([]);
    expect(await complete('GET /_str')).toEqual([]);
  });

  it('9.5.3 is offered what 9.x added, deprecations marked, and not what 9.x removed', async () => {
    await connect('9.5.3');
    expect(await complete('POST /_q')).toContain('/_query');
    expect(await complete('GET /_query/v')).toEqual(['/_query/view']);
    expect(await complete('GET /_str')).toEqual(['/_streams']);
    expect(await inspect('DELETE /_rollup/job/daily')).toContain(
      'Deprecated in 8.11.0. Delete a rollup job. (Technical preview.)'
    );
    expect(await complete('POST /products/_kn')).toEqual([]);
    expect(await inspect('POST /products/_knn_search')).toBe('');
  });

  it('7.17 is offered neither 8.x APIs nor ES|QL, and the legacy templates marked deprecated', async () => {
    await connect('7.17.0');
    expect(await complete('POST /_q')).not.toContain('/_query');
    expect(await complete('POST /products/_kn')).toEqual([]);
    expect(await complete('GET /_sec')).toContain('/_security');
    expect(await inspect('PUT /_template/x')).toContain('Deprecated in 7.8.0.');
  });
});
