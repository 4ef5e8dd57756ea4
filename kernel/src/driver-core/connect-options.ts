/**
 * The options every `%connect <engine> <address> [key=value ...]` line may hold, whatever the
 * engine. An engine adds its own in its descriptor (`connect.options`); the engine names come
 * from the registry (connections/connect-args.ts narrows `engine` to them and reads each
 * engine's options with its own schema).
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
  user: z.string().optional(),
  password: z.string().optional(),
  key: z.string().optional(),
  // Read as text first so `abc` and `1e999` meet the range's own message, not a generic one.
  timeout: z.string().transform(Number).pipe(TimeoutSecondsSchema).optional(),
  max_answer: AnswerCapSchema.optional(),
  ssl: SslModeSchema.optional(),
  /** A PEM file of the CA to trust instead of the system roots (verify-ca, verify-identity). */
  ca: z.string().min(1).optional(),
  skip_verify: z.stringbool().default(false),
  /** `a:9200,b:9200`: the nodes of one cluster, in place of the address (read by connections/connect-hosts.ts). */
  hosts: z.string().optional()
});

/**
 * The options an engine adds to the common ones, each read from the text after its `=`
 * (`compat=8`). Their names must not be common options' names.
 */
export type EngineOptionShape = Readonly<Record<string, z.ZodType>>;

/**
 * A `%connect` line as read: the common options, and the engine's own ones by their names
 * (unknown until the engine reads them with its own schema).
 */
export type ConnectOptions = z.infer<typeof ConnectOptionsSchema> & {
  readonly [engineOption: string]: unknown;
};

export interface ConnectArgs extends Omit<
  z.infer<typeof ConnectOptionsSchema>,
  'ssl' | 'hosts'
> {
  /** The engine's own options (see EngineOptionShape), as its schema read them. */
  [engineOption: string]: unknown;
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
