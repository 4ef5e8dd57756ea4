/**
 * Inverted index of one text field: term -> (sequence number, term frequency), plus each
 * document's field length in tokens. It holds exactly what the match scorers read from a
 * document (tokens of every value, counted together), so they can score from here instead
 * of tokenizing _source on every query.
 */
import type { JsonObject } from '../exchange';
import type { ResolvedField } from '../mapping';
import { asText, tokenize } from './analyze';
import { appendPosting, forEachPosting, postingLength, postingTf, type Posting } from './term-postings';
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
    if (values.length === 0) return;
    if (values.length > 1) this.multiValued.add(seq);
    const tokens = values.length === 1 ? tokenize(asText(values[0])) : values.flatMap((v) => tokenize(asText(v)));
    this.setLength(seq, tokens.length);
    if (tokens.length > 16) {
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) this.append(term, seq, tf);
      return;
    }
    // Short values (most of them): counting by scanning beats allocating a Map per document.
    for (let i = 0; i < tokens.length; i++) {
      const term = tokens[i] as string;
      if (tokens.indexOf(term) < i) continue;
      let tf = 1;
      for (let j = i + 1; j < tokens.length; j++) if (tokens[j] === term) tf++;
      this.append(term, seq, tf);
    }
  }

  private append(term: string, seq: number, tf: number): void {
    const p = this.terms.get(term);
    if (typeof p === 'object') p.add(seq, tf);
    else this.terms.set(term, appendPosting(p, seq, tf));
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

  forEach(term: string, each: (seq: number, tf: number) => void): void {
    forEachPosting(this.terms.get(term), each);
  }

  /** Every indexed term starting with `prefix`: one pass over the dictionary. */
  termsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (const term of this.terms.keys()) if (term.startsWith(prefix)) out.push(term);
    return out;
  }

  private setLength(seq: number, length: number): void {
    if (seq >= this.lengths.length) {
      let capacity = this.lengths.length * 2;
      while (capacity <= seq) capacity *= 2;
      const next = new Int32Array(capacity);
      next.set(this.lengths);
      this.lengths = next;
    }
    this.lengths[seq] = length;
  }
}
