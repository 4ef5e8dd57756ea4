import { randomUUID } from 'node:crypto';
import { listen } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { REAL_TYPESENSE_VERSION } from './real-typesense/binary';
import {
  realTypesenseMissing,
  realTypesenseServer
} from './real-typesense/run-server';
import { SECRETS } from './secrets';

/**
 * The Typesense engines the parameterised suites run against: the sandbox's stand-in at the
 * version a suite names, and the run's real server (test/support/real-typesense), shared by
 * every suite. One list, so every suite covers the same ones. On the real server a suite's
 * collections get a name of their own (`items_1a2b3c4d`), removed when the suite closes.
 */
export interface TsTarget {
  /** For test titles: "sandbox Typesense 29.0", "real Typesense 0.24.1". */
  name: string;
  real: boolean;
  /** The version /debug reports. */
  version: string;
  /** Why this target does not run here, or undefined. */
  skipped: string | undefined;
  start(collections: TsCollection[]): Promise<RunningTsTarget>;
}

export interface TsCollection {
  schema: { name: string } & Record<string, unknown>;
  docs: Record<string, unknown>[];
}

export interface RunningTsTarget {
  url: string;
  /** The name each collection has on this target, by the name the suite gave it. */
  names: Record<string, string>;
  close(): Promise<void>;
}

/** Starting the real server may include its first start (about 5 s) and loading. */
export const TS_START_TIMEOUT_MS = 120_000;

export function typesenseTargets(sandboxVersion: string): TsTarget[] {
  return [
    {
      name: `sandbox Typesense ${sandboxVersion}`,
      real: false,
      version: sandboxVersion,
      skipped: undefined,
      start: async collections => {
        const ts = createTypesenseSandbox({
          version: sandboxVersion,
          apiKey: SECRETS.TS_API_KEY
        });
        for (const c of collections) {
          ts.createCollection(
            c.schema as Parameters<typeof ts.createCollection>[0]
          );
          ts.loadDocuments(c.schema.name, c.docs);
        }
        const server = await listen(ts.handler, { port: 0 });
        const names = Object.fromEntries(
          collections.map(c => [c.schema.name, c.schema.name])
        );
        return { url: server.url, names, close: () => server.close() };
      }
    },
    {
      name: `real Typesense ${REAL_TYPESENSE_VERSION}`,
      real: true,
      version: REAL_TYPESENSE_VERSION,
      skipped: realTypesenseMissing(),
      start: async collections => {
        const server = await realTypesenseServer();
        const run = randomUUID().slice(0, 8);
        const names: Record<string, string> = {};
        const call = async (method: string, path: string, body?: string) => {
          const res = await fetch(`${server.url}${path}`, {
            method,
            headers: {
              'x-typesense-api-key': server.apiKey,
              ...(body === undefined ? {} : { 'content-type': 'text/plain' })
            },
            ...(body === undefined ? {} : { body })
          });
          const text = await res.text();
          if (!res.ok) {
            throw new Error(
              `${method} ${path} answered ${res.status}: ${text}`
            );
          }
          return text;
        };
        for (const c of collections) {
          const name = `${c.schema.name}_${run}`;
          names[c.schema.name] = name;
          await call(
            'POST',
            '/collections',
            JSON.stringify({ ...c.schema, name })
          );
          const answer = await call(
            'POST',
            `/collections/${name}/documents/import?action=create`,
            c.docs.map(d => JSON.stringify(d)).join('\n')
          );
          if (answer.split('\n').some(l => !l.includes('"success":true'))) {
            throw new Error(`loading ${name}: ${answer.slice(0, 400)}`);
          }
        }
        return {
          url: server.url,
          names,
          // The server is the run's: only this suite's collections go.
          close: async () => {
            for (const name of Object.values(names)) {
              await call('DELETE', `/collections/${name}`).catch(
                () => undefined
              );
            }
          }
        };
      }
    }
  ];
}
