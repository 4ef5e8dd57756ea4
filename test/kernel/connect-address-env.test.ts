/**
 * `%connect <engine> ${env:NAME}`: the address read from the kernel's environment (as the
 * examples read the sandbox's from `npm start`), over ZeroMQ against the sandbox engines. The
 * address is no secret: the answer shows it. An unset variable is refused with what to set and
 * the address to write instead, and nothing is sent.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../support/secrets';
import {
  KernelClient,
  type IopubMessage,
  errorOf
} from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(60_000);

let sandbox: RunningSandbox;
let kernel: KernelClient;

const plain = (iopub: IopubMessage[]) =>
  iopub
    .filter(
      m =>
        KernelMessage.isDisplayDataMsg(m) || KernelMessage.isExecuteResultMsg(m)
    )
    .map(m => String(m.content.data['text/plain']))
    .join('\n');

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 5
  });
  kernel = await KernelClient.start({
    ...SECRETS,
    SANDBOX_ES_URL: sandbox.esUrl,
    SANDBOX_TS_URL: sandbox.tsUrl
  });
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

it('connects to the address ${env:NAME} holds, and shows it', async () => {
  const es = await kernel.execute(
    '%connect elasticsearch ${env:SANDBOX_ES_URL} user=elastic password=${env:ES_PASSWORD}\nGET /products/_count'
  );
  expect(es.reply.content.status).toBe('ok');
  const port = new URL(sandbox.esUrl).port;
  expect(plain(es.iopub)).toContain(
    `at ${sandbox.esUrl} as "es-127.0.0.1-${port}"`
  );
  expect(plain(es.iopub)).toContain('"count": 5');
  const ts = await kernel.execute(
    '%connect typesense ${env:SANDBOX_TS_URL} key=${env:TS_API_KEY}\nGET /collections/books'
  );
  expect(ts.reply.content.status).toBe('ok');
  expect(plain(ts.iopub)).toContain(`at ${sandbox.tsUrl} as "`);
});

it('an unset variable: what to set, and the address to write instead', async () => {
  const es = await kernel.execute(
    '%connect elasticsearch ${env:NOT_SET_ADDRESS} auth=none name=nowhere'
  );
  expect(es.reply.content).toMatchObject({
    status: 'error',
    evalue:
      "%connect: the address is ${env:NOT_SET_ADDRESS}, but NOT_SET_ADDRESS is not set in the kernel's environment. Set NOT_SET_ADDRESS to the address before starting Jupyter (npm start sets the sandbox's addresses), or write the address itself, for example %connect elasticsearch http://127.0.0.1:9200."
  });
  const ts = await kernel.execute(
    '%connect typesense ${env:NOT_SET_ADDRESS} key=${env:TS_API_KEY}'
  );
  expect(errorOf(ts.reply).evalue).toContain(
    'for example %connect typesense http://127.0.0.1:8108.'
  );
  const listed = await kernel.execute('%connections');
  expect(plain(listed.iopub)).not.toContain('nowhere');
});
