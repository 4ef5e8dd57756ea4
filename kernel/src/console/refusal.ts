/** Building refusals: every one says what was wrong and what to write instead. */
import type { Refusal } from './cell';

/** The form every syntax refusal points back to. */
export const REQUEST_FORM_HINT = [
  'Write an HTTP request: a line `METHOD /path`, for example `GET /my-index/_search`,',
  'then an optional JSON body on the following lines:',
  '',
  'GET /my-index/_search',
  '{ "query": { "match": { "title": "shoes" } } }',
].join('\n');

export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = refusal.ename;
  }
}

export function refuse(
  ename: string,
  message: string,
  hint: string,
  place?: { line: number; column?: number },
): never {
  const refusal: Refusal = { ename, message, hint };
  if (place) {
    refusal.line = place.line;
    if (place.column !== undefined) refusal.column = place.column;
  }
  throw new RefusalError(refusal);
}

/** Hint text: specific advice first, then the general request form. */
export function withForm(advice: string): string {
  return `${advice}\n\n${REQUEST_FORM_HINT}`;
}
