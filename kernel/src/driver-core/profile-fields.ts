/**
 * The fields every saved profile has, whatever its engine, and how a profile names where a
 * secret is. Each engine's descriptor adds its own fields (credentials, default port) to these;
 * connections/profile-schema.ts assembles the profiles file from the registered engines.
 */
import { z } from 'zod';
import { AnswerCapSchema, TimeoutSecondsSchema } from './request-bounds';
import { SslModeSchema } from './ssl-mode';

export const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
export const PROFILE_NAME = /^[\w.-]+$/;
/** A host name, IPv4 address or bracketed IPv6 address: no scheme, port, path or user. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/;

/** `host:port`, a node of a cluster in a profile's `hosts`. */
const HOST_PORT = new RegExp(
  `^(?:${HOST.source.slice(1, -1)}):([1-9][0-9]{0,4})$`
);

export const LITERAL_SECRET_MESSAGE =
  'a secret is never stored in this file: write "${env:NAME}" (read from the kernel\'s environment), or save it to the OS keyring with %connect ... --save <name>, or leave the field out to be asked at connect time';

/** `"${env:NAME}"`, or `{"keyring": "<account>"}` (service `searchbook`). */
export const SecretRefSchema = z.union(
  [
    z.string().regex(ENV_REFERENCE, { error: LITERAL_SECRET_MESSAGE }),
    z.strictObject({ keyring: z.string().min(1) })
  ],
  {
    error: LITERAL_SECRET_MESSAGE
  }
);
export type SecretRef = z.infer<typeof SecretRefSchema>;

/** The profile fields that hold a secret's whereabouts. */
export type SecretField = 'password' | 'api_key';

export const ProfilePortSchema = z.number().int().min(1).max(65535);

export const PROFILE_COMMON_FIELDS = {
  name: z
    .string()
    .regex(PROFILE_NAME, { error: 'use letters, digits, _, . and - only' }),
  host: z.string().regex(HOST, {
    error:
      'write the host name only, for example localhost (the port goes in "port", and "ssl" chooses http or https)'
  }),
  /**
   * Every node of the cluster as `host:port`, the one in "host" and "port" first: requests go
   * to the first that answers. Left out for a single node.
   */
  hosts: z
    .array(
      z
        .string()
        .regex(HOST_PORT, {
          error:
            'write each node as host:port, for example "es2.example:9200" (the scheme is "ssl"\'s, the same for every node)'
        })
        .refine(node => Number(node.split(':').pop()) <= 65535, {
          error: 'a port is a number from 1 to 65535'
        })
    )
    .min(1)
    .optional(),
  /** Disabled (plain HTTP) is the default for new profiles. */
  ssl: SslModeSchema.default('disabled'),
  /** A PEM file of the CA to trust (verify-ca, verify-identity). */
  ca: z.string().min(1).optional(),
  /** Trusts any certificate, in every SSL mode. */
  skip_verify: z.boolean().default(false),
  /** Seconds one whole answer may take. */
  timeout: TimeoutSecondsSchema.optional(),
  /** Bytes one answer may hold in memory (a number, or a size such as "64MB"). */
  max_answer: AnswerCapSchema.optional()
};

export const ProfileCommonSchema = z.object({
  ...PROFILE_COMMON_FIELDS,
  port: ProfilePortSchema
});
/** What engine-neutral code reads of any profile. */
export type ProfileCommon = z.infer<typeof ProfileCommonSchema>;
/** A profile as read from the file: the common fields, its engine's name, and the fields its engine adds. */
export type StoredProfile = ProfileCommon & {
  engine: string;
  [field: string]: unknown;
};
