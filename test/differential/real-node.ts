/**
 * The real node a differential run compares with: the run's shared node from
 * test/support/real-elasticsearch (started on first use), or the URL in
 * SEARCHBOOK_DIFF_ES<major>_URL to compare with a node started some other way.
 */
import { request } from 'undici';
import { realNode as runNode } from '../support/real-elasticsearch/run-nodes';

export interface RealNode {
  url: string;
  /** As the node reports it in GET /, e.g. 7.17.29; the sandbox is started as the same version. */
  version: string;
  major: number;
}

export type RealNodeOrWhy = { node: RealNode } | { skipped: string };

const FLAVOUR = { 7: 'es-7.17', 8: 'es-8.19' } as const;

export async function realNode(major: 7 | 8): Promise<RealNodeOrWhy> {
  let url = process.env[`SEARCHBOOK_DIFF_ES${major}_URL`];
  if (!url) {
    const outcome = await runNode(FLAVOUR[major]);
    if ('skipped' in outcome) {
      return { skipped: outcome.skipped };
    }
    url = outcome.node.url;
  }
  const res = await request(url + '/');
  const body = (await res.body.json()) as { version: { number: string } };
  return { node: { url, version: body.version.number, major } };
}
