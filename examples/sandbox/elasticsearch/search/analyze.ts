import type { Json } from '../exchange';

/** A field value as the analyzer reads it: objects as their JSON, other scalars as strings. */
export function asText(v: Json | undefined): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A standard-analyzer-like tokenizer: Unicode letters and digits, lowercased. */
const TOKEN = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}]+)*/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** BM25-shaped term weight without corpus statistics: enough to rank, and never zero. */
export function termScore(tf: number, fieldLength: number, boost = 1): number {
  const norm = 0.25 + 0.75 * (fieldLength / 8);
  return Math.fround((boost * (tf * 2.2)) / (tf + 1.2 * norm));
}
