import { plainText } from '../long-json';
import type { Json } from '../json-value';

/** A field value as the analyzer reads it: objects as their JSON, other scalars as strings. */
export function asText(v: Json | undefined): string {
  if (v === null || v === undefined) {
    return '';
  }
  return typeof v === 'string'
    ? plainText(v)
    : typeof v === 'object'
      ? JSON.stringify(v)
      : String(v);
}

/** A standard-analyzer-like tokenizer: Unicode letters and digits, lowercased. */
const TOKEN = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}]+)*/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}
