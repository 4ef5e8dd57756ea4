import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Driver, type EngineIdentity } from '../driver-core/driver';
import {
  AnswerTimeoutError,
  ConnectionFailedError
} from '../driver-core/errors';
import { engineNamed } from '../engines/engine-registry';
import type { TransportOptions } from '../driver-core/http/transport-options';
import { type ConnectArgs, ConnectArgsError } from './connect-args';
import type { SslMode } from '../driver-core/ssl-mode';

/** An open connection as the rest of the kernel sees it: no secret is reachable from here. */
export interface Connection {
  name: string;
  engine: Driver['engine'];
  /** The engine's display name, for messages. */
  engineLabel: string;
  /** Scheme, host and port only; never credentials. The first node when there are several. */
  address: string;
  /** Every node (scheme, host and port), `address` first, when the connection lists several. */
  nodes?: string[];
  /** Which node answered the connection's first request, when it was not the first one listed. */
  answeredBy?: string;
  /** That node's address (scheme, host and port): the one `%connect` says it connected to. */
  answeredAt?: string;
  ssl: SslMode;
  /** The user (not a secret), for engines whose connections are shown as URLs. */
  user?: string;
  /** How it authenticates when that needs saying (`auth=aws-sigv4 region=... service=...`); never a secret. */
  authSummary?: string;
  identity: EngineIdentity;
  driver: Driver;
}

/** How long `%connect` waits for the engine's first answer when no `timeout=` is given. */
export const CONNECT_WAIT_MS = 10_000;

/**
 * Opens a connection and checks what answers. `waiting` hears, before the check, what the
 * connection waits for, so a server that accepts and never answers is not a silent wait.
 * `hide` hears the secrets the engine read itself, before anything is sent, to mask them in
 * outputs.
 */
export async function openConnection(
  args: ConnectArgs,
  signal: AbortSignal,
  waiting?: (what: string) => void,
  hide?: (secret: string, shownAs: string) => void
): Promise<Connection> {
  const descriptor = engineNamed(args.engine);
  const engine = await descriptor.load();
  const settings = await engine.connectionSettings(args);
  for (const secret of settings.secrets ?? []) {
    hide?.(secret.value, secret.shownAs);
  }
  const url = new URL(args.url);
  if (args.enginePort) {
    url.port = String(descriptor.defaultPort(args.ssl));
  }
  const address = `${url.protocol}//${url.host}`;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const name =
    args.name ??
    `${descriptor.namePrefix}-${url.hostname.replace(/[[\]]/g, '')}-${port}`;
  const tls = settings.verification && {
    // skip_verify overrides every mode: the user asked to trust any certificate.
    verification: args.skip_verify ? ('none' as const) : settings.verification,
    ...(args.ca
      ? { ca: await readCaFile(args.ca), caFile: resolve(args.ca) }
      : {})
  };
  const options: TransportOptions = {
    baseUrl: address,
    ...(args.nodes ? { nodes: args.nodes } : {}),
    headers: settings.headers,
    ...(settings.signer ? { signer: settings.signer } : {}),
    ...(settings.curl ? { curl: settings.curl } : {}),
    label: name,
    untrustedCertificateAdvice: engine.untrustedCertificateAdvice,
    largeAnswerAdvice: engine.largeAnswerAdvice,
    ...(tls ? { tls } : {}),
    ...(args.timeout ? { timeoutMs: args.timeout * 1000 } : {}),
    ...(args.max_answer ? { maxAnswerBytes: args.max_answer } : {})
  };
  const { Transport } = await import('../driver-core/http/transport');
  const transport = new Transport(options);
  const driver = engine.createDriver(transport, args);
  const waitMs = args.timeout ? args.timeout * 1000 : CONNECT_WAIT_MS;
  const where = args.nodes ? args.nodes.join(', ') : address;
  waiting?.(
    `Connecting to ${descriptor.displayName} at ${where}: waiting for its answer (at most ${waitMs / 1000} s)`
  );
  const bound = AbortSignal.timeout(waitMs);
  try {
    const identity = await probe(
      driver,
      AbortSignal.any([signal, bound]),
      () => bound.aborted && !signal.aborted,
      address,
      waitMs
    );
    // An engine without users refuses user= and user@ in %connect, so a user here is always one it has.
    const user = args.user !== undefined ? { user: args.user } : {};
    return {
      name,
      engine: args.engine,
      engineLabel: identity.product ?? descriptor.displayName,
      address,
      ...(args.nodes ? { nodes: args.nodes } : {}),
      ...answeredBy(transport.usualNodeDown()),
      ...(transport.baseUrl !== address
        ? { answeredAt: transport.baseUrl }
        : {}),
      ssl: args.ssl,
      ...user,
      ...(settings.authSummary ? { authSummary: settings.authSummary } : {}),
      identity,
      driver
    };
  } catch (err) {
    await driver.close();
    throw err;
  }
}

const answeredBy = (line: string | undefined) =>
  line ? { answeredBy: line } : {};

async function probe(
  driver: Driver,
  signal: AbortSignal,
  timedOut: () => boolean,
  address: string,
  waitMs: number
): Promise<EngineIdentity> {
  try {
    return await driver.probe(signal);
  } catch (err) {
    // The transport's own answer deadline and the connect bound are the same length: whichever
    // fires first, the engine accepted the connection and did not answer in time.
    if (!timedOut() && !(err instanceof AnswerTimeoutError)) {
      throw err;
    }
    throw new ConnectionFailedError(
      `Connection failed: ${address} accepted the connection but did not answer within ${waitMs / 1000} s. Check that this is the engine's HTTP address and port (another service may accept connections without answering), or wait longer with timeout=<seconds>.`
    );
  }
}

async function readCaFile(file: string): Promise<string> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConnectArgsError(
      `%connect: cannot read the CA file ca=${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give the path of a PEM file the kernel can read.`
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConnectArgsError(
      `%connect: ca=${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`
    );
  }
  return pem;
}
