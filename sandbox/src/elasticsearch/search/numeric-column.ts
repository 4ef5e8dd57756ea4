/**
 * Doc values of one numeric, date or boolean field, by sequence number: the one value a
 * document holds (as docValues reads it: truncated integers, epoch millis, 0/1), so that
 * range and term filters and sorts read a number instead of walking _source. Documents with
 * several values are only marked; their scorers read _source.
 */
import type { JsonObject } from '../json-value';
import type { ResolvedField } from '../mapping';
import { docValues } from './values';

/** What a column holds for one document. */
export const NO_VALUE = Symbol('no value');
export const SEVERAL_VALUES = Symbol('several values');

export class NumericColumn {
  private values = new Float64Array(1024);
  /** 0: no value, 1: one value, 2: several. */
  private counts = new Uint8Array(1024);

  constructor(readonly field: ResolvedField) {}

  add(seq: number, source: JsonObject): void {
    const values = docValues({ source }, this.field) as number[];
    if (values.length === 0) {
      return;
    }
    this.reserve(seq);
    this.counts[seq] = values.length === 1 ? 1 : 2;
    this.values[seq] = values[0] as number;
  }

  valueOf(seq: number): number | typeof NO_VALUE | typeof SEVERAL_VALUES {
    const count = seq < this.counts.length ? (this.counts[seq] as number) : 0;
    if (count === 0) {
      return NO_VALUE;
    }
    return count === 1 ? (this.values[seq] as number) : SEVERAL_VALUES;
  }

  private reserve(seq: number): void {
    if (seq < this.counts.length) {
      return;
    }
    let capacity = this.counts.length * 2;
    while (capacity <= seq) {
      capacity *= 2;
    }
    const values = new Float64Array(capacity);
    values.set(this.values);
    this.values = values;
    const counts = new Uint8Array(capacity);
    counts.set(this.counts);
    this.counts = counts;
  }
}
