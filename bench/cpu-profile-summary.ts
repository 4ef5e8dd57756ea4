/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and sums its samples within a time window, per
 * place: the nearest frame in searchbook's own code or in a package (`file:function`), per
 * leaf function (where the time itself went: JSON.parse, an HMAC update, a copy), and per
 * searchbook function with what it called (a phase of the cell: parse, present, bundle, encode).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Microseconds sampled in the window, per nearest own or package frame. */
  byPlace: Map<string, number>;
  /** Microseconds per leaf frame (with its nearest own or package frame). */
  byLeaf: Map<string, number>;
  /** Microseconds with each of searchbook's functions on the stack (itself and what it called). */
  inclusive: Map<string, number>;
  /** Microseconds covered by the window. */
  windowUs: number;
}

/** `kernel/src/render/bundle.js` or `undici/lib/...` from a frame's URL; undefined for Node's own and V8's frames. */
function placeOf(url: string): string | undefined {
  const own = /\/dist\/(kernel\/src\/.+?)\.js$/.exec(url);
  if (own) {
    return own[1];
  }
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return pkg ? pkg[1] : undefined;
}

function frameName(node: ProfileNode): string {
  return node.callFrame.functionName || '(anonymous)';
}

/** Sums the samples taken between `fromUs` and `toUs` (the profile's clock: CLOCK_MONOTONIC microseconds, as process.hrtime). */
export function summarise(
  file: string,
  fromUs: number,
  toUs: number
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }

  const labels = new Map<
    number,
    { place: string; leaf: string; own: string[] }
  >();
  const label = (id: number) => {
    let known = labels.get(id);
    if (known) {
      return known;
    }
    const leafNode = byId.get(id) as ProfileNode;
    let place: string | undefined;
    const own = new Set<string>();
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parent.get(at)
    ) {
      const node = byId.get(at) as ProfileNode;
      const where = placeOf(node.callFrame.url);
      const name = where?.startsWith('kernel/')
        ? `${where}:${frameName(node)}`
        : where;
      place ??= name;
      if (name?.startsWith('kernel/')) {
        own.add(name);
      }
    }
    const leafWhere =
      placeOf(leafNode.callFrame.url) ??
      (leafNode.callFrame.url.replace(/^node:/, '') || 'native');
    known = {
      place: place ?? `(${frameName(leafNode).replace(/[()]/g, '')})`,
      leaf: `${frameName(leafNode)} [${leafWhere}] in ${place ?? '-'}`,
      own: [...own]
    };
    labels.set(id, known);
    return known;
  };

  const byPlace = new Map<string, number>();
  const byLeaf = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const span = profile.timeDeltas[i + 1] ?? 0;
    if (time < fromUs || time > toUs) {
      continue;
    }
    const { place, leaf, own } = label(profile.samples[i] as number);
    byPlace.set(place, (byPlace.get(place) ?? 0) + span);
    byLeaf.set(leaf, (byLeaf.get(leaf) ?? 0) + span);
    for (const name of own) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + span);
    }
  }
  return { byPlace, byLeaf, inclusive, windowUs: toUs - fromUs };
}

/** The largest entries of a summary table, in milliseconds per cell. */
export function table(
  entries: Map<string, number>,
  cells: number,
  top: number
): string[] {
  return [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, us]) => `${(us / 1000 / cells).toFixed(3).padStart(8)}  ${name}`
    );
}
