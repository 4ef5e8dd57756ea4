/**
 * The `%connect` options only Elasticsearch (and OpenSearch) takes: how it authenticates,
 * where `auth=aws-sigv4` signs for, and REST compatibility. The AWS credentials themselves are
 * never options: `%connect` refuses them on the line, and the cell's cleaning removes them.
 */
import { z } from 'zod';
import type { EngineOptionShape } from '../../driver-core/connect-options';
import type { EngineTypedSecret } from '../../driver-core/engine-module';

export const ELASTICSEARCH_OPTIONS = {
  auth: z.enum(['basic', 'apikey', 'none', 'aws-sigv4']).optional(),
  /** Where a signing auth (auth=aws-sigv4) signs for: the cloud region and service name. */
  region: z.string().min(1).optional(),
  service: z.string().min(1).optional(),
  /** The section of the cloud provider's shared credential files to read (auth=aws-sigv4). */
  aws_profile: z.string().min(1).optional(),
  /** REST compatibility: the major version whose requests every request asks to be served as. */
  compat: z
    .enum(['7', '8'], {
      error:
        'write compat=8 (requests written for 8.x, on a 9.x or 8.x node) or compat=7 (written for 7.x, on an 8.x node)'
    })
    .optional()
} satisfies EngineOptionShape;

const ElasticsearchOptionsSchema = z.object(ELASTICSEARCH_OPTIONS);
export type ElasticsearchOptions = z.infer<typeof ElasticsearchOptionsSchema>;

/** The Elasticsearch options of `%connect` arguments already read (its other fields are left out). */
export function elasticsearchOptions(
  args: Readonly<Record<string, unknown>>
): ElasticsearchOptions {
  return ElasticsearchOptionsSchema.parse(args);
}

/** AWS credentials as AWS names them: refused on the line whatever their value. */
export const AWS_CREDENTIAL: EngineTypedSecret = {
  option: 'aws-credential',
  names:
    '(?:aws_)?(?:secret_access_key|session_token|access_key_id)|secret_key|access_key',
  words: 'AWS credential',
  removeTitle:
    "Deletes the typed AWS credential from the %connect line; auth=aws-sigv4 reads it from the kernel's environment or ~/.aws/credentials",
  where:
    "auth=aws-sigv4 reads AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN from the kernel's environment (export them before starting Jupyter), or a profile of ~/.aws/credentials (aws_profile=<name> picks one).",
  afterRemoval:
    'Remove it (JupyterLab: "Remove it from the cell" above), put the credentials in the kernel\'s environment or ~/.aws/credentials, then run the cell again.'
};
