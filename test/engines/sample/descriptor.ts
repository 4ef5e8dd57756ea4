/**
 * An engine that exists only for the tests, written as a product engine's folder is: it brings
 * two `%connect` options and a kind of secret of its own, and nothing outside this folder names
 * them. own-options.test.ts registers it beside the product's engines, as engine-registry.ts does.
 */
import { z } from 'zod';
import type { EngineDescriptor } from '../../../kernel/src/driver-core/engine-module';
import {
  PROFILE_COMMON_FIELDS,
  ProfilePortSchema,
  SecretRefSchema,
  type StoredProfile
} from '../../../kernel/src/driver-core/profile-fields';

const SampleProfileSchema = z.strictObject({
  engine: z.literal('sample'),
  ...PROFILE_COMMON_FIELDS,
  port: ProfilePortSchema.default(7700),
  api_key: SecretRefSchema.optional(),
  tenant: z.string().optional(),
  shards: z.number().int().optional()
});

const own = (profile: StoredProfile) => SampleProfileSchema.parse(profile);

export const sampleEngine: EngineDescriptor = {
  name: 'sample',
  displayName: 'Sample',
  targetNoun: 'table',
  namePrefix: 'sm',
  docs: { text: 'Sample API', url: 'https://sample.invalid/docs' },
  defaultPort: () => 7700,
  connect: {
    example: '%connect sample http://localhost:7700 key=${env:SAMPLE_KEY}',
    usage: [
      '%connect sample http://localhost:7700 key=${env:SAMPLE_KEY} [tenant=<name>] [shards=<count>]'
    ],
    addressForm: '<url>',
    shownAsUrl: true,
    nameTheEngine: shown => `%connect sample ${shown}`,
    refuseAddress: () => undefined,
    options: {
      tenant: z
        .string()
        .regex(
          /^[a-z]+$/,
          'a tenant is lower-case letters, such as tenant=acme'
        )
        .optional(),
      shards: z
        .string()
        .transform(Number)
        .pipe(z.number().int('write shards=<whole number>').min(1))
        .optional()
    },
    refuseOptions: () => undefined,
    refuseSave: () => undefined
  },
  secrets: {
    key: { field: 'api_key', label: 'API key', describe: () => 'the key' }
  },
  typedSecrets: [
    {
      option: 'sample-ticket',
      names: 'sample_ticket|ticket',
      words: 'Sample ticket',
      removeTitle: 'Deletes the typed Sample ticket from the %connect line',
      where: 'Sample reads its ticket from ~/.sample/ticket.',
      afterRemoval: 'Remove it, then run the cell again.'
    }
  ],
  secretsUsed: () => ['key'],
  profile: {
    schema: SampleProfileSchema,
    unknownFieldAdvice: () => undefined,
    connectArgs(profile) {
      const p = own(profile);
      return {
        args: {
          ...(p.tenant !== undefined ? { tenant: p.tenant } : {}),
          ...(p.shards !== undefined ? { shards: p.shards } : {})
        },
        refs: p.api_key !== undefined ? { api_key: p.api_key } : {}
      };
    },
    fromConnection: (common, args, secrets) => ({
      engine: 'sample',
      ...common,
      ...(typeof args.tenant === 'string' ? { tenant: args.tenant } : {}),
      ...(typeof args.shards === 'number' ? { shards: args.shards } : {}),
      ...secrets
    }),
    auth: () => 'apikey',
    secretInUse: profile => own(profile).api_key,
    secretRefs: profile =>
      [own(profile).api_key].filter(ref => ref !== undefined),
    user: () => undefined
  },
  completion: { targetOfPath: () => undefined, exportOptions: [] },
  console: { exportBody: 'a Sample filter', ndjsonEndpoints: [] },
  load: () => Promise.reject(new Error('the sample engine has no driver'))
};
