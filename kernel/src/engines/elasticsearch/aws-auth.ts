/**
 * `auth=aws-sigv4`: Amazon OpenSearch Service (and Elasticsearch on AWS) and OpenSearch
 * Serverless authenticate every request by AWS Signature Version 4
 * (https://docs.aws.amazon.com/opensearch-service/latest/developerguide/request-signing.html).
 * What the `%connect` line and a profile may say about it, checked before anything loads or is
 * sent. The credentials are never among them: they are read where the AWS tools keep them.
 */
import type { ElasticsearchOptions } from './connect-options';

/** The signing names: `es` for a managed domain, `aoss` for an OpenSearch Serverless collection. */
export const AWS_SERVICES = ['es', 'aoss'] as const;
export const DEFAULT_AWS_SERVICE = 'es';

/** `us-east-1`, `eu-west-1`, `us-gov-west-1`, `cn-north-1`. */
export const AWS_REGION = /^[a-z]{2,}(-[a-z]+)+-\d+$/;

/** Where the credentials are read from, as every refusal and error says it. */
export const AWS_CREDENTIALS_WHERE =
  "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials) in the kernel's environment, or a profile of ~/.aws/credentials (aws_profile=<name> or AWS_PROFILE picks one; AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move the files)";

/** The refusal of options that do not fit auth=aws-sigv4 (or that need it), or undefined. */
export function refuseAwsOptions(
  options: Pick<
    ElasticsearchOptions,
    'auth' | 'region' | 'service' | 'aws_profile'
  > & {
    user?: string | undefined;
    password?: string | undefined;
    key?: string | undefined;
  }
): string | undefined {
  const signing = options.auth === 'aws-sigv4';
  if (!signing) {
    const given = (['region', 'service', 'aws_profile'] as const).filter(
      o => options[o] !== undefined
    );
    return given.length
      ? `%connect: ${given.map(o => `${o}=`).join(', ')} ${given.length > 1 ? 'apply' : 'applies'} only to auth=aws-sigv4 (Amazon OpenSearch Service, Elasticsearch on AWS); add auth=aws-sigv4 or remove ${given.length > 1 ? 'them' : 'it'}.`
      : undefined;
  }
  const credentials = (['user', 'password', 'key'] as const).filter(
    o => options[o] !== undefined
  );
  if (credentials.length) {
    return `%connect: auth=aws-sigv4 signs with AWS credentials, so ${credentials.map(o => `${o}=`).join(', ')} ${credentials.length > 1 ? 'do' : 'does'} not apply; remove ${credentials.length > 1 ? 'them' : 'it'}. The credentials are read from ${AWS_CREDENTIALS_WHERE}.`;
  }
  if (options.region !== undefined && !AWS_REGION.test(options.region)) {
    return `%connect: region=${options.region} is not an AWS region; write the region the domain is in, for example region=eu-west-1.`;
  }
  if (
    options.service !== undefined &&
    !(AWS_SERVICES as readonly string[]).includes(options.service)
  ) {
    return `%connect: service=${options.service} is not a service searchbook signs for; write service=es for an Amazon OpenSearch Service domain (the default) or service=aoss for an OpenSearch Serverless collection.`;
  }
  return undefined;
}
