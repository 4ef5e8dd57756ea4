/**
 * A loopback server answering `GET /` as an Elasticsearch node of whatever version a test sets
 * last, for what the kernel decides from the version alone (warnings, the endpoints offered).
 */
import type { ServerResponse } from 'node:http';
import { type HostileEngine, startHostileEngine } from './hostile-engine';

export interface VersionedRoot {
  engine: HostileEngine;
  /** The version `GET /` answers from now on. */
  answer(version: string): void;
}

export async function startVersionedRoot(
  version = '8.19.0'
): Promise<VersionedRoot> {
  let answered = version;
  const engine = await startHostileEngine({
    '/': (_req: unknown, res: ServerResponse) => {
      res.writeHead(200, {
        'x-elastic-product': 'Elasticsearch',
        'content-type': 'application/json'
      });
      res.end(
        JSON.stringify({
          name: 'node',
          cluster_name: 'test',
          version: { number: answered },
          tagline: 'You Know, for Search'
        })
      );
    }
  });
  return {
    engine,
    answer: next => {
      answered = next;
    }
  };
}
