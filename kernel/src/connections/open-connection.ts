import type { Driver, EngineIdentity } from '../drivers/driver';
import type { Transport } from '../drivers/transport';
import type { ConnectArgs } from './connect-args';

/** An open connection as the rest of the kernel sees it: no secret is reachable from here. */
export interface Connection {
  name: string;
  engine: Driver['engine'];
  /** Scheme, host and port only; never credentials. */
  address: string;
  identity: EngineIdentity;
  driver: Driver;
}

export async function openConnection(args: ConnectArgs, signal: AbortSignal): Promise<Connection> {
  const url = new URL(args.url);
  const address = `${url.protocol}//${url.host}`;
  const name = args.name ?? `${args.engine === 'elasticsearch' ? 'es' : 'ts'}-${url.hostname}-${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  // The HTTP client and each driver load on first use, which keeps kernel start fast.
  const { Transport } = await import('../drivers/transport');
  const transport = new Transport({ baseUrl: address, headers: authHeaders(args), label: name, ...(args.timeout ? { timeoutMs: args.timeout * 1000 } : {}) });
  const driver = await loadDriver(args.engine, transport);
  try {
    const identity = await driver.probe(signal);
    return { name, engine: args.engine, address, identity, driver };
  } catch (err) {
    await driver.close();
    throw err;
  }
}

async function loadDriver(engine: ConnectArgs['engine'], transport: Transport): Promise<Driver> {
  if (engine === 'elasticsearch') return new (await import('../drivers/elasticsearch/driver')).ElasticsearchDriver(transport);
  return new (await import('../drivers/typesense/driver')).TypesenseDriver(transport);
}

function authHeaders(args: ConnectArgs): Record<string, string> {
  if (args.engine === 'typesense') return args.key ? { 'x-typesense-api-key': args.key } : {};
  const auth = args.auth ?? (args.key ? 'apikey' : args.user ? 'basic' : 'none');
  if (auth === 'apikey' && args.key) return { authorization: `ApiKey ${args.key}` };
  if (auth === 'basic' && args.user) return { authorization: `Basic ${Buffer.from(`${args.user}:${args.password ?? ''}`).toString('base64')}` };
  return {};
}
