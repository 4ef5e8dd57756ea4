/**
 * What each Typesense version the panel supports (26 to 30) offers of the resources beside
 * documents, in one place. Typesense 30 moved synonyms and curation (overrides) out of the
 * collections into global sets that collections name
 * (https://typesense.org/docs/30.0/api/synonyms.html, .../curation.html).
 */
export interface ResourceVersion {
  /** `/synonym_sets` and `/curation_sets`; per-collection `/synonyms` and `/overrides` before. */
  globalSets: boolean;
  /** `/stopwords` sets: 0.24 has none (it answers 404 there). */
  stopwords: boolean;
}

/** The major version of a version text such as `29.0` or `v30.1`; NaN when unreadable. */
export function majorOf(version: string | undefined): number {
  return Number.parseFloat((version ?? '').replace(/^v/, ''));
}

/** An unreadable version (a key that may not read /debug) is taken as the newest. */
export function resourceVersion(version: string | undefined): ResourceVersion {
  const major = majorOf(version);
  const unknown = !Number.isFinite(major);
  return {
    globalSets: unknown || major >= 30,
    stopwords: unknown || major >= STOPWORDS_SINCE
  };
}

/** 0.25, as majorOf reads `0.25.2`. */
const STOPWORDS_SINCE = 0.25;
export const STOPWORDS_SINCE_TEXT = 'Typesense 0.25';

/**
 * Whether searches must page with `page` and `per_page`: 0.24 ignores `offset` and `limit`
 * without a word (it answers the first page of 10), so a grid read by offsets would repeat
 * rows. Page numbers mean the same on every version; offsets are kept from 26 on, where the
 * grid's requests (and the curl commands it offers) read more naturally with them.
 */
export function pagesOnly(version: string | undefined): boolean {
  const major = majorOf(version);
  return Number.isFinite(major) && major < 26;
}

/** The oldest version searchbook was tried against (a real 0.24.1 server in its tests). */
export const OLDEST_TESTED = '0.24';
export const OLDEST_TESTED_MAJOR = 0.24;

export const GLOBAL_SETS_SINCE = 'Typesense 30';
