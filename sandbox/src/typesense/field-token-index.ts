/**
 * Inverted index of one string field: token -> sequence numbers of the documents whose value
 * holds it. Tokens are grouped by their first two characters so that a prefix lookup reads
 * one group instead of every token. A token held by one document stores the bare number,
 * which is most tokens of an id-like field and saves an object per token.
 */
import type { JsonObject } from './json';
import { valueAt } from './paths';
import { SeqPostings } from './seq-postings';
import { tokenize } from './text';

type Posting = number | SeqPostings;

const EMPTY = new Int32Array(0);

function groupOf(token: string): string {
  return token.slice(0, 2);
}

/** The tokens of a document's value at `field`, and whether it has several string values. */
export function fieldTokens(
  doc: JsonObject,
  field: string
): { tokens: Set<string>; multiValued: boolean } {
  const raw = valueAt(doc, field);
  const values = Array.isArray(raw)
    ? raw
    : raw === undefined || raw === null
      ? []
      : [raw];
  const tokens = new Set<string>();
  let strings = 0;
  for (const v of values) {
    if (typeof v !== 'string') {
      continue;
    }
    strings++;
    for (const t of tokenize(v)) {
      tokens.add(t);
    }
  }
  return { tokens, multiValued: strings > 1 };
}

export class FieldTokenIndex {
  private readonly groups = new Map<string, Map<string, Posting>>();
  /**
   * Documents with more than one string value here. Their score counts hits per value,
   * which a token -> document list cannot tell, so ranking rescans them.
   */
  readonly multiValued = new Set<number>();

  constructor(readonly field: string) {}

  /** Moves a document from its old tokens to its new ones; either side may be absent. */
  update(
    seq: number,
    before: JsonObject | undefined,
    after: JsonObject | undefined
  ): void {
    const old = before ? fieldTokens(before, this.field) : null;
    const next = after ? fieldTokens(after, this.field) : null;
    if (old) {
      for (const t of old.tokens) {
        if (!next?.tokens.has(t)) {
          this.removeToken(t, seq);
        }
      }
    }
    if (next) {
      for (const t of next.tokens) {
        if (!old?.tokens.has(t)) {
          this.addToken(t, seq);
        }
      }
    }
    if (next?.multiValued) {
      this.multiValued.add(seq);
    } else {
      this.multiValued.delete(seq);
    }
  }

  /** Sorted sequence numbers of the documents holding exactly `token`. */
  exact(token: string): Int32Array {
    const p = this.groups.get(groupOf(token))?.get(token);
    if (p === undefined) {
      return EMPTY;
    }
    return typeof p === 'number' ? Int32Array.of(p) : p.sorted();
  }

  /** Sorted, distinct sequence numbers of the documents holding a token that starts with `prefix`. */
  withPrefix(prefix: string): Int32Array {
    const found: number[] = [];
    const collect = (postings: Map<string, Posting>): void => {
      for (const [token, p] of postings) {
        if (!token.startsWith(prefix)) {
          continue;
        }
        if (typeof p === 'number') {
          found.push(p);
        } else {
          for (const s of p.sorted()) {
            found.push(s);
          }
        }
      }
    };
    if (prefix.length >= 2) {
      const group = this.groups.get(groupOf(prefix));
      if (group) {
        collect(group);
      }
    } else {
      for (const [key, group] of this.groups) {
        if (key.startsWith(prefix)) {
          collect(group);
        }
      }
    }
    const sorted = Int32Array.from(found).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) {
        sorted[n++] = sorted[i] as number;
      }
    }
    return sorted.subarray(0, n);
  }

  /** Every token the field holds (typo correction compares the query's tokens with them). */
  *tokens(): Iterable<string> {
    for (const group of this.groups.values()) {
      yield* group.keys();
    }
  }

  private addToken(token: string, seq: number): void {
    const key = groupOf(token);
    let group = this.groups.get(key);
    if (!group) {
      this.groups.set(key, (group = new Map()));
    }
    const p = group.get(token);
    if (p === undefined) {
      group.set(token, seq);
    } else if (typeof p === 'number') {
      group.set(token, new SeqPostings(p, seq));
    } else {
      p.add(seq);
    }
  }

  private removeToken(token: string, seq: number): void {
    const key = groupOf(token);
    const group = this.groups.get(key);
    const p = group?.get(token);
    if (!group || p === undefined) {
      return;
    }
    if (typeof p === 'number') {
      group.delete(token);
      if (group.size === 0) {
        this.groups.delete(key);
      }
      return;
    }
    p.remove(seq);
    if (p.size === 1) {
      group.set(token, p.sorted()[0] as number);
    }
  }
}
