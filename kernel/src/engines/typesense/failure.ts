import { asObject } from '../../driver-core/document-columns';
import { type EngineResponse } from '../../driver-core/driver';
import {
  AuthenticationFailedError,
  type EngineError,
  RequestFailedError
} from '../../driver-core/errors';
import { noReason, redirectFailure } from '../../driver-core/http/http-status';

/** Engine messages that need the user to change the request, with what to change. */
const ADVICE: {
  status: number;
  pattern: RegExp;
  advice: string;
  lead?: string;
}[] = [
  {
    status: 404,
    pattern: /^Could not find a field named `.*` in the schema for sorting\./,
    advice:
      'Sort only on numeric or bool fields, or on a string field declared with "sort": true; `id` never sorts.'
  },
  {
    status: 422,
    pattern: /^Only upto \d+ hits can be fetched per page\./,
    advice:
      'Split the read with offset and limit (for example offset=250&limit=250), or send several searches in one POST /multi_search.'
  },
  {
    status: 404,
    pattern: /^Could not find a filter field named `.*` in the schema\./,
    advice:
      'Filter only on fields the collection declares; on an auto-schema (".*") collection a field exists only once a document carries it, so add one and read the schema again (GET /collections/<name>).'
  },
  {
    status: 400,
    pattern:
      /Not an int32|must be an (array of )?int32|exceeds the range of an int32|exceeds maximum value of int32/,
    // A search says `Not an int32`, a write `Field X must be an int32.`: the message leads with the same words for both.
    lead: 'Not an int32',
    advice:
      'An int32 field takes a whole number written without quotes, in -2147483648..2147483647; a decimal with a fraction part is not an int32 (declare the field float, or int64 for larger numbers).'
  }
];

/** A failed Typesense answer as an error naming the status and the engine's own message. */
export function typesenseFailure(
  response: EngineResponse
): EngineError | undefined {
  if (response.status < 400) {
    return redirectFailure(response, 'Typesense');
  }
  const body = response.body.kind === 'json' ? response.body.value : undefined;
  const message = asObject(body)?.message;
  const reason = typeof message === 'string' ? message : noReason(response);
  // Typesense answers 401 for a missing key, a wrong key and a key that does not allow the action (https://typesense.org/docs/latest/api/api-errors.html).
  if (response.status === 401) {
    return new AuthenticationFailedError(
      `Forbidden - a valid API key header must be sent. Typesense answered 401: ${reason} Typesense refuses alike a wrong key, a key past its expires_at (or a scoped key past the expires_at embedded in it), and a scoped key that does not allow this action and collection: check the key this connection was given (its key= in %connect, or the one typed when asked).`,
      401,
      body
    );
  }
  const known = ADVICE.find(
    a => a.status === response.status && a.pattern.test(reason)
  );
  if (known) {
    return new RequestFailedError(
      `${known.lead && !reason.includes(known.lead) ? `${known.lead}: ` : ''}${reason} ${known.advice}`,
      response.status,
      body
    );
  }
  return new RequestFailedError(
    `Typesense answered ${response.status}: ${reason}`,
    response.status,
    body
  );
}
