/**
 * The profiles file (`<Jupyter config dir>/searchbook/profiles.json`): saved connections, each
 * with the fields its engine's descriptor declares. Secrets are never stored in it: a profile
 * names where its secret is (`${env:NAME}` or an OS keyring entry), or leaves it out to be
 * asked for at connect time.
 */
import { z } from 'zod';
import type { StoredProfile } from '../driver-core/profile-fields';
import { ENGINE_NAMES, ENGINES } from '../engines/engine-registry';

export {
  ENV_REFERENCE,
  LITERAL_SECRET_MESSAGE,
  PROFILE_NAME,
  type SecretField,
  type SecretRef,
  SecretRefSchema
} from '../driver-core/profile-fields';

const [FIRST, ...MORE] = ENGINES;

/** One profile of any registered engine, chosen by its `engine` field. */
export const ProfileSchema = z.discriminatedUnion(
  'engine',
  [FIRST.profile.schema, ...MORE.map(engine => engine.profile.schema)],
  {
    error: `engine must be ${ENGINE_NAMES.map(name => JSON.stringify(name))
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`
  }
);
export type Profile = StoredProfile;

export const ProfilesFileSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    profiles: z.array(ProfileSchema).default([])
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.profiles.forEach((p, i) => {
      if (seen.has(p.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'name'],
          message: `"${p.name}" is already the name of an earlier profile; names must be unique`
        });
      }
      seen.add(p.name);
      const first = `${p.host}:${p.port}`;
      if (p.hosts && p.hosts[0] !== first) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'hosts'],
          message: `lists every node, the one in "host" and "port" first: write ["${first}", ...]`
        });
      }
      if (p.hosts && new Set(p.hosts).size !== p.hosts.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'hosts'],
          message: 'lists a node twice; write each node once'
        });
      }
    });
  });
export type ProfilesFile = z.infer<typeof ProfilesFileSchema>;

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array'
};

/** `profiles[2].port: expected a number`: the field's path and what to write. Never quotes the value. */
export function describeProfileIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  const where = path ? `${path}: ` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length > 0 && isMissing(issue)) {
        return `${where}is missing`;
      }
      return `${where}expected ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'unrecognized_keys': {
      const advice =
        ENGINES.map(engine =>
          engine.profile.unknownFieldAdvice(issue.keys)
        ).find(text => text !== undefined) ?? '';
      return `${where}unknown field ${issue.keys.map(k => `"${k}"`).join(', ')}${advice}`;
    }
    case 'invalid_value':
      return `${where}must be ${issue.values
        .map(v => JSON.stringify(v))
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`;
    case 'too_small':
    case 'too_big':
      return `${where}${issue.message.replace(/^Too (small|big): expected \w+ to (have )?/, 'must be ')}`;
    default:
      return `${where}${issue.message}`;
  }
}

function isMissing(issue: z.core.$ZodIssue): boolean {
  return 'input' in issue
    ? issue.input === undefined
    : /received undefined/.test(issue.message);
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((seg, i) =>
      typeof seg === 'number'
        ? `[${seg}]`
        : `${i === 0 ? '' : '.'}${String(seg)}`
    )
    .join('');
}
