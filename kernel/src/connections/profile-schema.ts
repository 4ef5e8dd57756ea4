/**
 * The profiles file (`<Jupyter config dir>/searchbook/profiles.json`): saved connections with
 * the fields of drivers.md 2.1 (Elasticsearch) and 2.2 (Typesense). Secrets are never stored
 * in it: a profile names where its secret is (`${env:NAME}` or an OS keyring entry), or leaves
 * it out to be asked for at connect time.
 */
import { z } from 'zod';
import { AnswerCapSchema, TimeoutSecondsSchema } from './request-bounds';
import { SslModeSchema } from './ssl-mode';

export const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
export const PROFILE_NAME = /^[\w.-]+$/;
/** A host name, IPv4 address or bracketed IPv6 address: no scheme, port, path or user. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/;

export const LITERAL_SECRET_MESSAGE =
  'a secret is never stored in this file: write "${env:NAME}" (read from the kernel\'s environment), or save it to the OS keyring with %connect ... --save <name>, or leave the field out to be asked at connect time';

/** `"${env:NAME}"`, or `{"keyring": "<account>"}` (service `searchbook`). */
export const SecretRefSchema = z.union([z.string().regex(ENV_REFERENCE, { error: LITERAL_SECRET_MESSAGE }), z.strictObject({ keyring: z.string().min(1) })], {
  error: LITERAL_SECRET_MESSAGE,
});
export type SecretRef = z.infer<typeof SecretRefSchema>;

const Port = z.number().int().min(1).max(65535);

const common = {
  name: z.string().regex(PROFILE_NAME, { error: 'use letters, digits, _, . and - only' }),
  host: z.string().regex(HOST, { error: 'write the host name only, for example localhost (the port goes in "port", and "ssl" chooses http or https)' }),
  /** drivers.md 5.3; Disabled (plain HTTP) is the default for new profiles. */
  ssl: SslModeSchema.default('disabled'),
  /** A PEM file of the CA to trust (verify-ca, verify-identity). */
  ca: z.string().min(1).optional(),
  /** Trusts any certificate, in every SSL mode. */
  skip_verify: z.boolean().default(false),
  /** Seconds one whole answer may take. */
  timeout: TimeoutSecondsSchema.optional(),
  /** Bytes one answer may hold in memory (a number, or a size such as "64MB"). */
  max_answer: AnswerCapSchema.optional(),
};

export const ElasticsearchProfileSchema = z
  .strictObject({
    engine: z.literal('elasticsearch'),
    ...common,
    port: Port.default(9200),
    /** drivers.md 5.1: Username & Password, API Key, None. Left out: chosen by the credentials given (see authOf). */
    auth: z.enum(['basic', 'apikey', 'none']).optional(),
    username: z.string().min(1).optional(),
    password: SecretRefSchema.optional(),
    /** The `encoded` value of the create-API-key answer, sent verbatim. */
    api_key: SecretRefSchema.optional(),
  })
  .superRefine((p, ctx) => {
    const auth = authOf(p);
    if (auth === 'basic' && !p.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'auth is "basic", so a username is needed (or set "auth": "apikey" or "none")' });
    if (auth !== 'basic' && p.password) ctx.addIssue({ code: 'custom', path: ['password'], message: `a password is only used with "auth": "basic" (auth is "${auth}")` });
    if (auth !== 'apikey' && p.api_key) ctx.addIssue({ code: 'custom', path: ['api_key'], message: `an API key is only used with "auth": "apikey" (auth is "${auth}")` });
  });

/** The auth method, as %connect chooses it when none is written: an API key, else a username, else none. */
export function authOf(p: { auth?: 'basic' | 'apikey' | 'none' | undefined; username?: string | undefined; api_key?: unknown }): 'basic' | 'apikey' | 'none' {
  return p.auth ?? (p.api_key ? 'apikey' : p.username ? 'basic' : 'none');
}

export const TypesenseProfileSchema = z.strictObject({
  engine: z.literal('typesense'),
  ...common,
  /** 8108 for a local node; a hosted cluster answers on 443. */
  port: Port.default(8108),
  /** The whole credential (drivers.md 5.2); Typesense has no users. */
  api_key: SecretRefSchema.optional(),
});

export const ProfileSchema = z.discriminatedUnion('engine', [ElasticsearchProfileSchema, TypesenseProfileSchema], {
  error: 'engine must be "elasticsearch" or "typesense"',
});
export type Profile = z.infer<typeof ProfileSchema>;
export type ElasticsearchProfile = z.infer<typeof ElasticsearchProfileSchema>;
export type TypesenseProfile = z.infer<typeof TypesenseProfileSchema>;

export const ProfilesFileSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    profiles: z.array(ProfileSchema).default([]),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.profiles.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['profiles', i, 'name'], message: `"${p.name}" is already the name of an earlier profile; names must be unique` });
      seen.add(p.name);
    });
  });
export type ProfilesFile = z.infer<typeof ProfilesFileSchema>;

/** The secret fields a profile may hold, by engine. */
export type SecretField = 'password' | 'api_key';

const TYPE_WORDS: Record<string, string> = { number: 'a number', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array' };

/** `profiles[2].port: expected a number`: the field's path and what to write. Never quotes the value. */
export function describeProfileIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  const where = path ? `${path}: ` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length > 0 && isMissing(issue)) return `${where}is missing`;
      return `${where}expected ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'unrecognized_keys': {
      const typesenseUser = issue.keys.some((k) => k === 'username' || k === 'password');
      const advice = typesenseUser ? ' (a Typesense profile has no username or password: its api_key is the whole credential)' : '';
      return `${where}unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}${advice}`;
    }
    case 'invalid_value':
      return `${where}must be ${issue.values.map((v) => JSON.stringify(v)).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
    case 'too_small':
    case 'too_big':
      return `${where}${issue.message.replace(/^Too (small|big): expected \w+ to (have )?/, 'must be ')}`;
    default:
      return `${where}${issue.message}`;
  }
}

function isMissing(issue: z.core.$ZodIssue): boolean {
  return 'input' in issue ? issue.input === undefined : /received undefined/.test(issue.message);
}

function formatPath(path: PropertyKey[]): string {
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : `${i === 0 ? '' : '.'}${String(seg)}`)).join('');
}
