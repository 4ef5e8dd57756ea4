import { spawn } from 'node:child_process';
import {
  openSync,
  readFileSync,
  readdirSync,
  mkdirSync,
  closeSync,
  writeFileSync
} from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  fetch as undiciFetch,
  type RequestInit,
  type Response
} from 'undici';
import { generateCertificates } from '@searchbook/sandbox/tls';
import { freePort } from '../free-port';
import {
  LAUNCHERS_DIR,
  ES_TEST_PASSWORD,
  OPENSEARCH_READER_PASSWORD,
  REAL_FLAVOURS,
  superuser,
  type RealFlavourId
} from './flavours';
import { nodeJvm } from './jvm';

/** What a started node is reachable as; also the shape of a run's state file (see run-nodes). */
export interface RealNodeAddress {
  flavour: RealFlavourId;
  version: string;
  url: string;
  pid: number;
  /** The superuser's password when security is on. */
  password?: string;
  /** Whose password that is: `elastic` (Elasticsearch), `admin` (OpenSearch's security plugin). */
  user?: string;
  /** The PEM file of the CA that signed the node's certificate, when it serves HTTPS. */
  caFile?: string;
  log: string;
}

export interface LaunchOptions {
  /** A scratch folder for the node's data, logs and config (it is created). */
  home: string;
  /** The node stops when this process ends (a test run's main process). */
  parentPid: number;
  /** Also stop when our end of stdin closes (starting by hand: Ctrl-C, a closed terminal). */
  stopOnStdinEnd?: boolean;
  /** Keep stdout open and attached, for a foreground node (otherwise the JVM is detached). */
  foreground?: boolean;
  /** A node of a loopback cluster instead of a single node (see LaunchOptions.java). */
  cluster?: ClusterMember;
  /**
   * How often new indices make their writes visible, instead of Elasticsearch's 1s: the grid
   * saves with `refresh=wait_for`, which answers at the index's next refresh.
   */
  refreshInterval?: string;
  /**
   * The client compiler only (-XX:TieredStopAtLevel=1), for a node that serves a test run's small
   * requests: the server compiler's work while a node starts and loads its sample documents costs
   * about as much CPU as the start itself (an 8.19 node and 25,000 documents: 11 s of CPU, 5 s
   * without it), and those requests never repay it. A benchmark's or a hand-started node keeps it.
   */
  clientCompilerOnly?: boolean;
}

/** One node of a cluster on loopback: it finds the others at their transport ports. */
export interface ClusterMember {
  nodeName: string;
  /** Elasticsearch's node.roles; none for a coordinating-only node. */
  roles: string[];
  /** The transport ports of nodes started before it. */
  seedTransportPorts: number[];
  /** The master-eligible node that forms the cluster names itself here. */
  initialMaster?: string;
}

const READY_LINE = 'searchbook real elasticsearch started';
const START_ATTEMPTS = 3;

export function launcherClasspath(flavour: RealFlavourId): string {
  const { module, classpaths } = REAL_FLAVOURS[flavour];
  const target = join(LAUNCHERS_DIR, module, 'target');
  const jars = [join(target, `${module}-1.jar`)];
  for (const folder of classpaths) {
    for (const name of readdirSync(join(target, folder)).sort()) {
      if (name.endsWith('.jar')) {
        jars.push(join(target, folder, name));
      }
    }
  }
  return jars.join(':');
}

/**
 * Starts one real node (the launchers must be built: see build.ts) and resolves once its
 * cluster is green, with one-shard, no-replica defaults for new indices. Retries on another
 * port when one was taken between choosing and binding (other processes pick ports too).
 */
export async function launchRealNode(
  flavour: RealFlavourId,
  opts: LaunchOptions
): Promise<RealNodeAddress & { transportPort: number; stop(): Promise<void> }> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    try {
      return await launchOnce(flavour, opts, attempt);
    } catch (err) {
      lastError = err;
      if (!(err instanceof PortTakenError)) {
        throw err;
      }
    }
  }
  throw lastError;
}

class PortTakenError extends Error {}

