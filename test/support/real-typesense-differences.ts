/**
 * Where the real Typesense 0.24.1 the tests run answers unlike Typesense 26 and later (which
 * the sandbox's stand-in imitates): listed in this one place, each with its reason from
 * Typesense's release notes or, where they are silent, from what the real server showed. The
 * suites that run against the real server pick their expectation through `typesenseAnswerFor`,
 * and the differential corpus's allowlist names these entries, so a difference is never
 * silently accepted.
 */
export const REAL_TYPESENSE_DIFFERENCES = {} as const satisfies Record<
  string,
  { before: number; reason: string }
>;

/** The version the stand-in plays against a real server: its own when imitated (26 to 30), else the nearest, 26.0. */
export function standInVersionFor(realVersion: string): string {
  const major = Number.parseFloat(realVersion.replace(/^v/, ''));
  return major >= 26 && major <= 30 ? realVersion : '26.0';
}
