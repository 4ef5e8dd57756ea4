/**
 * The sandbox the export suites over the wire read from: Elasticsearch 8.15.0 with security
 * on, holding `products` documents in `products`, behind a breaking proxy (a suite delays or
 * breaks its answers), and Typesense 29.0.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from '../drivers/helpers';
import {
  type BreakingProxy,
  startBreakingProxy
} from '../support/breaking-proxy';

export interface ExportSandbox {
  sandbox: RunningSandbox;
  proxy: BreakingProxy;
  /** The `%connect` line naming the proxied Elasticsearch `es`, its password read from the environment. */
  connect: string;
  /** The cell that lets a search of `products` return at most `window` rows, so an export pages. */
  windowCell: (window: number) => string;
}

export async function startExportSandbox(
  products: number
): Promise<ExportSandbox> {
  const sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products
  });
  try {
    const proxy = await startBreakingProxy(sandbox.esUrl);
    return {
      sandbox,
      proxy,
      connect: `%connect elasticsearch ${proxy.url} user=elastic password=\${env:ES_PASSWORD} name=es`,
      windowCell: window =>
        `PUT /products/_settings\n{"index": {"max_result_window": ${window}}}`
    };
  } catch (err) {
    await sandbox.close();
    throw err;
  }
}
