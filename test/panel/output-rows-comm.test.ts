/**
 * searchbook's "Rows kept in notebook outputs" setting as the panel sends it over the
 * `searchbook.panel` comm (kernel process, ZeroMQ, the Elasticsearch sandbox over HTTP): the
 * next search keeps that many rows in its output and counts the rest in its notice; null
 * returns to the kernel's own cap, here `SEARCHBOOK_MAX_ROWS` from its environment.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import { displaysAndUpdates } from '../support/shown-text';
import { type PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

let kernel: KernelClient;
let comm: PanelCommClient;
let sandbox: RunningSandbox;

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
    products: 100
  });
  ({ kernel, comm } = await kernelWithPanelComm(
    [
      `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=es`
    ],
    { ...SECRETS, SEARCHBOOK_MAX_ROWS: '8' }
  ));
});
afterAll(async () => {
  await kernel?.close();
  await sandbox?.close();
});

/** A search of 20 hits: the rows its output left out, and its text/plain caption. */
async function searchTwenty(): Promise<{ omitted: number; plain: string }> {
  const { reply, iopub } = await kernel.execute(
    'GET /products/_search\n{"size": 20, "sort": ["_doc"]}'
  );
  expect(reply.content.status).toBe('ok');
  const data = displaysAndUpdates(iopub).find(d => d[HITS_MIME] !== undefined);
  const payload = HitsPayloadSchema.parse(data?.[HITS_MIME]);
  return {
    omitted: payload.omittedRows,
    plain: String(data?.['text/plain']).split('\n')[0] ?? ''
  };
}

it('keeps the rows the setting says, counts the rest with how to keep more, and null returns to the kernel own cap', async () => {
  // SEARCHBOOK_MAX_ROWS in the environment still works before the panel says anything.
  await expect(searchTwenty()).resolves.toEqual({
    omitted: 12,
    plain: expect.stringContaining(', 8 shown; 12 rows left out') as string
  });

  await expect(
    comm.expect({ type: 'outputRows', rows: 5 }, 'outputRows')
  ).resolves.toMatchObject({ rows: 5 });
  const five = await searchTwenty();
  expect(five.omitted).toBe(15);
  expect(five.plain).toContain(
    ", 5 shown; 15 rows left out of the notebook, raise Rows kept in notebook outputs in searchbook's settings (or SEARCHBOOK_MAX_ROWS) to keep more)"
  );

  // Out of the setting's range: refused with what is allowed, and the cap stays.
  const refused = await comm.call({ type: 'outputRows', rows: 0 });
  expect(refused).toMatchObject({
    type: 'error',
    message: expect.stringContaining('at rows') as string
  });
  await expect(searchTwenty()).resolves.toMatchObject({ omitted: 15 });

  await expect(
    comm.expect({ type: 'outputRows', rows: null }, 'outputRows')
  ).resolves.toMatchObject({ rows: 8 });
  await expect(searchTwenty()).resolves.toMatchObject({ omitted: 12 });

  await expect(
    comm.expect({ type: 'outputRows', rows: 50 }, 'outputRows')
  ).resolves.toMatchObject({ rows: 50 });
  const all = await searchTwenty();
  expect(all.omitted).toBe(0);
  expect(all.plain).not.toContain('left out');
});
