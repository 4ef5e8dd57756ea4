import { delimiter, join } from 'node:path';
import { accessSync, constants } from 'node:fs';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  ES_TEST_PASSWORD,
  REAL_FLAVOURS,
  type RealFlavourId
} from './real-elasticsearch/flavours';
import {
  ensureProducts,
  REAL_NODE_PRODUCTS
} from './real-elasticsearch/products';
import { java21Missing } from './real-elasticsearch/jvm';
import type { RealNodeAddress } from './real-elasticsearch/launch';
import { realNode, SUITES_INSTANCE } from './real-elasticsearch/run-nodes';

/**
 * The Elasticsearch engines the parameterised suites run against: the sandbox stand-in and
 * real nodes (test/support/real-elasticsearch). One list, so every suite covers the same ones.
 */
export interface EsTarget {
  /** For test titles, e.g. "real Elasticsearch 8.19.21", "real OpenSearch 2.19.1". */
  name: string;
  engine: 'sandbox' | 'real';
  /** The real node's flavour (test/support/real-elasticsearch/flavours.ts); undefined for the sandbox. */
  flavour: RealFlavourId | undefined;
  /** The version `GET /` reports. */
  version: string;
  /** Whether a secured engine (Basic, API keys, 401s) can be had. */
  canSecure: boolean;
  /** Whether a secured engine over HTTPS, with a CA file of its own, can be had. */
  canTls: boolean;
  /** Why this target does not run here (a machine without Java), or undefined. */
  skipped: string | undefined;
  /** An engine with the sample `products` index (alias `catalog`); real nodes are shared per run. */
  start(opts: { security: boolean; tls?: boolean }): Promise<RunningEsTarget>;
}

export interface RunningEsTarget {
  url: string;
  caFile?: string;
  close(): Promise<void>;
}

/**
 * The parameterised suites share their real nodes with each other and with the differential
 * suite (which keeps to its own `diff_*` indices). They treat `products` and `catalog` as
 * read-only and remove what else they create.
 */
export { SUITES_INSTANCE };

/** The suites' node of this flavour; one that could not start fails the suite with the reason. */
export async function suitesNode(
  flavour: RealFlavourId
): Promise<RealNodeAddress> {
  const outcome = await realNode(flavour, SUITES_INSTANCE);
  if ('skipped' in outcome) {
    throw new Error(outcome.skipped);
  }
  return outcome.node;
}

/** Starting a real node may include the first Maven build of the launchers. */
export const REAL_START_TIMEOUT_MS = 10 * 60_000;

const sandboxTarget = (version: string): EsTarget => ({
  name: `sandbox Elasticsearch ${version}`,
  engine: 'sandbox',
  flavour: undefined,
  version,
  canSecure: true,
  canTls: true,
  skipped: undefined,
  start: async ({ security, tls = false }) => {
    const sandbox: RunningSandbox = await startSandbox({
      esPort: 0,
      tsPort: 0,
      tls,
      esVersion: version,
      tsVersion: '29.0',
      esPassword: ES_TEST_PASSWORD,
      tsApiKey: 'unused-typesense-key',
      security,
      products: REAL_NODE_PRODUCTS
    });
    return {
      url: sandbox.esUrl,
      ...(sandbox.caFile ? { caFile: sandbox.caFile } : {}),
      close: () => sandbox.close()
    };
  }
});

interface RealFlavours {
  open: RealFlavourId;
  secured?: RealFlavourId;
  /** Secured and over HTTPS (started only when a TLS suite asks). */
  tls?: RealFlavourId;
}

const realTarget = ({
  open,
  secured,
  tls: overHttps
}: RealFlavours): EsTarget => ({
  name: `real ${REAL_FLAVOURS[open].product === 'opensearch' ? 'OpenSearch' : 'Elasticsearch'} ${REAL_FLAVOURS[open].version}`,
  engine: 'real',
  flavour: open,
  version: REAL_FLAVOURS[open].version,
  canSecure: secured !== undefined,
  canTls: overHttps !== undefined,
  skipped: realNodesUnavailable() ?? java21Missing(open),
  start: async ({ security, tls = false }) => {
    const version = REAL_FLAVOURS[open].version;
    if (tls && !security) {
      throw new Error(
        'the real HTTPS node is secured (HTTPS comes with x-pack security): ask for security too'
      );
    }
    const flavour = tls ? overHttps : security ? secured : open;
    if (!flavour) {
      throw new Error(
        `no ${tls ? 'HTTPS' : 'secured'} ${version} node (x-pack-security is on Central for 8.19 only)`
      );
    }
    const node = await suitesNode(flavour);
    await ensureProducts(node);
    // Shared by the whole run; global-teardown.ts stops it.
    const { url, caFile } = node;
    return { url, ...(caFile ? { caFile } : {}), close: async () => undefined };
  }
});

/**
 * The sandbox at the versions a suite covered before (8.15.0 unless it says), then the real
 * 8.19 and 7.17 nodes; with `newest`, real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (the
 * suites that take them say where they answer unlike 8.19 in real-node-differences.ts).
 */
export function elasticsearchTargets(
  sandboxVersions: string[] = ['8.15.0'],
  { newest = false }: { newest?: boolean } = {}
): EsTarget[] {
  return [
    ...sandboxVersions.map(sandboxTarget),
    realTarget({
      open: 'es-8.19',
      secured: 'es-8.19-security',
      tls: 'es-8.19-tls'
    }),
    realTarget({ open: 'es-7.17' }),
    ...(newest
      ? [
          realTarget({ open: 'es-9.5', secured: 'es-9.5-security' }),
          realTarget({ open: 'opensearch-2.19' })
        ]
      : [])
  ];
}

/**
 * Real OpenSearch, one target per major the tests start: 2.19.1 and 3.3.2 (3.x needs a JDK 21+,
 * as Elasticsearch 9.x does, and is skipped with the reason where there is none). Both answer
 * on the `opensearch` line of real-node-differences.ts.
 */
export function opensearchTargets(): EsTarget[] {
  return [
    realTarget({ open: 'opensearch-2.19' }),
    realTarget({ open: 'opensearch-3.3' })
  ];
}

/** The targets that can serve HTTPS (secured, with their own CA file): the sandbox and real 8.19. */
export function elasticsearchTlsTargets(
  sandboxVersions: string[] = ['8.15.0']
): EsTarget[] {
  return elasticsearchTargets(sandboxVersions).filter(target => target.canTls);
}

/** `describe` once per target; a target that cannot run here is reported as skipped, with why. */
export function describeEachTarget(
  targets: EsTarget[],
  title: string,
  body: (target: EsTarget) => void
): void {
  for (const target of targets) {
    if (target.skipped) {
      describe.skip(`${target.name} (skipped: ${target.skipped}): ${title}`, () =>
        body(target));
    } else {
      describe(`${target.name}: ${title}`, () => body(target));
    }
  }
}

/** Why real nodes cannot run here: opted out, or no Java (checked without starting a JVM). */
function realNodesUnavailable(): string | undefined {
  if (process.env['SEARCHBOOK_REAL_ES'] === '0') {
    return 'SEARCHBOOK_REAL_ES=0';
  }
  return javaOnPath() ? undefined : 'no java on PATH';
}

function javaOnPath(): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some(dir => {
    try {
      accessSync(join(dir, 'java'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
