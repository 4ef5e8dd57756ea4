import { asObject } from '../../driver-core/document-columns';
import { type EngineResponse } from '../../driver-core/driver';
import {
  AuthenticationFailedError,
  type EngineError,
  RequestFailedError
} from '../../driver-core/errors';
import { noReason, redirectFailure } from '../../driver-core/http/http-status';
import type { Flavour } from './flavour';
import { type Cause, describeCause, errorCauses } from './error-cause';
import {
  fromOpenSearchSecurity,
  OPENSEARCH_UNAUTHORIZED,
  openSearchForbidden
} from './opensearch-security';

/**
 * A failed Elasticsearch answer as an error naming the status and the engine's own reason
 * (its `error.type`, `error.reason` and causes). Security errors are matched on status and
 * `security_exception`, never on the reason's wording, which varies from version to version.
 */
export function elasticsearchFailure(
  response: EngineResponse,
  product: Flavour['product'] = 'Elasticsearch'
): EngineError | undefined {
  if (response.status < 400) {
    return redirectFailure(response, product);
  }
  const body = response.body.kind === 'json' ? response.body.value : undefined;
  const error = asObject(asObject(body)?.error);
  const reason =
    typeof error?.reason === 'string'
      ? error.reason
      : typeof asObject(body)?.error === 'string'
        ? String(asObject(body)?.error)
        : typeof asObject(body)?.message === 'string'
          ? // OpenSearch's security REST API: {"status": "FORBIDDEN", "message": "..."}
            String(asObject(body)?.message)
          : undefined;
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const { causes, outer } = errorCauses(error);
  const detail =
    causes.length > 0
      ? causes.map(describeCause).join('; ')
      : [type, reason].filter(Boolean).join(': ') || noReason(response);
  // A 403 is also how index blocks answer (cluster_block_exception): that is not about credentials.
  if (
    response.status === 401 ||
    (response.status === 403 && type === 'security_exception')
  ) {
    if (fromOpenSearchSecurity(response, product)) {
      return new AuthenticationFailedError(
        response.status === 401
          ? OPENSEARCH_UNAUTHORIZED
          : openSearchForbidden(reason ?? detail),
        response.status,
        body
      );
    }
    const advice =
      response.status === 401
        ? rejectedAdvice(reason)
        : 'The credentials were accepted but lack this privilege; connect with a user or API key whose role grants it.';
    return new AuthenticationFailedError(
      `Authentication failed: ${reason ?? detail}. ${advice}`,
      response.status,
      body
    );
  }
  const refusedByAws = awsRefusal(response.status, body);
  if (refusedByAws) {
    return new AuthenticationFailedError(
      `Authentication failed: ${refusedByAws} ${AWS_REFUSAL_ADVICE}`,
      response.status,
      body
    );
  }
  const wrapper = outer ? ` (reported as ${describeCause(outer)})` : '';
  const advice =
    response.status === 429 ? TOO_MANY_REQUESTS : adviceFor(causes);
  const message = `${product} answered ${response.status}: ${detail}${wrapper}`;
  return new RequestFailedError(
    advice ? `${message.replace(/\.$/, '')}. ${advice}` : message,
    response.status,
    body
  );
}

/**
 * Amazon OpenSearch Service refuses a request before the engine sees it with 403 and a body of
 * one `message` (`Message` for an access policy's denial), not Elasticsearch's `error` object.
 */
function awsRefusal(
  status: number,
  body: Parameters<typeof asObject>[0]
): string | undefined {
  const fields = asObject(body);
  if (status !== 403 || !fields || Object.keys(fields).length !== 1) {
    return undefined;
  }
  const message = fields.message ?? fields.Message;
  return typeof message === 'string'
    ? `${message.replace(/\.?$/, '.')}`
    : undefined;
}

const AWS_REFUSAL_ADVICE =
  "Check the AWS credentials the kernel reads (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, or the profile in ~/.aws/credentials), that region= and service= (es for a domain, aoss for OpenSearch Serverless) are the domain's, and that the domain's access policy allows this identity; the kernel's clock must be within 5 minutes of AWS's.";

/**
 * 429: the node is too busy for the request now (a full queue, a circuit breaker; on 9.x also
 * a search past its time limit): the same request may pass in a moment.
 */
const TOO_MANY_REQUESTS =
  'The cluster is too busy for this request now: wait a little and run it again; if it keeps answering 429, send smaller requests (fewer documents a _bulk, a smaller size) or fewer at once.';

/** What to change, for the causes whose fix is not already in the engine's own words. */
function adviceFor(causes: Cause[]): string | undefined {
  const reasons = causes.map(c => c.reason ?? '');
  const fielddata = reasons
    .map(r =>
      /Fielddata is disabled on \[([^\]]+)\]|set fielddata=true on \[([^\]]+)\]/.exec(
        r
      )
    )
    .find(Boolean);
  const field = fielddata?.[1] ?? fielddata?.[2];
  if (field) {
    return `Aggregate or sort on a keyword field: ${field}.keyword when the mapping has that subfield (GET /<index>/_mapping shows it).`;
  }
  if (causes.some(c => c.type === 'index_not_found_exception')) {
    return 'GET /_cat/indices?format=json lists the indices.';
  }
  return undefined;
}

function rejectedAdvice(reason: string | undefined): string {
  const missing = reason?.startsWith('missing authentication credentials');
  // No HTTPS advice here: a server that answered 401 over plain HTTP does not demand TLS. One
  // that does closes plain-HTTP connections, and connection-failure.ts advises https:// then.
  return missing
    ? 'The cluster needs credentials: add auth=basic user=<name> password=${env:NAME}, or auth=apikey key=${env:NAME}.'
    : 'Check the user and password, or the API key (the `encoded` value of the create-API-key answer, or base64 of id:api_key).';
}
