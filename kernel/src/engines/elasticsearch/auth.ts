/** How an Elasticsearch connection authenticates, from a profile or from `%connect` arguments. */
import type { ConnectArgs } from '../../driver-core/connect-options';
import { elasticsearchOptions } from './connect-options';

/** `aws-sigv4`: Amazon OpenSearch Service and Elasticsearch on AWS, every request signed (aws-auth.ts). */
export type Auth = 'basic' | 'apikey' | 'none' | 'aws-sigv4';

/** The auth method, as %connect chooses it when none is written: an API key, else a username, else none. */
export function authOf(p: {
  auth?: Auth | undefined;
  username?: string | undefined;
  api_key?: unknown;
}): Auth {
  return p.auth ?? (p.api_key ? 'apikey' : p.username ? 'basic' : 'none');
}

/** The same choice for `%connect` arguments: without auth=, the credentials given choose the method. */
export function authOfArgs(args: ConnectArgs): Auth {
  return (
    elasticsearchOptions(args).auth ??
    (args.key ? 'apikey' : args.user ? 'basic' : 'none')
  );
}