async function launchOnce(
  flavour: RealFlavourId,
  opts: LaunchOptions,
  attempt: number
): Promise<RealNodeAddress & { transportPort: number; stop(): Promise<void> }> {
  const spec = REAL_FLAVOURS[flavour];
  const jvm = nodeJvm(flavour);
  if ('skipped' in jvm) {
    throw new Error(jvm.skipped);
  }
  const home = join(opts.home, `${flavour}-${attempt}`);
  mkdirSync(home, { recursive: true });
  const [httpPort, transportPort] = [await freePort(), await freePort()];
  const log = join(home, 'node.log');
  const tlsDir = spec.tls
    ? await writeNodeCertificates(join(home, 'tls'))
    : undefined;
  const logFd = openSync(log, 'a');
  const args = [
    ...jvm.options,
    ...(opts.clientCompilerOnly === true ? ['-XX:TieredStopAtLevel=1'] : []),
    `-Djava.io.tmpdir=${home}`,
    '-cp',
    launcherClasspath(flavour),
    'searchbook.realnode.Launcher',
    `home=${home}`,
    `http.port=${httpPort}`,
    `transport.port=${transportPort}`,
    `parent.pid=${opts.parentPid}`,
    `security=${spec.security}`,
    `stop.on.stdin.eof=${opts.stopOnStdinEnd === true}`,
    ...(tlsDir ? [`tls.dir=${tlsDir}`] : []),
    ...(opts.cluster ? clusterArgs(opts.cluster, transportPort) : [])
  ];
  // The password travels in the environment, not the command line `ps` shows.
  const env = spec.security
    ? {
        ...jvm.env,
        SEARCHBOOK_ES_BOOTSTRAP_PASSWORD: ES_TEST_PASSWORD,
        ...(spec.product === 'opensearch'
          ? { SEARCHBOOK_OS_READER_PASSWORD: OPENSEARCH_READER_PASSWORD }
          : {})
      }
    : jvm.env;
  const child = spawn(jvm.command, args, {
    env,
    detached: opts.foreground !== true,
    stdio: [opts.stopOnStdinEnd === true ? 'pipe' : 'ignore', 'pipe', logFd]
  });
  closeSync(logFd);
  const pid = child.pid;
  const stdout = child.stdout;
  if (pid === undefined || !stdout) {
    throw new Error('java could not be started');
  }

  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.includes(READY_LINE)) {
        stdout.off('data', onData);
        resolve();
      }
    };
    stdout.on('data', onData);
    child.once('exit', code => {
      const tail = readFileSync(log, 'utf8').slice(-4000);
      const failure = `the real ${spec.product === 'opensearch' ? 'OpenSearch' : 'Elasticsearch'} node (${flavour}) exited with ${code} before it started; its log (${log}) ends:\n${tail}`;
      reject(
        /BindException|Address already in use|BindHttpException|BindTransportException/.test(
          tail
        )
          ? new PortTakenError(failure)
          : new Error(failure)
      );
    });
  });
  if (opts.foreground !== true) {
    // Detached: the node outlives the test worker that started it, until the run ends.
    stdout.destroy();
    child.unref();
  }

  const url = `${tlsDir ? 'https' : 'http'}://127.0.0.1:${httpPort}`;
  const password = spec.security ? ES_TEST_PASSWORD : undefined;
  const caFile = tlsDir ? join(tlsDir, 'ca.pem') : undefined;
  const address: RealNodeAddress = {
    flavour,
    version: spec.version,
    url,
    pid,
    log,
    ...(password ? { password, user: superuser(flavour) } : {}),
    ...(caFile ? { caFile } : {})
  };
  try {
    await prepareForTests(address, opts.refreshInterval);
  } catch (err) {
    // A node that failed its set-up is in no state file, so the run's teardown would not stop it.
    await stopRealNode(pid);
    throw err;
  }
  return { ...address, transportPort, stop: () => stopRealNode(pid) };
}

function clusterArgs(member: ClusterMember, ownTransport: number): string[] {
  const seeds = [ownTransport, ...member.seedTransportPorts].map(
    port => `127.0.0.1:${port}`
  );
  return [
    `node.name=${member.nodeName}`,
    `seed.hosts=${seeds.join(',')}`,
    `node.roles=${member.roles.join(',')}`,
    ...(member.initialMaster ? [`initial.master=${member.initialMaster}`] : [])
  ];
}

/**
 * The sandbox's throwaway CA and a loopback server certificate it signs, as the PEM files the
 * launcher's tls.dir names (ca.pem, node.pem, node-key.pem); returns the folder.
 */
async function writeNodeCertificates(dir: string): Promise<string> {
  const certs = await generateCertificates();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ca.pem'), certs.ca);
  writeFileSync(join(dir, 'node.pem'), certs.cert);
  writeFileSync(join(dir, 'node-key.pem'), certs.key, { mode: 0o600 });
  return dir;
}

const trustingAgents = new Map<string, Agent>();

