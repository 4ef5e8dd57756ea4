/**
 * Typesense as the kernel knows it before its driver loads. Typesense has no users and no URL
 * scheme of its own: a connection is a host, a port, HTTP or HTTPS and an API key
 * (https://typesense.org/docs/latest/api/authentication.html), so it is never shown as a URL.
 */
import { z } from 'zod';
import type { EngineDescriptor } from '../../driver-core/engine-module';
import {
  PROFILE_COMMON_FIELDS,
  ProfilePortSchema,
  SecretRefSchema,
  type StoredProfile
} from '../../driver-core/profile-fields';

export const TYPESENSE_ADDRESS_ADVICE =
  'Typesense has no URL scheme of its own, so a Typesense connection is not written as a URL with credentials: write %connect typesense <host>[:port] [ssl=<mode>] key=${env:NAME}, for example %connect typesense localhost:8108 key=${env:TYPESENSE_API_KEY}.';

export const TypesenseProfileSchema = z.strictObject({
  engine: z.literal('typesense'),
  ...PROFILE_COMMON_FIELDS,
  /** 8108 for a local node; a hosted cluster answers on 443. */
  port: ProfilePortSchema.default(8108),
  /** The whole credential; Typesense has no users. */
  api_key: SecretRefSchema.optional()
});
type TypesenseProfile = z.infer<typeof TypesenseProfileSchema>;

/** A profile the profiles file has already checked against the schema above. */
const own = (profile: StoredProfile): TypesenseProfile =>
  TypesenseProfileSchema.parse(profile);

export const typesenseEngine: EngineDescriptor = {
  name: 'typesense',
  displayName: 'Typesense',
  targetNoun: 'collection',
  namePrefix: 'ts',
  docs: {
    text: 'Typesense API reference',
    url: 'https://typesense.org/docs/latest/api/'
  },
  // A local node listens on 8108; a hosted cluster answers HTTPS on 443.
  defaultPort: ssl => (ssl === 'disabled' ? 8108 : 443),
  connect: {
    example:
      '%connect typesense http://localhost:8108 key=${env:TYPESENSE_API_KEY}',
    usage: [
      '%connect typesense http://localhost:8108 key=${env:TYPESENSE_API_KEY}'
    ],
    addressForm: '<host>[:port]',
    shownAsUrl: false,
    nameTheEngine: () =>
      'For Typesense write %connect typesense <host>[:port] key=${env:NAME} (Typesense connections are not URLs)',
    refuseAddress({ scheme, userInfo }) {
      const foreign =
        scheme !== undefined && scheme !== 'http' && scheme !== 'https';
      if (!foreign && !userInfo) {
        return undefined;
      }
      return `%connect: "${foreign ? `${scheme}://` : 'user@'}..." is not a Typesense address. ${TYPESENSE_ADDRESS_ADVICE}`;
    },
    options: {},
    refuseOptions: options =>
      options.user !== undefined || options.password !== undefined
        ? '%connect: Typesense has no users, so user= and password= do not apply; its API key is the whole credential: key=${env:NAME}.'
        : undefined,
    refuseSave: () => undefined
  },
  secrets: {
    key: {
      field: 'api_key',
      label: 'API key',
      describe: () => 'the Typesense API key'
    }
  },
  secretsUsed: () => ['key'],
  profile: {
    schema: TypesenseProfileSchema,
    unknownFieldAdvice: keys =>
      keys.some(k => k === 'username' || k === 'password')
        ? ' (a Typesense profile has no username or password: its api_key is the whole credential)'
        : undefined,
    connectArgs(profile) {
      const p = own(profile);
      return {
        args: {},
        refs: p.api_key !== undefined ? { api_key: p.api_key } : {}
      };
    },
    fromConnection: (common, _args, secrets) => ({
      engine: 'typesense',
      ...common,
      ...(secrets.api_key ? { api_key: secrets.api_key } : {})
    }),
    auth: () => 'apikey',
    secretInUse: profile => own(profile).api_key,
    secretRefs: profile =>
      [own(profile).api_key].filter(ref => ref !== undefined),
    user: () => undefined
  },
  completion: {
    // Requests name a collection as /collections/<name>/...; multi_search bodies name theirs.
    targetOfPath: ([first, second]) =>
      first === 'collections' && second && !second.includes('${')
        ? second
        : undefined,
    exportOptions: []
  },
  console: {
    exportBody: 'Typesense {"filter_by": ..., "include_fields": ...}',
    ndjsonEndpoints: ['Typesense documents/import']
  },
  load: async () => (await import('./engine-module')).typesenseModule
};
