/**
 * Which Typesense release the sandbox imitates. Only the behaviours that the drivers can
 * observe are switched on the version; everything else is shared.
 */
export interface EngineVersion {
  /** As reported by `/debug`, e.g. `29.0`. */
  readonly text: string;
  readonly major: number;
  readonly minor: number;
}

export function parseVersion(text: string): EngineVersion {
  const m = /^v?(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m || m[1] === undefined) {
    throw new Error(
      `Unrecognised Typesense version "${text}"; write e.g. "29.0".`
    );
  }
  const major = Number(m[1]);
  const minor = m[2] === undefined ? 0 : Number(m[2]);
  if (major < 26 || major > 30) {
    throw new Error(
      `The Typesense sandbox imitates versions 26 to 30, not "${text}".`
    );
  }
  return { text: `${major}.${minor}`, major, minor };
}

/** Version-dependent behaviour, named after what it changes rather than the release. */
export function features(v: EngineVersion) {
  return {
    /** `DELETE .../documents?truncate=true` (28.0). */
    truncate: v.major >= 28,
    /** Import failures carry the offending `document` unless asked (26, 27); later only with `return_doc`. */
    importDocOnError: v.major < 28,
    /** 29 renamed the missing-collection texts. */
    collectionNotFoundText: v.major >= 29 ? 'Collection not found' : null,
    /** Field summaries gain `store` in 27 and `stem_dictionary` in 28. */
    fieldStore: v.major >= 27,
    fieldStemDictionary: v.major >= 28,
    /** `union: true` in multi_search and `validate_field_names` (28). */
    unionSearch: v.major >= 28,
    validateFieldNames: v.major >= 28,
    /** 29 adds cache figures and percentiles to `/stats.json`. */
    statsPercentiles: v.major >= 29,
    /** 30 lists global synonym and curation sets on each collection. */
    globalSets: v.major >= 30,
    /** Schema alters take `metadata` too, and refuse an empty body by name (27). */
    alterMetadata: v.major >= 27,
    /** A schema alter answers each added field with the defaults the engine filled in (29). */
    alterAnswersFilledFields: v.major >= 29,
    /** `GET /operations/schema_changes` (28). */
    schemaChanges: v.major >= 28,
    /** `GET /collections?exclude_fields=` (27). */
    collectionListExclude: v.major >= 27,
    /** Vector fields list their `hnsw_params` (28). */
    hnswParams: v.major >= 28,
    /** 30 field summaries carry `truncate_len` (default 100). */
    fieldTruncateLen: v.major >= 30
  };
}

export type Features = ReturnType<typeof features>;
