/** A request's body as it goes out: JSON or NDJSON text, and the media type that says which. */
import type { RequestBody } from '../../console/cell';
import { exactJson } from '../../json/exact-integers';

/** What requests say their bodies are and which answers they accept. */
export interface MediaTypes {
  readonly accept: string;
  readonly json: string;
  readonly ndjson: string;
}

export const PLAIN_MEDIA_TYPES: MediaTypes = {
  accept: 'application/json',
  json: 'application/json',
  ndjson: 'application/x-ndjson'
};

export function encodeBody(
  body: RequestBody | undefined,
  mediaTypes: MediaTypes
): {
  body?: string;
  contentType?: string;
} {
  if (!body) {
    return {};
  }
  // A grid write's whole numbers past 2^53 go out as number literals with every digit.
  if (body.kind === 'json') {
    return { body: exactJson(body.value), contentType: mediaTypes.json };
  }
  // NDJSON must end with a newline or Elasticsearch's _bulk refuses the last line.
  return {
    body: `${body.values.map(v => exactJson(v)).join('\n')}\n`,
    contentType: mediaTypes.ndjson
  };
}
