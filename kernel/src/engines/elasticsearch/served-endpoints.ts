/**
 * The endpoints the node connected serves, for completion and inspection: Elastic's
 * specification records when each endpoint came in and when it was deprecated, so a node is
 * offered only what its version has, deprecated ones say so, and a 9.x node is not offered
 * what 9.x removed (unless requests ask for 8.x compatibility, under which 9.x still serves it).
 */
import type { EndpointInfo } from '../../driver-core/driver';
import type { CatalogEntry } from './endpoint-catalog';
import { removedInNine } from './removed-in-nine';

/** What decides the endpoints: the node's version (`9.5.3`; undefined before `GET /` answered) and the compatibility asked. */
export interface ServedBy {
  readonly version: string | undefined;
  /** The major version of `compatible-with=` on every request, if any. */
  readonly compatibleWith?: number;
}

type VersionParts = readonly [number, number, number];

export function versionParts(version: string): VersionParts | undefined {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
  if (!match) {
    return undefined;
  }
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function atLeast(node: VersionParts, wanted: VersionParts): boolean {
  for (let i = 0; i < 3; i++) {
    const [n, w] = [node[i] as number, wanted[i] as number];
    if (n !== w) {
      return n > w;
    }
  }
  return true;
}

/** Whether a node of this version has the entry (unknown versions on either side: yes). */
function isServed(
  entry: CatalogEntry,
  node: VersionParts | undefined
): boolean {
  const since = entry.since ? versionParts(entry.since) : undefined;
  return node === undefined || since === undefined || atLeast(node, since);
}

function isDeprecatedOn(
  entry: CatalogEntry,
  node: VersionParts | undefined
): boolean {
  const since = entry.deprecated
    ? versionParts(entry.deprecated.version)
    : undefined;
  return since !== undefined && (node === undefined || atLeast(node, since));
}

/** The one-line description completion shows, saying first what a user must know before using it. */
function describe(entry: CatalogEntry, deprecated: boolean): string {
  const words: string[] = [];
  if (deprecated && entry.deprecated) {
    words.push(
      `Deprecated in ${entry.deprecated.version}${entry.deprecated.reason ? `: ${entry.deprecated.reason}` : '.'}`
    );
  }
  words.push(entry.description);
  if (entry.stability === 'experimental') {
    words.push('(Technical preview.)');
  } else if (entry.stability === 'beta') {
    words.push('(Beta.)');
  }
  return words.join(' ');
}

/** A 9.x node without 8.x compatibility answers what 9.x removed "no handler found". */
function removedOnNode(
  entry: CatalogEntry,
  node: VersionParts | undefined,
  compatibleWith: number | undefined
): boolean {
  if (node === undefined || node[0] < 9 || compatibleWith === 8) {
    return false;
  }
  return entry.methods.every(
    method =>
      removedInNine({
        kind: 'request',
        method,
        path: entry.path,
        query: '',
        line: 1
      }) !== undefined
  );
}

export function servedEndpoints(
  catalog: readonly CatalogEntry[],
  served: ServedBy
): EndpointInfo[] {
  const node = served.version ? versionParts(served.version) : undefined;
  const endpoints: EndpointInfo[] = [];
  for (const entry of catalog) {
    if (
      !isServed(entry, node) ||
      removedOnNode(entry, node, served.compatibleWith)
    ) {
      continue;
    }
    const info: EndpointInfo = {
      methods: entry.methods,
      path: entry.path,
      description: describe(entry, isDeprecatedOn(entry, node))
    };
    if (entry.docUrl) {
      info.docUrl = entry.docUrl;
    }
    endpoints.push(info);
  }
  return endpoints;
}
