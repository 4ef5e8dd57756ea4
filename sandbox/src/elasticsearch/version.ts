/** Version arithmetic: the sandbox changes its answers by the version it pretends to be. */
export interface EsVersion {
  number: string;
  major: number;
  minor: number;
  patch: number;
}

export function parseVersion(text: string): EsVersion {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m) {
    throw new Error(
      `unsupported Elasticsearch version "${text}": write it like 8.15.0 or 7.17.0`
    );
  }
  const major = Number(m[1]);
  if (major !== 7 && major !== 8) {
    throw new Error(
      `unsupported Elasticsearch version "${text}": 7.x and 8.x are supported`
    );
  }
  const minor = Number(m[2]);
  const patch = Number(m[3] ?? 0);
  return { number: `${major}.${minor}.${patch}`, major, minor, patch };
}

export function atLeast(v: EsVersion, major: number, minor = 0): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

/** Lucene line shipped with each release family, close enough for the root endpoint. */
export function luceneVersion(v: EsVersion): string {
  if (v.major === 7) {
    return '8.11.1';
  }
  if (v.minor >= 15) {
    return '9.11.1';
  }
  if (v.minor >= 12) {
    return '9.9.2';
  }
  return '9.7.0';
}

/** The numeric form ES stores as index.version.created, e.g. 8150099. */
export function createdVersionId(v: EsVersion): string {
  // From 8.12 index versions are numbered on their own; 8.19's (read from a real 8.19.21 node):
  if (v.major === 8 && v.minor === 19) {
    return '8537000';
  }
  return String(v.major * 1_000_000 + v.minor * 10_000 + v.patch * 100 + 99);
}
