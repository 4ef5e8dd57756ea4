/**
 * REST compatibility over the kernel's ZeroMQ sockets, against a loopback server answering
 * `GET /` as the version a test chooses and recording the headers of every request:
 * `compat=8` (or a profile's `"compat": 8`) sends `compatible-with=8` on every request after
 * `GET /`, so a notebook written for 8.x runs on 9.x with what 9.x removed let through;
 * `compat=7` is refused on connect to a 9.x node, which is never sent `compatible-with=7`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SECRETS } from '../drivers/helpers';
import { KernelClient, okOf } from '../support/kernel-client';
import { scratchDir } from '../support/scratch-dir';

jest.setTimeout(30_000);

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

let kernel: KernelClient;
let server: Server;
let url = '';
let answered = '9.5.3';
let configDir = '';
let distribution: string | undefined;
const seen: Seen[] = [];

const COMPAT_8 = 'application/vnd.elasticsearch+json; compatible-with=8';

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers
    });
    req.resume();
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/') {
      res.end(
        JSON.stringify({
          name: 'node',
          cluster_name: 'test',
          version: {
            number: answered,
            ...(distribution ? { distribution } : {})
          },
          tagline: 'You Know, for Search'
        })
      );
      return;
    }
    res.end(
      JSON.stringify({
        took: 1,
        timed_out: false,
        hits: { total: { value: 0, relation: 'eq' }, hits: [] }
      })
    );
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  // A profile asks for compatibility as %connect's option does; JUPYTER_CONFIG_DIR keeps the test off the user's profiles.
  configDir = scratchDir('searchbook-compat-');
  mkdirSync(join(configDir, 'searchbook'));
  writeFileSync(
    join(configDir, 'searchbook', 'profiles.json'),
    JSON.stringify({
      version: 1,
      profiles: [
        {
          engine: 'elasticsearch',
          name: 'eight-on-nine',
          host: '127.0.0.1',
          port,
          auth: 'none',
          compat: 8
        }
      ]
    }),
    { mode: 0o600 }
  );
  kernel = await KernelClient.start({
    ...SECRETS,
    JUPYTER_CONFIG_DIR: configDir
  });
});

afterAll(async () => {
  await kernel?.close();
  await new Promise(resolve => server?.close(resolve));
});

async function run(code: string): Promise<{ status: string; said: string }> {
  const { reply, iopub } = await kernel.execute(code);
  return {
    status: String(reply.content['status']),
    said: JSON.stringify([reply.content, ...iopub.map(m => m.content)])
  };
}

/** The requests after `mark`, and their headers. */
function since(mark: number): Seen[] {
  return seen.slice(mark);
}

async function complete(code: string): Promise<string[]> {
  const reply = await kernel.request('shell', 'complete_request', {
    code,
    cursor_pos: [...code].length
  });
  return okOf(reply).matches as string[];
}

const KNN =
  'POST /kk/_knn_search\n{"knn": {"field": "v", "query_vector": [1, 2], "k": 1, "num_candidates": 5}}';

