/**
 * Inverted index of one text field: term -> (sequence number, term frequency, positions),
 * plus each document's field length in tokens. It holds exactly what the match scorers read from a
 * document (tokens of every value, counted together), so they can score from here instead
 * of tokenizing _source on every query.
 */
import type { JsonObject } from '../json-value';
import type { ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import {
  appendPosting,
  forEachPosting,
  PostingCursor,
  postingLength,
  postingPositions,
  postingTf,
  type Posting
} from './term-postings';
import { rawValues } from './values';

export class TextFieldIndex {
  private readonly terms = new Map<string, Posting>();
  private lengths = new Int32Array(1024);
  /**
   * Documents with several values in this field. A `term` query and phrases look at one value
   * at a time, which whole-document counts cannot tell, so those scorers read these from _source.
   */
  private readonly multiValued = new Set<number>();

  constructor(readonly field: ResolvedField) {}

  /** Indexes one document; callers add documents in increasing sequence order. */
  add(seq: number, source: JsonObject): void {
    const values = rawValues({ source }, this.field);
    if (values.length === 0) {
      return;
    }
    if (values.length > 1) {
      this.multiValued.add(seq);
    }
    const perValue = values.map(v => tokenize(asText(v)));
    const tokens =
      perValue.length === 1 ? (perValue[0] as string[]) : perValue.flat();
    this.setLength(seq, tokens.length);
    // Positions skip one between values, so that no phrase runs from one value into the next.
    let at = (k: number): number => k;
    if (perValue.length > 1) {
      const positions = new Int32Array(tokens.length);
      let k = 0;
      perValue.forEach((valueTokens, v) => {
        for (let i = 0; i < valueTokens.length; i++, k++) {
          positions[k] = k + v;
        }
      });
      at = k => positions[k] as number;
    }
    if (tokens.length > 16) {
      const byTerm = new Map<string, number[]>();
      tokens.forEach((t, k) => {
        const list = byTerm.get(t);
        if (list) {
          list.push(at(k));
        } else {
          byTerm.set(t, [at(k)]);
        }
      });
      for (const [term, positions] of byTerm) {
        this.append(term, seq, positions);
      }
      return;
    }
    // Short values (most of them): finding repeats by scanning beats allocating a Map per document.
    for (let i = 0; i < tokens.length; i++) {
      const term = tokens[i] as string;
      if (tokens.indexOf(term) < i) {
        continue;
      }
      const positions = [at(i)];
      for (let j = i + 1; j < tokens.length; j++) {
        if (tokens[j] === term) {
          positions.push(at(j));
        }
      }
      this.append(term, seq, positions);
    }
  }

  private append(term: string, seq: number, positions: number[]): void {
    const p = this.terms.get(term);
    if (typeof p === 'object') {
      p.add(seq, positions);
    } else {
      this.terms.set(term, appendPosting(p, seq, positions));
    }
  }

  /** Tokens of the field in document `seq`, all values together (0 when it has none). */
  length(seq: number): number {
    return seq < this.lengths.length ? (this.lengths[seq] as number) : 0;
  }

  isMultiValued(seq: number): boolean {
    return this.multiValued.has(seq);
  }

  tf(term: string, seq: number): number {
    return postingTf(this.terms.get(term), seq);
  }

  /** How many documents (live or not) hold the term: a cost estimate for picking the shortest list. */
  documentFrequency(term: string): number {
    return postingLength(this.terms.get(term));
  }

  /** Ascending token positions of the term in document `seq` (values one position apart). */
  positions(term: string, seq: number): ArrayLike<number> {
    return postingPositions(this.terms.get(term), seq);
  }

  /** A forward-only reader of the term's postings, for walking many documents in sequence order. */
  cursor(term: string): PostingCursor {
    return new PostingCursor(this.terms.get(term));
  }

  forEach(term: string, each: (seq: number, tf: number) => void): void {
    forEachPosting(this.terms.get(term), each);
  }

  /** Every indexed term starting with `prefix`: one pass over the dictionary. */
  termsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (const term of this.terms.keys()) {
      if (term.startsWith(prefix)) {
        out.push(term);
      }
    }
    return out;
  }

  /** Every indexed term (for fuzzy expansion). */
  allTerms(): IterableIterator<string> {
    return this.terms.keys();
  }

  private setLength(seq: number, length: number): void {
    if (seq >= this.lengths.length) {
      let capacity = this.lengths.length * 2;
      while (capacity <= seq) {
        capacity *= 2;
      }
      const next = new Int32Array(capacity);
      next.set(this.lengths);
      this.lengths = next;
    }
    this.lengths[seq] = length;
  }
}
