/** The real node a differential run compares with. */
export interface RealNode {
  url: string;
  /** As the node reports it in GET /, e.g. 7.17.29; the sandbox is started as the same version. */
  version: string;
  major: number;
}

import { request } from 'undici';

const ENV = (major: number): string => `SEARCHBOOK_DIFF_ES${major}_URL`;

export async function realNode(major: number): Promise<RealNode | undefined> {
  const url = process.env[ENV(major)];
  if (!url) return undefined;
  const res = await request(url + '/');
  const body = (await res.body.json()) as { version: { number: string } };
  return { url, version: body.version.number, major };
}

realNode.why = (major: number): string => `set ${ENV(major)} to a node's URL`;
