/**
 * Every option a `%connect <engine> <address> [key=value ...]` line may hold. Which of them apply
 * to an engine is the engine descriptor's to say; the engine names come from the registry
 * (connections/connect-args.ts narrows `engine` to them).
 */
import { z } from 'zod';
import { AnswerCapSchema, TimeoutSecondsSchema } from './request-bounds';
import { type SslMode, SslModeSchema } from './ssl-mode';

export const ConnectOptionsSchema = z.strictObject({
  engine: z.string(),
  name: z
    .string()
    .regex(/^[\w.-]+$/)
    .optional(),
  auth: z.enum(['basic', 'apikey', 'none', 'aws-sigv4']).optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  key: z.string().optional(),
  /** Where a signing auth (auth=aws-sigv4) signs for: the cloud region and service name. */
  region: z.string().min(1).optional(),
  service: z.string().min(1).optional(),
  /** The section of the cloud provider's shared credential files to read (auth=aws-sigv4). */
  aws_profile: z.string().min(1).optional(),
  // Read as text first so `abc` and `1e999` meet the range's own message, not a generic one.
  timeout: z.string().transform(Number).pipe(TimeoutSecondsSchema).optional(),
  max_answer: AnswerCapSchema.optional(),
  ssl: SslModeSchema.optional(),
  /** A PEM file of the CA to trust instead of the system roots (verify-ca, verify-identity). */
  ca: z.string().min(1).optional(),
  skip_verify: z.stringbool().default(false),
  /** Elasticsearch's REST compatibility: the major version whose requests every request asks to be served as. */
  compat: z
    .enum(['7', '8'], {
      error:
        'write compat=8 (requests written for 8.x, on a 9.x or 8.x node) or compat=7 (written for 7.x, on an 8.x node)'
    })
    .optional(),
  /** `a:9200,b:9200`: the nodes of one cluster, in place of the address (read by connections/connect-hosts.ts). */
  hosts: z.string().optional()
});
export type ConnectOptions = z.infer<typeof ConnectOptionsSchema>;

export interface ConnectArgs extends Omit<ConnectOptions, 'ssl' | 'hosts'> {
  /** Scheme, host, port (and any path prefix); the scheme always agrees with `ssl`. */
  url: string;
  /** Every node of the cluster, `url` first, each `scheme://host:port`: only when several are listed (hosts=). */
  nodes?: string[];
  ssl: SslMode;
  /** The address was a bare host without a port: the engine's default port applies. */
  enginePort: boolean;
  /** Where each secret was read from (never the secret), for texts that name it instead, such as curl commands. */
  secretOrigins?: Partial<Record<SecretArg, SecretOrigin>>;
}

/** An environment variable (its name), the OS keyring, or Jupyter's password prompt. */
export type SecretOrigin = { env: string } | 'keyring' | 'prompt';

/** The `%connect` options that carry a secret (only ever as `${env:NAME}` in a cell). */
export type SecretArg = 'password' | 'key';
