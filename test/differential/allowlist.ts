/**
 * The differential suite's allowlist: the ONLY place where a sandbox answer may differ from a
 * real node's. At most 10 entries, each naming corpus entries (`file: title`) and saying why
 * the difference is accepted rather than fixed. An allowlisted entry still counts as not
 * identical in the printed share.
 */
export interface Allowance {
  /** Corpus entry ids this allowance covers. */
  entries: string[];
  /** Major versions it applies to; all when absent. */
  versions?: number[];
  reason: string;
}

export const ALLOWLIST: Allowance[] = [];

export function allowed(entry: string, major: number): Allowance | undefined {
  return ALLOWLIST.find((a) => a.entries.includes(entry) && (!a.versions || a.versions.includes(major)));
}
