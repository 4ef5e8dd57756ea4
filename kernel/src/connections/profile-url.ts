/**
 * How a connection is shown: as a URL with the user but never a password
 * (`https://elastic@localhost:9200`), or, for an engine without a URL scheme of its own, as
 * `host:port` beside the SSL mode. The engine's descriptor says which.
 */
import type { EngineName } from '../driver-core/driver';
import { engineNamed } from '../engines/engine-registry';
import type { Profile } from './profile-schema';
import { schemeOf, type SslMode } from '../driver-core/ssl-mode';

export interface Endpoint {
  engine: EngineName;
  ssl: SslMode;
  /** Host name, or a bracketed IPv6 address. */
  host: string;
  /** Undefined: the engine's default, not known here. */
  port?: number;
  user?: string | undefined;
}

export function displayAddress(e: Endpoint): string {
  const hostPort = e.port === undefined ? e.host : `${e.host}:${e.port}`;
  if (!engineNamed(e.engine).connect.shownAsUrl) {
    return hostPort;
  }
  const user = e.user ? `${encodeURIComponent(e.user)}@` : '';
  return `${schemeOf(e.ssl)}://${user}${hostPort}`;
}

export function profileAddress(p: Profile): string {
  return displayAddress({
    engine: p.engine,
    ssl: p.ssl,
    host: p.host,
    port: p.port,
    user: engineNamed(p.engine).profile.user(p)
  });
}

/** The endpoint of an address as the connection opened it (`https://host:9200`, default ports left out by URL). */
export function endpointOf(
  engine: EngineName,
  ssl: SslMode,
  address: string,
  user?: string
): Endpoint {
  const url = new URL(address);
  const port = url.port
    ? Number(url.port)
    : url.protocol === 'https:'
      ? 443
      : 80;
  return { engine, ssl, host: url.hostname, port, user };
}

/** For a %connect line not yet opened: its port may still be the engine's default. */
export function connectionUrl(args: {
  engine: EngineName;
  ssl: SslMode;
  url: string;
  user?: string | undefined;
  enginePort: boolean;
}): string {
  const url = new URL(args.url);
  const port = url.port
    ? Number(url.port)
    : args.enginePort
      ? undefined
      : url.protocol === 'https:'
        ? 443
        : 80;
  return displayAddress({
    engine: args.engine,
    ssl: args.ssl,
    host: url.hostname,
    ...(port !== undefined ? { port } : {}),
    user: args.user
  });
}
