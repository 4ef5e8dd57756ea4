/**
 * The engine targets this test run has, each with a kernel of its own over ZeroMQ, the panel's
 * comm open on it, and the suite's data set loaded. Elasticsearch runs as the sandbox stand-in
 * and as real 7.17, 8.19 and 9.5 nodes and OpenSearch 2.19 (test/support/elasticsearch-targets), Typesense as its sandbox
 * and as the run's real 0.24.1 server (test/support/real-typesense).
 */
import { randomUUID } from 'node:crypto';
import { listen } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { SECRETS } from '../../support/secrets';
import {
  type PanelCommClient,
  kernelWithPanelCommBeside
} from '../../panel/panel-comm-client';
import {
  type BreakingProxy,
  startBreakingProxy
} from '../../support/breaking-proxy';
import {
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS
} from '../../support/elasticsearch-targets';
import type { KernelClient } from '../../support/kernel-client';
import type { RealFlavourId } from '../../support/real-elasticsearch/flavours';
import { REAL_TYPESENSE_VERSION } from '../../support/real-typesense/binary';
import {
  realTypesenseMissing,
  realTypesenseServer
} from '../../support/real-typesense/run-server';
import {
  fixtureFor,
  type EngineFixture,
  type EngineHttp,
  SHOP
} from './engines';
import { scratchDir } from '../../support/scratch-dir';

export interface ContractTarget {
  /** For test titles, e.g. "real Elasticsearch 7.17.29". */
  name: string;
  engine: string;
  /** The version the engine reports. */
  version: string;
  /** The real node's flavour; undefined for a sandbox (which answers as 8.19 does). */
  flavour: RealFlavourId | undefined;
  /** Whether this is a real server rather than the sandbox's stand-in. */
  real: boolean;
  /** Why this target does not run here, or undefined. */
  skipped: string | undefined;
  start(): Promise<{ url: string; close(): Promise<void> }>;
}

const TYPESENSE_VERSION = '30.0';

/** Every target: new engines add theirs here, and registry.test.ts checks each registered engine has one. */
export function contractTargets(): ContractTarget[] {
  const elastic = elasticsearchTargets(undefined, { newest: true }).map(
    (t): ContractTarget => ({
      name: t.name,
      engine: 'elasticsearch',
      version: t.version,
      flavour: t.flavour,
      real: t.engine === 'real',
      skipped: t.skipped,
      start: () => t.start({ security: false })
    })
  );
  const typesense: ContractTarget = {
    name: `sandbox Typesense ${TYPESENSE_VERSION}`,
    engine: 'typesense',
    version: TYPESENSE_VERSION,
    flavour: undefined,
    real: false,
    skipped: undefined,
    start: async () => {
      const server = await listen(
        createTypesenseSandbox({
          version: TYPESENSE_VERSION,
          apiKey: SECRETS.TS_API_KEY
        }).handler,
        { port: 0 }
      );
      return { url: server.url, close: () => server.close() };
    }
  };
  // The real server is shared by the run's suites (global-teardown.ts stops it).
  const realTypesense: ContractTarget = {
    name: `real Typesense ${REAL_TYPESENSE_VERSION}`,
    engine: 'typesense',
    version: REAL_TYPESENSE_VERSION,
    flavour: undefined,
    real: true,
    skipped: realTypesenseMissing(),
    start: async () => {
      const server = await realTypesenseServer();
      return { url: server.url, close: async () => undefined };
    }
  };
  return [...elastic, typesense, realTypesense];
}

/** One target while its describe runs: the engine, a kernel connected to it as `connection`, the panel's comm. */
export interface TargetContext {
  target: ContractTarget;
  fixture: EngineFixture;
  http: EngineHttp;
  kernel: KernelClient;
  comm: PanelCommClient;
  /** The `%connect` name; the kernel reaches the engine through `proxy`. */
  connection: string;
  /** Between the kernel and the engine: records every request, and can delay or cut an answer. */
  proxy: BreakingProxy;
  /** The kernel's working directory, where exports land. */
  cwd: string;
  /** A target holding SHOP, read by the tests and never written. */
  shop: string;
  /** A fresh target name for a test that writes (removed after the run). */
  fresh(label: string): string;
}

/**
 * `describe` once per target, with the context its tests share: one engine, one kernel and the
 * data set per target. A target that cannot run here is reported as skipped, with why.
 */
export function describeEachEngine(
  body: (context: () => TargetContext) => void
): void {
  for (const target of contractTargets()) {
    const title = `${target.name}${target.skipped ? ` (skipped: ${target.skipped})` : ''}`;
    (target.skipped ? describe.skip : describe)(title, () => {
      let context: TargetContext | undefined;
      const created: string[] = [];
      let close: (() => Promise<void>) | undefined;
      let proxy: BreakingProxy | undefined;
      beforeAll(async () => {
        const fixture = fixtureFor(target);
        if (!fixture) {
          throw new Error(
            `no fixture for the engine ${target.engine}: add its row to ENGINE_FIXTURES`
          );
        }
        const engine = await target.start();
        close = engine.close;
        const http: EngineHttp = {
          url: engine.url,
          call: async (
            method,
            path,
            body,
            contentType = 'application/json'
          ) => {
            const answer = await fetch(`${engine.url}${path}`, {
              method,
              headers: {
                ...fixture.headers,
                ...(body === undefined ? {} : { 'content-type': contentType })
              },
              ...(body === undefined ? {} : { body })
            });
            return { status: answer.status, text: await answer.text() };
          }
        };
        // Names of this run's own: a real node is shared by the run's suites.
        const run = randomUUID().slice(0, 8);
        const fresh = (label: string) => {
          const name = `contract_${label}_${run}`;
          created.push(name);
          return name;
        };
        const shop = fresh('shop');
        const cwd = scratchDir('searchbook-contract-');
        const connection = 'engine';
        proxy = await startBreakingProxy(engine.url);
        // The kernel starts while the data set is loaded.
        const { kernel, comm } = await kernelWithPanelCommBeside(
          () => fixture.createTarget(http, shop, SHOP),
          [
            `%connect ${fixture.engine} ${proxy.url} ${fixture.connectOptions} name=${connection}`
          ],
          { ...SECRETS },
          { cwd }
        );
        context = {
          target,
          fixture,
          http,
          kernel,
          comm,
          connection,
          proxy,
          cwd,
          shop,
          fresh
        };
      }, REAL_START_TIMEOUT_MS);
      beforeEach(() => {
        if (proxy) {
          proxy.rules.length = 0;
        }
      });
      afterAll(async () => {
        await context?.kernel.close();
        await proxy?.close();
        if (context) {
          const { fixture, http } = context;
          await Promise.all(
            created.map(name =>
              fixture.deleteTarget(http, name).catch(() => undefined)
            )
          );
        }
        await close?.();
      });
      body(() => {
        if (!context) {
          throw new Error(`${target.name} did not start`);
        }
        return context;
      });
    });
  }
}
