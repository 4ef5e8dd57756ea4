/**
 * What each Typesense version the panel supports (26 to 30) offers of the resources beside
 * documents, in one place. Typesense 30 moved synonyms and curation (overrides) out of the
 * collections into global sets that collections name
 * (https://typesense.org/docs/30.0/api/synonyms.html, .../curation.html).
 */
export interface ResourceVersion {
  /** `/synonym_sets` and `/curation_sets`; per-collection `/synonyms` and `/overrides` before. */
  globalSets: boolean;
}

/** The major version of a version text such as `29.0` or `v30.1`; NaN when unreadable. */
export function majorOf(version: string | undefined): number {
  return Number.parseFloat((version ?? '').replace(/^v/, ''));
}

/** An unreadable version (a key that may not read /debug) is taken as the newest. */
export function resourceVersion(version: string | undefined): ResourceVersion {
  const major = majorOf(version);
  return { globalSets: !Number.isFinite(major) || major >= 30 };
}

export const GLOBAL_SETS_SINCE = 'Typesense 30';
