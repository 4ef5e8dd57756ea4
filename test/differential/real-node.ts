/**
 * The real node a differential run compares with: the node the run's other suites share, from
 * test/support/real-elasticsearch (started on first use), or the URL in
 * SEARCHBOOK_DIFF_ES7_URL, SEARCHBOOK_DIFF_ES8_URL, SEARCHBOOK_DIFF_ES9_URL or
 * SEARCHBOOK_DIFF_OPENSEARCH_URL to compare with a node started some other way.
 */
import { request } from 'undici';
import type { RealFlavourId } from '../support/real-elasticsearch/flavours';
import {
  realNode as runNode,
  SUITES_INSTANCE
} from '../support/real-elasticsearch/run-nodes';
import type { ReleaseLine } from '../support/real-node-differences';

export interface RealNode {
  url: string;
  /** As the node reports it in GET /, e.g. 7.17.29. */
  version: string;
  line: ReleaseLine;
  /**
   * The version the sandbox is started as: the node's own for 7.x and 8.x; 8.19.0 for 9.x and
   * OpenSearch, which the sandbox does not play (their answers unlike 8.19 are listed in
   * test/support/real-node-differences.ts).
   */
  sandboxVersion: string;
}

export type RealNodeOrWhy = { node: RealNode } | { skipped: string };

const FLAVOUR: Record<ReleaseLine, RealFlavourId> = {
  'es-7': 'es-7.17',
  'es-8': 'es-8.19',
  'es-9': 'es-9.5',
  opensearch: 'opensearch-2.19'
};

const URL_VARIABLE: Record<ReleaseLine, string> = {
  'es-7': 'SEARCHBOOK_DIFF_ES7_URL',
  'es-8': 'SEARCHBOOK_DIFF_ES8_URL',
  'es-9': 'SEARCHBOOK_DIFF_ES9_URL',
  opensearch: 'SEARCHBOOK_DIFF_OPENSEARCH_URL'
};

export async function realNode(line: ReleaseLine): Promise<RealNodeOrWhy> {
  let url = process.env[URL_VARIABLE[line]];
  if (!url) {
    const outcome = await runNode(FLAVOUR[line], SUITES_INSTANCE);
    if ('skipped' in outcome) {
      return { skipped: outcome.skipped };
    }
    url = outcome.node.url;
  }
  const res = await request(url + '/');
  const body = (await res.body.json()) as { version: { number: string } };
  const version = body.version.number;
  const sandboxVersion =
    line === 'es-7' || line === 'es-8' ? version : '8.19.0';
  return { node: { url, version, line, sandboxVersion } };
}