/** fetch to a node, trusting its own CA when it serves HTTPS (set-up requests, not the code under test). */
export function fetchFromNode(
  node: Pick<RealNodeAddress, 'url' | 'caFile'>,
  path: string,
  init: RequestInit = {}
): Promise<Response> {
  if (!node.caFile) {
    return undiciFetch(`${node.url}${path}`, init);
  }
  let agent = trustingAgents.get(node.caFile);
  if (!agent) {
    agent = new Agent({ connect: { ca: readFileSync(node.caFile, 'utf8') } });
    trustingAgents.set(node.caFile, agent);
  }
  return undiciFetch(`${node.url}${path}`, { ...init, dispatcher: agent });
}

/**
 * A request to a node as a test's set-up sends it, bypassing the kernel: the answer's JSON, or
 * an error naming the request and the node's answer. `_bulk` bodies go as NDJSON.
 */
export async function jsonFromNode(
  node: Pick<RealNodeAddress, 'url' | 'caFile' | 'password' | 'user'>,
  method: string,
  path: string,
  body?: string
): Promise<unknown> {
  const res = await fetchFromNode(node, path, {
    method,
    headers: {
      ...authHeaders(node),
      ...(body === undefined
        ? {}
        : {
            'content-type': path.includes('_bulk')
              ? 'application/x-ndjson'
              : 'application/json'
          })
    },
    ...(body === undefined ? {} : { body })
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return JSON.parse(text) as unknown;
}

export function authHeaders(
  node: Pick<RealNodeAddress, 'password' | 'user'>
): Record<string, string> {
  return node.password
    ? {
        authorization: `Basic ${Buffer.from(`${node.user ?? 'elastic'}:${node.password}`).toString('base64')}`
      }
    : {};
}

/**
 * Green cluster, then defaults for test indices: one shard (stable scores), no replicas (green),
 * and the refresh interval asked for, if any.
 */
async function prepareForTests(
  node: RealNodeAddress,
  refreshInterval: string | undefined
): Promise<void> {
  const headers = { ...authHeaders(node), 'content-type': 'application/json' };
  await securityInitialised(node, headers);
  const health = await fetchFromNode(
    node,
    '/_cluster/health?wait_for_status=green&timeout=60s',
    { headers }
  );
  if (!health.ok) {
    throw new Error(
      `${node.flavour}: cluster health answered ${health.status}: ${await health.text()}`
    );
  }
  const template = await fetchFromNode(
    node,
    '/_index_template/searchbook-test-defaults',
    {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        index_patterns: ['*'],
        priority: 0,
        template: {
          settings: {
            number_of_shards: 1,
            number_of_replicas: 0,
            ...(refreshInterval ? { refresh_interval: refreshInterval } : {})
          }
        }
      })
    }
  );
  if (!template.ok) {
    throw new Error(
      `${node.flavour}: the index defaults template was refused: ${template.status} ${await template.text()}`
    );
  }
}

const SECURITY_INIT_LIMIT_MS = 120_000;
/** How long after start-up a refused password is asked again before it counts as wrong. */
const SECURITY_REFUSAL_RETRY_MS = 30_000;

/**
 * A secured node answers every request 503 until its security layer can check a password:
 * OpenSearch's plugin until it loaded its configuration into its index (`OpenSearch Security not
 * initialized.`), Elasticsearch until the primary shard of `.security-7` started (`failed to
 * retrieve password hash for reserved user [elastic]`), which a node starting beside busy
 * processes reaches seconds after it said it started.
 */
async function securityInitialised(
  node: RealNodeAddress,
  headers: Record<string, string>
): Promise<void> {
  if (!node.password) {
    return;
  }
  const whoAmI =
    REAL_FLAVOURS[node.flavour].product === 'opensearch'
      ? '/_plugins/_security/authinfo'
      : '/_security/_authenticate';
  const deadline = Date.now() + SECURITY_INIT_LIMIT_MS;
  // A node still writing its security index has also been seen to refuse the reserved user once
  // (401, `unable to authenticate user [elastic]`) on a loaded machine: asked again for a while.
  const refusedUntil = Date.now() + SECURITY_REFUSAL_RETRY_MS;
  for (;;) {
    const res = await fetchFromNode(node, whoAmI, { headers });
    const body = await res.text();
    if (res.ok) {
      return;
    }
    const transient =
      res.status === 503 || (res.status === 401 && Date.now() < refusedUntil);
    if (!transient || Date.now() > deadline) {
      throw new Error(
        `${node.flavour}: the security layer answered ${res.status}: ${body}`
      );
    }
    await new Promise(r => setTimeout(r, 500));
  }
}

/** SIGTERM (the node closes cleanly), then SIGKILL if it has not ended within 20 s. */
export async function stopRealNode(pid: number): Promise<void> {
  if (!alive(pid)) {
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 20_000;
  while (alive(pid) && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 100));
  }
  if (alive(pid)) {
    process.kill(pid, 'SIGKILL');
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
