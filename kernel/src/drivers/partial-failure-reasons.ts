/** How many reasons a partial failure quotes: enough to see a pattern, few enough to read. */
const REASONS = 3;
/** Each reason is cut here: a mapping error can quote a whole document. */
const REASON_CHARS = 300;

/** The first distinct reasons of a partial failure, cut to a readable length. */
export function firstReasons(reasons: Iterable<string>): string[] {
  const kept: string[] = [];
  for (const reason of reasons) {
    const cut = reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason;
    if (!kept.includes(cut)) kept.push(cut);
    if (kept.length === REASONS) break;
  }
  return kept;
}
