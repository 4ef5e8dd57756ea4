/** Stopword sets (`/stopwords/:name`): parsed with the engine's texts, tokenised as queries are. */
import { ApiError } from './errors';
import { hashSetOrder } from './hash-set-order';
import { isPlainObject, type JsonObject } from './json';
import { tokenize } from './text';

export interface StopwordSet {
  id: string;
  /** Tokens, first occurrence order, no repeats. */
  stopwords: string[];
  locale: string;
}

export function parseStopwords(id: string, json: unknown): StopwordSet {
  if (!isPlainObject(json) || json.stopwords === undefined) {
    throw new ApiError(400, 'Parameter `stopwords` is required');
  }
  const list = json.stopwords;
  if (
    list === null ||
    (Array.isArray(list) && list.length === 0) ||
    (isPlainObject(list) && Object.keys(list).length === 0)
  ) {
    throw new ApiError(400, 'Parameter `stopwords` is empty');
  }
  if (!Array.isArray(list) || typeof list[0] !== 'string') {
    throw new ApiError(
      400,
      'Parameter `stopwords` is required as string array value'
    );
  }
  let locale = '';
  if (json.locale !== undefined) {
    if (typeof json.locale !== 'string') {
      throw new ApiError(400, 'Parameter `locale` is required as string value');
    }
    locale = json.locale;
  }
  const words = new Set<string>();
  for (const w of list) {
    if (typeof w === 'string') {
      for (const t of tokenize(w)) {
        words.add(t);
      }
    }
  }
  return { id, stopwords: [...words], locale };
}

export function stopwordsView(s: StopwordSet): JsonObject {
  const out: JsonObject = { id: s.id, stopwords: hashSetOrder(s.stopwords) };
  if (s.locale !== '') {
    out.locale = s.locale;
  }
  return out;
}
