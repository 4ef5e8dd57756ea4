/**
 * Starts both sandbox engines (Elasticsearch and Typesense stand-ins) on loopback, loads the
 * sample data, and reports how to connect. Used by `searchbook sandbox`, demos and tests.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateBooksSample } from './sample-typesense';
import {
  generateProducts,
  PRODUCTS_ALIAS,
  PRODUCTS_INDEX,
  PRODUCTS_MAPPING
} from '../data/generate-products';
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

  const ts = createTypesenseSandbox({
    version: opts.tsVersion,
    apiKey: opts.tsApiKey
  });
  const sample = generateBooksSample(ts);
  log(`typesense: loaded ${sample}`);

  let tls: { cert: string; key: string } | undefined;
  let caFile: string | undefined;
  if (opts.tls) {
    const certs = await generateCertificates();
    tls = { cert: certs.cert, key: certs.key };
    const dir =
      opts.dataDir ??
      (await mkdtemp(path.join(os.tmpdir(), 'searchbook-sandbox-')));
    caFile = await writeCaFile(certs, path.join(dir, 'sandbox-ca.pem'));
  }
  const servers: ListeningServer[] = [];
  try {
    servers.push(
      await listen(es.handler, { port: opts.esPort, ...(tls ? { tls } : {}) })
    );
    servers.push(
      await listen(ts.handler, { port: opts.tsPort, ...(tls ? { tls } : {}) })
    );
  } catch (err) {
    await Promise.all(servers.map(s => s.close()));
    throw err;
  }
  const [esServer, tsServer] = servers as [ListeningServer, ListeningServer];
  return {
    esUrl: esServer.url,
    tsUrl: tsServer.url,
    ...(caFile ? { caFile } : {}),
    close: async () => {
      await Promise.all(servers.map(s => s.close()));
    }
  };
}