describe('compat=8 on a 9.x node', () => {
  it('sends every request after GET / as 8.x, bodies and NDJSON included, and lets through what 9.x removed, which it refuses without compat=', async () => {
    answered = '9.5.3';
    expect((await run(`%connect elasticsearch ${url} auth=none`)).status).toBe(
      'ok'
    );
    const plainMark = seen.length;
    const refused = await run(KNN);
    expect(refused.status).toBe('error');
    expect(refused.said).toContain('removed the _knn_search endpoint');
    expect((await run('GET /kk/_search')).status).toBe('ok');
    const plain = since(plainMark);
    expect(plain.map(r => r.url)).toContain('/kk/_search');
    expect(plain.map(r => r.url)).not.toContain('/kk/_knn_search');
    expect(plain.every(r => r.headers['accept'] === 'application/json')).toBe(
      true
    );
    expect(await complete('POST /kk/_kn')).toEqual([]);

    const mark = seen.length;
    const connected = await run(
      `%connect elasticsearch ${url} auth=none compat=8`
    );
    expect(connected.status).toBe('ok');
    expect(connected.said).toContain(
      'Requests ask to be served as Elasticsearch 8.x served them (REST compatibility, compat=8) (what 9.x removed, such as _knn_search, is sent, not refused); leave compat= out to write for 9.x.'
    );
    // The version is read plainly first: a node must not be sent a compatibility it refuses.
    expect(since(mark)[0]?.headers['accept']).toBe('application/json');

    const sent = seen.length;
    expect((await run(KNN)).status).toBe('ok');
    expect(
      (await run('POST /_bulk\n{"index": {"_index": "kk"}}\n{"v": [1, 2]}'))
        .status
    ).toBe('ok');
    expect((await run('GET /_alias/ka?local=true')).status).toBe('ok');
    const requests = since(sent);
    const knn = requests.find(r => r.url === '/kk/_knn_search');
    expect(knn?.headers).toMatchObject({
      accept: COMPAT_8,
      'content-type': COMPAT_8
    });
    expect(requests.find(r => r.url === '/_bulk')?.headers).toMatchObject({
      accept: COMPAT_8,
      'content-type':
        'application/vnd.elasticsearch+x-ndjson; compatible-with=8'
    });
    expect(requests.map(r => r.url)).toContain('/_alias/ka?local=true');
    expect(requests.every(r => r.headers['accept'] === COMPAT_8)).toBe(true);
    // Completion offers the 8.x endpoint 9.x serves under compatibility.
    expect(await complete('POST /kk/_kn')).toEqual(['/kk/_knn_search']);
  });

  it('a profile with "compat": 8 does the same, and --save keeps compat= in the profile', async () => {
    answered = '9.5.3';
    expect((await run('%connect eight-on-nine')).status).toBe('ok');
    const sent = seen.length;
    expect((await run(KNN)).status).toBe('ok');
    expect(since(sent)[0]?.headers['content-type']).toBe(COMPAT_8);

    expect(
      (
        await run(
          `%connect elasticsearch ${url} auth=none compat=8 --save saved-eight`
        )
      ).status
    ).toBe('ok');
    const file = JSON.parse(
      readFileSync(join(configDir, 'searchbook', 'profiles.json'), 'utf8')
    ) as { profiles: { name: string; compat?: unknown }[] };
    expect(file.profiles.find(p => p.name === 'saved-eight')?.compat).toBe(8);
    expect((await run('%connect saved-eight')).status).toBe('ok');
    const again = seen.length;
    expect((await run(KNN)).status).toBe('ok');
    expect(since(again)[0]?.headers['accept']).toBe(COMPAT_8);
  });
});

describe('compatibility a node cannot serve is refused on connect', () => {
  it('compat=7 on 9.x: refused with what to write instead, and compatible-with=7 is never sent', async () => {
    answered = '9.5.3';
    const mark = seen.length;
    const connect = await run(
      `%connect elasticsearch ${url} auth=none compat=7`
    );
    expect(connect.status).toBe('error');
    expect(connect.said).toContain(
      'compat=7: Elasticsearch 9.5.3 serves requests written for 9.x and 8.x, not for 7.x, so nothing more was sent; connect with compat=8 for requests written for 8.x, or leave compat= out.'
    );
    const requests = since(mark);
    expect(requests.map(r => r.url)).toEqual(['/']);
    expect(JSON.stringify(requests.map(r => r.headers))).not.toContain(
      'compatible-with'
    );
  });

  it('compat=7 on 8.19 sends compatible-with=7', async () => {
    answered = '8.19.21';
    expect(
      (await run(`%connect elasticsearch ${url} auth=none compat=7`)).status
    ).toBe('ok');
    const sent = seen.length;
    expect((await run('GET /kk/_search')).status).toBe('ok');
    expect(since(sent)[0]?.headers['accept']).toBe(
      'application/vnd.elasticsearch+json; compatible-with=7'
    );
  });

  it('compat=8 on 7.x is refused: a 7.x node serves no later API', async () => {
    answered = '7.17.29';
    const connect = await run(
      `%connect elasticsearch ${url} auth=none compat=8`
    );
    expect(connect.status).toBe('error');
    expect(connect.said).toContain(
      'compat=8: Elasticsearch 7.17.29 serves requests written for 7.x only, not for 8.x'
    );
  });

  it('compat= on OpenSearch is refused: it has no REST compatibility', async () => {
    answered = '2.19.1';
    distribution = 'opensearch';
    try {
      const mark = seen.length;
      const connect = await run(
        `%connect opensearch ${url} auth=none compat=8`
      );
      expect(connect.status).toBe('error');
      expect(connect.said).toContain(
        'compat=8: OpenSearch 2.19.1 has no REST compatibility with Elasticsearch versions; connect again without compat='
      );
      expect(since(mark).map(r => r.url)).toEqual(['/']);
    } finally {
      distribution = undefined;
    }
  });

  it('compat= is refused for Typesense, and a version it does not know says what to write', async () => {
    const typesense = await run(
      `%connect typesense ${url} key=\${env:TS_API_KEY} compat=8`
    );
    expect(typesense.status).toBe('error');
    expect(typesense.said).toContain(
      'compat= is an Elasticsearch option, not a Typesense one; leave it out.'
    );
    const nine = await run(`%connect elasticsearch ${url} auth=none compat=9`);
    expect(nine.status).toBe('error');
    expect(nine.said).toContain(
      'write compat=8 (requests written for 8.x, on a 9.x or 8.x node)'
    );
  });
});
