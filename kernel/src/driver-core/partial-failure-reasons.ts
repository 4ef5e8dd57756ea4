/** How many reasons a partial failure's warning lists: enough to see a pattern, few enough to read. */
const REASONS = 3;
/** Each reason is cut here: an engine's error can quote a whole document. */
const REASON_CHARS = 300;

/** The first distinct reasons, cut to a readable length. */
export function firstReasons(reasons: Iterable<string>): string[] {
  const kept: string[] = [];
  for (const reason of reasons) {
    const cut =
      reason.length > REASON_CHARS
        ? `${reason.slice(0, REASON_CHARS - 1)}…`
        : reason;
    if (!kept.includes(cut)) {
      kept.push(cut);
    }
    if (kept.length === REASONS) {
      break;
    }
  }
  return kept;
}
