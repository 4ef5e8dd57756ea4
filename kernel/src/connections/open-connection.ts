import { readFile } from 'node:fs/promises';
import type { Driver, EngineIdentity, EngineModule, EngineName } from '../drivers/driver';
import type { TransportOptions } from '../drivers/transport';
import { type ConnectArgs, ConnectArgsError } from './connect-args';
import type { SslMode } from './ssl-mode';

/** An open connection as the rest of the kernel sees it: no secret is reachable from here. */
export interface Connection {
  name: string;
  engine: Driver['engine'];
  /** `Elasticsearch`, `Typesense`: for messages. */
  engineLabel: string;
  /** Scheme, host and port only; never credentials. */
  address: string;
  ssl: SslMode;
  /** The Elasticsearch user (not a secret), for showing the connection as a URL. */
  user?: string;
  identity: EngineIdentity;
  driver: Driver;
}

/** Each engine's folder loads on its first use, which keeps kernel start fast. */
const ENGINE_MODULES: Record<EngineName, () => Promise<EngineModule>> = {
  elasticsearch: async () => (await import('../drivers/elasticsearch/engine-module')).elasticsearchModule,
  typesense: async () => (await import('../drivers/typesense/engine-module')).typesenseModule,
};

export async function openConnection(args: ConnectArgs, signal: AbortSignal): Promise<Connection> {
  const engine = await ENGINE_MODULES[args.engine]();
  const settings = engine.connectionSettings(args);
  const url = new URL(args.url);
  if (args.enginePort) url.port = String(settings.defaultPort);
  const address = `${url.protocol}//${url.host}`;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const name = args.name ?? `${settings.namePrefix}-${url.hostname.replace(/[[\]]/g, '')}-${port}`;
  const tls = settings.verification && {
    // Skip TLS Verification overrides every mode (drivers.md 2.1, 2.2).
    verification: args.skip_verify ? ('none' as const) : settings.verification,
    ...(args.ca ? { ca: await readCaFile(args.ca) } : {}),
  };
  const options: TransportOptions = {
    baseUrl: address,
    headers: settings.headers,
    label: name,
    untrustedCertificateAdvice: engine.untrustedCertificateAdvice,
    ...(tls ? { tls } : {}),
    ...(args.timeout ? { timeoutMs: args.timeout * 1000 } : {}),
  };
  const { Transport } = await import('../drivers/transport');
  const driver = engine.createDriver(new Transport(options));
  try {
    const identity = await driver.probe(signal);
    const user = args.engine === 'elasticsearch' && args.user !== undefined ? { user: args.user } : {};
    return { name, engine: args.engine, engineLabel: engine.displayName, address, ssl: args.ssl, ...user, identity, driver };
  } catch (err) {
    await driver.close();
    throw err;
  }
}

async function readCaFile(file: string): Promise<string> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConnectArgsError(`%connect: cannot read the CA file ca=${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give the path of a PEM file the kernel can read.`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConnectArgsError(`%connect: ca=${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return pem;
}
