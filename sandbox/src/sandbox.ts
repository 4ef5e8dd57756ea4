/**
 * Starts both sandbox engines (Elasticsearch and Typesense stand-ins) on loopback, loads the
 * sample data, and reports how to connect. Used by `searchbook-sandbox`, demos and tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { generateBooksSample } from './sample-typesense';
import {
  generateProducts,
  PRODUCTS_ALIAS,
  PRODUCTS_INDEX,
  PRODUCTS_MAPPING
} from './data/generate-products';
import { createElasticsearchSandbox } from './elasticsearch';
import { listen, type ListeningServer } from './serve';
import { generateCertificates, writeCaFile } from './tls';
import { createTypesenseSandbox } from './typesense';

export interface SandboxOptions {
  esPort: number;
  tsPort: number;
  tls: boolean;
  /** Where the CA certificate is written in TLS mode (a temporary directory otherwise). */
  dataDir?: string;
  esVersion: string;
  tsVersion: string;
  esPassword: string;
  tsApiKey: string;
  security: boolean;
  log?: (line: string) => void;
  /**
   * Called once both engines listen, before the sample data loads (requests wait for it):
   * whoever needs only the addresses can go on meanwhile.
   */
  onListening?: (addresses: { esUrl: string; tsUrl: string }) => Promise<void>;
  /** Sample sizes; tests use small ones. */
  products?: number;
}

export interface RunningSandbox {
  esUrl: string;
  tsUrl: string;
  caFile?: string;
  close(): Promise<void>;
}

export async function startSandbox(
  opts: SandboxOptions
): Promise<RunningSandbox> {
  const log = opts.log ?? (() => undefined);
  const es = createElasticsearchSandbox({
    version: opts.esVersion,
    security: opts.security,
    password: opts.esPassword
  });
  const ts = createTypesenseSandbox({
    version: opts.tsVersion,
    apiKey: opts.tsApiKey
  });

  let tls: { cert: string; key: string } | undefined;
  let caFile: string | undefined;
  // A folder of its own for the CA file when none is given, removed when the sandbox closes.
  let ownDir: string | undefined;
  const removeOwnDir = () =>
    ownDir ? rm(ownDir, { recursive: true, force: true }) : undefined;
  if (opts.tls) {
    const certs = await generateCertificates();
    tls = { cert: certs.cert, key: certs.key };
    const dir =
      opts.dataDir ??
      (ownDir = await mkdtemp(path.join(os.tmpdir(), 'searchbook-sandbox-')));
    caFile = await writeCaFile(certs, path.join(dir, 'sandbox-ca.pem'));
  }
  // Both listen before the sample data loads, so whoever waits for the addresses (JupyterLab,
  // in `npm start`) starts alongside the load; a request that comes meanwhile waits for it and
  // never sees a half-loaded index.
  let loadedAll!: () => void;
  const sampleLoaded = new Promise<void>(resolve => (loadedAll = resolve));
  const afterLoad =
    (handler: RequestListener): RequestListener =>
    (request, response) => {
      void sampleLoaded.then(() => handler(request, response));
    };
  const servers: ListeningServer[] = [];
  try {
    servers.push(
      await listen(afterLoad(es.handler), {
        port: opts.esPort,
        ...(tls ? { tls } : {})
      })
    );
    servers.push(
      await listen(afterLoad(ts.handler), {
        port: opts.tsPort,
        ...(tls ? { tls } : {})
      })
    );
    await opts.onListening?.({
      esUrl: (servers[0] as ListeningServer).url,
      tsUrl: (servers[1] as ListeningServer).url
    });
  } catch (err) {
    await Promise.all(servers.map(s => s.close()));
    await removeOwnDir();
    throw err;
  }

  const started = Date.now();
  const loaded = es.loadIndex(
    PRODUCTS_INDEX,
    PRODUCTS_MAPPING,
    generateProducts(opts.products)
  );
  es.state.indices.get(PRODUCTS_INDEX)?.aliases.set(PRODUCTS_ALIAS, {});
  log(
    `elasticsearch: loaded ${loaded} documents into "${PRODUCTS_INDEX}" (alias "${PRODUCTS_ALIAS}") in ${Date.now() - started} ms`
  );
  const sample = generateBooksSample(ts);
  log(`typesense: loaded ${sample}`);
  loadedAll();

  const [esServer, tsServer] = servers as [ListeningServer, ListeningServer];
  return {
    esUrl: esServer.url,
    tsUrl: tsServer.url,
    ...(caFile ? { caFile } : {}),
    close: async () => {
      await Promise.all(servers.map(s => s.close()));
      await removeOwnDir();
    }
  };
}
