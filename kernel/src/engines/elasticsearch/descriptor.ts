/**
 * Elasticsearch as the kernel knows it before its driver loads: `%connect` options and their
 * rules, the profile's fields, secrets, completion. Connections are URLs with an optional user
 * (https://www.elastic.co/docs/deploy-manage/users-roles/cluster-or-deployment-auth).
 */
import { z } from 'zod';
import type { EngineDescriptor } from '../../driver-core/engine-module';
import { authOf, authOfArgs } from './auth';
import { AWS_REGION, AWS_SERVICES, refuseAwsOptions } from './aws-auth';
import {
  AWS_CREDENTIAL,
  ELASTICSEARCH_OPTIONS,
  elasticsearchOptions
} from './connect-options';
import {
  PROFILE_COMMON_FIELDS,
  ProfilePortSchema,
  SecretRefSchema,
  type StoredProfile
} from '../../driver-core/profile-fields';

export const ElasticsearchProfileSchema = z
  .strictObject({
    engine: z.literal('elasticsearch'),
    ...PROFILE_COMMON_FIELDS,
    port: ProfilePortSchema.default(9200),
    /** Username & Password, API Key, None, AWS Signature Version 4. Left out: chosen by the credentials given (see authOf). */
    auth: z.enum(['basic', 'apikey', 'none', 'aws-sigv4']).optional(),
    username: z.string().min(1).optional(),
    password: SecretRefSchema.optional(),
    /** The `encoded` value of the create-API-key answer, sent verbatim. */
    api_key: SecretRefSchema.optional(),
    /** REST compatibility: every request asks to be served as this major version's API (`compat=` of %connect). */
    compat: z
      .union([z.literal(7), z.literal(8)], {
        error:
          'write 8 (requests written for 8.x, on a 9.x or 8.x node) or 7 (written for 7.x, on an 8.x node)'
      })
      .optional(),
    /** auth=aws-sigv4: where it signs for. The credentials stay in the AWS environment variables or files. */
    region: z
      .string()
      .regex(AWS_REGION, 'an AWS region such as "eu-west-1"')
      .optional(),
    service: z.enum(AWS_SERVICES).optional(),
    aws_profile: z.string().regex(/^\S+$/).optional()
  })
  .superRefine((p, ctx) => {
    const auth = authOf(p);
    if (auth !== 'aws-sigv4') {
      for (const field of ['region', 'service', 'aws_profile'] as const) {
        if (p[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} is only used with "auth": "aws-sigv4" (auth is "${auth}")`
          });
        }
      }
    } else if (p.username !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['username'],
        message:
          '"auth": "aws-sigv4" signs with AWS credentials, which stay in the AWS environment variables or ~/.aws/credentials; remove username'
      });
    }
    if (auth === 'basic' && !p.username) {
      ctx.addIssue({
        code: 'custom',
        path: ['username'],
        message:
          'auth is "basic", so a username is needed (or set "auth": "apikey" or "none")'
      });
    }
    if (auth !== 'basic' && p.password) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: `a password is only used with "auth": "basic" (auth is "${auth}")`
      });
    }
    if (auth !== 'apikey' && p.api_key) {
      ctx.addIssue({
        code: 'custom',
        path: ['api_key'],
        message: `an API key is only used with "auth": "apikey" (auth is "${auth}")`
      });
    }
  });
type ElasticsearchProfile = z.infer<typeof ElasticsearchProfileSchema>;

const compatOption = (major: 7 | 8): '7' | '8' => (major === 7 ? '7' : '8');

/** A profile the profiles file has already checked against the schema above. */
const own = (profile: StoredProfile): ElasticsearchProfile =>
  ElasticsearchProfileSchema.parse(profile);

export const elasticsearchEngine: EngineDescriptor = {
  name: 'elasticsearch',
  // OpenSearch speaks this engine's API; the driver tells it apart by what `GET /` answers.
  aliases: ['opensearch'],
  displayName: 'Elasticsearch',
  targetNoun: 'index',
  namePrefix: 'es',
  docs: {
    text: 'Elasticsearch REST APIs',
    url: 'https://www.elastic.co/docs/api/doc/elasticsearch/'
  },
  defaultPort: () => 9200,
  connect: {
    example: '%connect elasticsearch http://localhost:9200',
    usage: [
      '%connect elasticsearch http://localhost:9200 [auth=basic user=elastic password=${env:ES_PASSWORD}]',
      '%connect elasticsearch https://localhost:9200 auth=apikey key=${env:ES_API_KEY} [ssl=verify-identity ca=/path/ca.pem]',
      'compat=8 (requests written for 8.x, served by a 9.x node through REST compatibility)',
      '%connect opensearch https://<domain endpoint> auth=aws-sigv4 [region=eu-west-1] [service=es|aoss] [aws_profile=<name>] (AWS credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or ~/.aws/credentials)'
    ],
    addressForm: '<url>',
    shownAsUrl: true,
    nameTheEngine: shown => `%connect elasticsearch ${shown} [options]`,
    refuseAddress: () => undefined,
    options: ELASTICSEARCH_OPTIONS,
    refuseOptions: options =>
      refuseAwsOptions({ ...options, ...elasticsearchOptions(options) }),
    refuseSave: args =>
      elasticsearchOptions(args).auth === 'basic' && args.user === undefined
        ? '%connect: auth=basic needs user=<name> (or a user in the URL, https://elastic@host:9200) to be saved as a profile.'
        : undefined
  },
  secrets: {
    password: {
      field: 'password',
      label: 'password',
      describe: args => `the password of ${args.user ?? 'the user'}`
    },
    key: { field: 'api_key', label: 'API key', describe: () => 'the API key' }
  },
  typedSecrets: [AWS_CREDENTIAL],
  secretsUsed(args) {
    const auth = authOfArgs(args);
    if (auth === 'basic') {
      return args.user !== undefined ? ['password'] : [];
    }
    return auth === 'apikey' ? ['key'] : [];
  },
  profile: {
    schema: ElasticsearchProfileSchema,
    unknownFieldAdvice: () => undefined,
    connectArgs(profile) {
      const p = own(profile);
      // Decided before the secrets are fetched, as the %connect line would decide it with them.
      return {
        args: {
          auth: authOf(p),
          ...(p.username !== undefined ? { user: p.username } : {}),
          ...(p.compat !== undefined ? { compat: compatOption(p.compat) } : {}),
          ...(p.region !== undefined ? { region: p.region } : {}),
          ...(p.service !== undefined ? { service: p.service } : {}),
          ...(p.aws_profile !== undefined ? { aws_profile: p.aws_profile } : {})
        },
        refs: {
          ...(p.password !== undefined ? { password: p.password } : {}),
          ...(p.api_key !== undefined ? { api_key: p.api_key } : {})
        }
      };
    },
    fromConnection(common, args, secrets) {
      const auth = authOfArgs(args);
      const own = elasticsearchOptions(args);
      return {
        engine: 'elasticsearch',
        ...common,
        auth,
        ...(args.user !== undefined && auth === 'basic'
          ? { username: args.user }
          : {}),
        ...(own.compat !== undefined ? { compat: Number(own.compat) } : {}),
        ...(auth === 'aws-sigv4'
          ? {
              ...(own.region !== undefined ? { region: own.region } : {}),
              ...(own.service !== undefined ? { service: own.service } : {}),
              ...(own.aws_profile !== undefined
                ? { aws_profile: own.aws_profile }
                : {})
            }
          : {}),
        ...secrets
      };
    },
    auth: profile => authOf(own(profile)),
    secretInUse(profile) {
      const p = own(profile);
      const auth = authOf(p);
      return auth === 'basic'
        ? p.password
        : auth === 'apikey'
          ? p.api_key
          : null;
    },
    secretRefs(profile) {
      const p = own(profile);
      return [p.api_key, p.password].filter(ref => ref !== undefined);
    },
    user: profile => own(profile).username
  },
  completion: {
    targetOfPath([first]) {
      if (!first || first.startsWith('_') || first.includes('${')) {
        return undefined;
      }
      return first;
    },
    // Sliced point-in-time export reads N cursors in parallel.
    exportOptions: ['slices=']
  },
  console: {
    addressHint: 'a URL such as https://elastic@localhost:9200',
    exportBody: 'an Elasticsearch query',
    slices: {
      help: 'reads Elasticsearch in N parallel cursors',
      note: 'Elasticsearch reads N cursors in parallel'
    },
    ndjsonEndpoints: ['_bulk', '_msearch']
  },
  load: async () => (await import('./engine-module')).elasticsearchModule
};
