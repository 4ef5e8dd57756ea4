/**
 * Callers tell errors apart by their stable code (`SEARCHBOOK_ERR_...`), never by the words a
 * user reads; those words stay what the error output has always shown. Over real sockets: the
 * sandbox engines, a port nothing listens on, and the kernel over ZeroMQ.
 */
import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import { errorCode, SearchbookError } from '../../contracts/errors';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { parseCell } from '../../kernel/src/console/parse';
import { editRefusal, Refusal } from '../../kernel/src/console/refusal';
import { VariableScope } from '../../kernel/src/console/variables';
import { EngineError } from '../../kernel/src/driver-core/errors';
import { typeElasticsearchValue } from '../../kernel/src/engines/elasticsearch/edit-typing';
import { closedPort as findClosedPort } from '../support/closed-port';
import { KernelClient } from '../support/kernel-client';
import { connect, connectError, failureOf, request, SECRETS } from './helpers';
import { KernelMessage } from '../support/kernel-messages';

let sandbox: RunningSandbox;
let kernel: KernelClient;
/** A port on 127.0.0.1 that nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  [sandbox, kernel, closedPort] = await Promise.all([
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: SECRETS.ES_PASSWORD,
      tsApiKey: SECRETS.TS_API_KEY,
      security: true,
      products: 5
    }),
    KernelClient.start({ ...SECRETS }),
    findClosedPort()
  ]);
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

/** The error output of a cell run in the kernel (fails the test when the cell succeeds). */
async function errorOutput(
  code: string
): Promise<{ ename: string; evalue: string }> {
  const { reply, iopub } = await kernel.execute(code);
  expect(reply.content.status).toBe('error');
  const error = iopub.find(KernelMessage.isErrorMsg)?.content;
  if (!error) {
    throw new Error(`no error output for ${code}`);
  }
  return { ename: error.ename, evalue: error.evalue };
}

describe('engine errors: one code per kind, told apart without reading a word', () => {
  it('a wrong password and a port nothing listens on give their own codes and names', async () => {
    const rejected = await connectError(
      `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:WRONG}`
    );
    const unreachable = await connectError(
      `elasticsearch http://127.0.0.1:${closedPort}`
    );
    expect([rejected, unreachable].map(e => [e.code, e.name])).toEqual([
      ['SEARCHBOOK_ERR_AUTHENTICATION_FAILED', 'AuthenticationFailedError'],
      ['SEARCHBOOK_ERR_CONNECTION_FAILED', 'ConnectionFailedError']
    ]);
    for (const err of [rejected, unreachable]) {
      expect(err).toBeInstanceOf(SearchbookError);
      expect(errorCode(err)).toBe(err.code);
    }
    // The titles users see are unchanged: a sentence for these two, as before.
    expect([rejected.ename, unreachable.ename]).toEqual([
      'Authentication failed',
      'Connection failed'
    ]);
  });

  it('a missing index is a failed request, a wrong Typesense key an authentication failure', async () => {
    const es = await connect(
      `elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
    );
    const ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:WRONG}`);
    try {
      const missing = await failureOf(es, request('GET', '/nope/_search'));
      const forbidden = await failureOf(
        ts,
        request('GET', '/collections/books/documents/search', 'q=*')
      );
      expect([missing?.code, missing?.ename, missing?.status]).toEqual([
        'SEARCHBOOK_ERR_REQUEST_FAILED',
        'RequestFailed',
        404
      ]);
      expect([forbidden?.code, forbidden?.ename, forbidden?.status]).toEqual([
        'SEARCHBOOK_ERR_AUTHENTICATION_FAILED',
        'Authentication failed',
        401
      ]);
      expect(missing).toBeInstanceOf(EngineError);
    } finally {
      await es.driver.close();
      await ts.driver.close();
    }
  });
});

describe('the error output keeps the words users know', () => {
  it('a wrong password: "Authentication failed", the engine reason once', async () => {
    const shown = await errorOutput(
      `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:WRONG}`
    );
    expect(shown.ename).toBe('Authentication failed');
    expect(shown.evalue).toMatch(
      /^unable to authenticate user \[elastic\] for REST request \[\/\]\. Check the user and password/
    );
  });

  it('a port nothing listens on: "Connection failed", where and what to check', async () => {
    const shown = await errorOutput(
      `%connect elasticsearch http://127.0.0.1:${closedPort}`
    );
    expect(shown.ename).toBe('Connection failed');
    expect(shown.evalue).toMatch(
      new RegExp(
        `^nothing accepts connections at .*127\\.0\\.0\\.1:${closedPort}.*\\. Check the host and port, and that the engine is running\\.$`
      )
    );
  });

  it('a missing index: "RequestFailed" with the status and the engine reason', async () => {
    const connected = await kernel.execute(
      `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD}`
    );
    expect(connected.reply.content.status).toBe('ok');
    const shown = await errorOutput('GET /nope/_search');
    expect(shown.ename).toBe('RequestFailed');
    expect(shown.evalue).toMatch(
      /^Elasticsearch answered 404: index_not_found_exception: no such index \[nope\]/
    );
  });
});

describe('refusals: one class, its kind in its code, one way of saying where', () => {
  it('a console cell: its code, its title and its line', () => {
    const parsed = parseCell(
      'GET /ok\nSELECT * FROM books',
      new VariableScope(() => undefined),
      CONSOLE_WORDING
    );
    if (parsed.ok) {
      throw new Error('SQL was not refused');
    }
    expect(parsed.refusal).toBeInstanceOf(Refusal);
    expect([parsed.refusal.code, parsed.refusal.ename]).toEqual([
      'SEARCHBOOK_ERR_SQL_REFUSED',
      'SQLRefused'
    ]);
    expect(parsed.refusal.where).toEqual({ kind: 'cell', line: 2, column: 1 });
  });

  it('an edited value: its code, and the wire refusal the panel has always read (column, line, col)', () => {
    let refused: unknown;
    try {
      typeElasticsearchValue(
        { name: 'tags', type: 'object', json: true, readOnly: false },
        '{"a": }'
      );
    } catch (err) {
      refused = err;
    }
    if (!(refused instanceof Refusal)) {
      throw new Error('the value was not refused');
    }
    expect(refused.code).toBe('SEARCHBOOK_ERR_VALUE_REFUSED');
    expect(refused.where).toEqual({
      kind: 'edit',
      column: 'tags',
      text: { line: 1, column: 7 }
    });
    expect(editRefusal('change-1', refused)).toEqual({
      key: 'change-1',
      column: 'tags',
      message: refused.message,
      line: 1,
      col: 7
    });
  });
});
