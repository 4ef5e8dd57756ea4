/**
 * The console's help and refusals that name the engines: phrased from the registry's
 * descriptors above the console, they read as a user has always read them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { KernelClient, REPO, okOf } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

const CONNECT_USAGE =
  '%connect <profile> | %connect elasticsearch|typesense <address> [options] [--save <profile>]';
const CONNECT_HELP =
  'Connects to an Elasticsearch or Typesense server and makes it the active connection: a saved profile by name, or an engine and an address (Elasticsearch: a URL such as https://elastic@localhost:9200), or hosts=<host:port>,<host:port> for the nodes of one cluster. --save keeps it as a profile.';
const EXPORT_HELP =
  'Writes every document of an index or collection to a file (relative to the notebook), with progress. An optional body on the next lines narrows it: an Elasticsearch query, or Typesense {"filter_by": ..., "include_fields": ...}. overwrite replaces an existing file; slices=N reads Elasticsearch in N parallel cursors.';

describe('texts that name the engines', () => {
  let kernel: KernelClient;

  beforeAll(async () => {
    kernel = await KernelClient.start();
  });
  afterAll(async () => {
    await kernel.close();
  });

  const help = async (code: string): Promise<string> => {
    const reply = await kernel.request('shell', 'inspect_request', {
      code,
      cursor_pos: 2,
      detail_level: 0
    });
    return (okOf(reply).data as Record<string, string>)['text/plain'] ?? '';
  };

  const refusal = async (code: string): Promise<string> => {
    const { reply, iopub } = await kernel.execute(code);
    expect(reply.content.status).toBe('error');
    const error = iopub.find(KernelMessage.isErrorMsg);
    return error?.content.traceback.join('\n') ?? '';
  };

  test("%connect's help names every engine and how Elasticsearch's address is written", async () => {
    expect(await help('%connect')).toBe(`${CONNECT_USAGE}\n${CONNECT_HELP}`);
  });

  test("%export's help names each engine's body and Elasticsearch's slices", async () => {
    expect(await help('%export products out.jsonl')).toContain(EXPORT_HELP);
  });

  test('an unknown magic lists %connect with the engine names', async () => {
    expect(
      await refusal('%conect elasticsearch http://localhost:9200')
    ).toContain(`\`${CONNECT_USAGE}\``);
  });

  test('a second JSON value in a body names the endpoints that take one a line', async () => {
    expect(await refusal('POST /products/_search\n{}\n{}')).toContain(
      'A body holds one JSON value. Only _bulk, _msearch and Typesense documents/import take one JSON value a line.'
    );
  });

  test('slices=0 says what slices do on Elasticsearch', async () => {
    expect(await refusal('%export products out.jsonl slices=0')).toContain(
      'Write slices=N with N from 1 to 64, for example slices=4 (Elasticsearch reads N cursors in parallel).'
    );
  });

  test('the command line help names the engines and the sandbox stand-ins', () => {
    const run = spawnSync(
      process.execPath,
      [join(REPO, 'bin', 'searchbook.js'), '--help'],
      { encoding: 'utf8' }
    );
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'searchbook: Elasticsearch and Typesense in Jupyter'
    );
    expect(run.stdout).toContain(
      [
        '  searchbook sandbox [options]            in a clone: local stand-ins of the engines above,',
        '                                          with sample data (searchbook-sandbox; --help lists the options)',
        '  searchbook --version',
        ''
      ].join('\n')
    );
  });
});
