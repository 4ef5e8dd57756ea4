/**
 * Where the real Typesense 0.24.1 the tests run answers unlike Typesense 26 and later (which
 * the sandbox's stand-in imitates, from 26's sources): listed in this one place, each with the
 * release that changed it and why. The suites that run against the real server pick their
 * expectation through `typesenseDiffers`, and the Typesense differential corpus's allowlist
 * names these entries, so a difference is never silently accepted. Reasons cite Typesense's
 * release notes where they say it; "observed" marks what only the real server showed.
 */
export const REAL_TYPESENSE_DIFFERENCES = {
  'pages-only': {
    until: '0.25',
    reason:
      'Searches page with page and per_page only: offset and limit are ignored without a word (observed; 0.24.1 answers page 1 of 10 hits), so the kernel reads grids of a 0.24 server by pages.'
  },
  'no-prefix-filter': {
    until: '0.25',
    reason:
      'filter_by has no word starts nor "lacks word": field:Gla* finds no document at all and field:!glass the documents that hold glass, without a word (observed; both came with 0.25), so the grid refuses "has word starting with" and "lacks word" there.'
  },
  'wildcard-hits-unscored': {
    until: '26.0',
    reason:
      'A wildcard (q=*) hit carries no text_match nor text_match_info; 26 gives every wildcard hit text_match 100 (observed).'
  },
  'fewer-answer-fields': {
    until: '26.0',
    reason:
      'Answers lack what later releases added: request_params.first_q, a facet\'s "sampled", text_match_info\'s num_tokens_dropped and typo_prefix_score, grouped_hits[].found and found_docs, a field\'s "stem" (26.0 notes: stemming), a key\'s "autodelete" (observed).'
  },
  'document-patch-created': {
    until: '26.0',
    reason:
      'PATCH /collections/:c/documents/:id answers 201 Created; 26 answers 200 (observed).'
  },
  'emplace-creates-partial': {
    until: '0.25',
    reason:
      'action=emplace of a document whose id is new accepts it without its required fields; 0.25.0 refuses it ("Field `x` has been declared in the schema, but is not found in the document."), as typesense/typesense#1200 reports of the upgrade from 0.24.1.'
  },
  'synonyms-by-id': {
    until: '26.0',
    reason:
      "A collection's synonyms are listed in id order (0.24 keeps them in a map by id); 26 lists them in the order they were written, as the stand-in does (observed here; the stand-in's order is from 26's sources)."
  },
  'no-stopwords': {
    until: '0.25',
    reason:
      '0.24 has no stopwords sets: /stopwords answers 404 Not Found (observed; the panel offers none there).'
  },
  'alter-answer': {
    until: '26.0',
    reason:
      'A schema change answers each added field with the defaults the engine filled in (as 29 does again), and a body without fields is refused as "The `fields` value should be an array of objects ..." rather than "Only `fields` can be updated at the moment." (observed).'
  },
  'older-texts': {
    until: '26.0',
    reason:
      'Some refusals are worded otherwise: a missing collection is "Not found." (404), an unknown action "Parameter `action` must be a create|update|upsert." (though emplace is taken), a collection without fields "Parameter `fields` is required." (observed).'
  },
  'highlights-of-included-fields': {
    until: '26.0',
    reason:
      'Highlights cover only the query_by fields the answer includes: with include_fields=sku a match in description is not highlighted (observed; the stand-in, written from 26, highlights every query_by field that matched).'
  }
} as const satisfies Record<string, { until: string; reason: string }>;

export type RealTypesenseDifference = keyof typeof REAL_TYPESENSE_DIFFERENCES;

/** A version as a number that orders releases: 0.24.1 -> 0.2401, 26.0 -> 26. */
function versionNumber(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version
    .replace(/^v/, '')
    .split('.')
    .map(Number);
  return major === 0 ? minor / 100 + patch / 10_000 : major + minor / 100;
}

/** Whether a real server of this version answers with this difference from 26+. */
export function typesenseDiffers(
  version: string,
  difference: RealTypesenseDifference
): boolean {
  return (
    versionNumber(version) <
    versionNumber(REAL_TYPESENSE_DIFFERENCES[difference].until)
  );
}

/** The version the stand-in plays against a real server: its own when imitated (26 to 30), else the nearest, 26.0. */
export function standInVersionFor(realVersion: string): string {
  const major = Number.parseFloat(realVersion.replace(/^v/, ''));
  return major >= 26 && major <= 30 ? realVersion : '26.0';
}
