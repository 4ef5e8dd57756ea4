/**
 * An engine's own `%connect` options and secret kinds live in its folder: the sample engine
 * beside this file, registered with the product's engines the way engine-registry.ts registers them,
 * is read, refused and cleaned by the engine-neutral code without a line of it naming Sample.
 */
import type * as EngineRegistryModule from '../../../kernel/src/driver-core/engine-registry-builder';
import type * as ProductRegistry from '../../../kernel/src/engines/engine-registry';
import type * as SampleFolder from './descriptor';

jest.mock('../../../kernel/src/engines/engine-registry', () => {
  const { engineRegistry } = jest.requireActual<typeof EngineRegistryModule>(
    '../../../kernel/src/driver-core/engine-registry-builder'
  );
  const product = jest.requireActual<typeof ProductRegistry>(
    '../../../kernel/src/engines/engine-registry'
  );
  const { sampleEngine } =
    jest.requireActual<typeof SampleFolder>('./descriptor');
  return engineRegistry([...product.ENGINES, sampleEngine]);
});

import { withoutTypedSecrets } from '../../../contracts/typed-secrets';
import {
  ConnectArgsError,
  CONNECT_USAGE,
  parseConnectArgs,
  TypedSecretError
} from '../../../kernel/src/connections/connect-args';
import { TYPED_SECRET_KINDS } from '../../../kernel/src/connections/engine-options';
import { profileConnectArgs } from '../../../kernel/src/connections/profiles';
import { ProfileSchema } from '../../../kernel/src/connections/profile-schema';
import { kernelInfo } from '../../../kernel/src/handlers/kernel-info';

const env = (name: string) =>
  name === 'SAMPLE_KEY' ? 'sample-key-value-1' : undefined;
const parse = (line: string) => parseConnectArgs(line, env);

describe('an engine with options of its own', () => {
  it('reads them with its own schema, beside the common ones', () => {
    expect(
      parse(
        'sample http://h:7700 key=${env:SAMPLE_KEY} tenant=acme shards=3 timeout=5'
      )
    ).toMatchObject({
      engine: 'sample',
      url: 'http://h:7700',
      key: 'sample-key-value-1',
      tenant: 'acme',
      shards: 3,
      timeout: 5
    });
    expect(() => parse('sample http://h:7700 tenant=ACME')).toThrow(
      /tenant: a tenant is lower-case letters, such as tenant=acme/
    );
    expect(() => parse('sample http://h:7700 shards=1.5')).toThrow(
      /shards: write shards=<whole number>/
    );
    expect(CONNECT_USAGE).toContain('[tenant=<name>] [shards=<count>]');
  });

  it('an option of another engine gets one refusal naming whose it is', () => {
    const refusal = (line: string) => {
      try {
        parse(line);
      } catch (err) {
        expect(err).toBeInstanceOf(ConnectArgsError);
        return (err as Error).message;
      }
      throw new Error(`${line} was not refused`);
    };
    expect(refusal('elasticsearch http://h:9200 tenant=acme')).toBe(
      '%connect: tenant= is a Sample option, not an Elasticsearch one; leave it out.'
    );
    expect(refusal('typesense h:8108 tenant=acme shards=2')).toBe(
      '%connect: tenant=, shards= are Sample options, not Typesense ones; leave them out.'
    );
    expect(refusal('sample http://h:7700 compat=8')).toBe(
      '%connect: compat= is an Elasticsearch option, not a Sample one; leave it out.'
    );
    expect(refusal('sample http://h:7700 tenant=acme shard=2')).toMatch(
      /^%connect: "shard" is not an option of %connect \(options: .*ca, skip_verify, hosts, tenant, shards\)/
    );
  });

  it('its secret kind is refused on the line, even as ${env:NAME}, and cleaned from the cell', () => {
    let typed: unknown;
    try {
      parse('sample http://h:7700 ticket=t-123456');
    } catch (err) {
      typed = err;
    }
    expect(typed).toBeInstanceOf(TypedSecretError);
    expect(typed).toMatchObject({
      option: 'sample-ticket',
      message:
        '%connect takes no Sample ticket: Sample reads its ticket from ~/.sample/ticket. A secret typed into a cell would be saved in the notebook.'
    });
    expect(() =>
      parse('elasticsearch http://h:9200 SAMPLE_TICKET=${env:SAMPLE_KEY}')
    ).toThrow(
      '%connect takes no Sample ticket, not even as ${env:NAME}: Sample reads its ticket from ~/.sample/ticket.'
    );
    expect(
      withoutTypedSecrets(
        '%connect sample http://h:7700 ticket=t-123456 tenant=acme\nGET /x',
        TYPED_SECRET_KINDS
      )
    ).toBe('%connect sample http://h:7700 tenant=acme\nGET /x');
    expect(kernelInfo()['searchbook_typed_secrets']).toContainEqual({
      option: 'sample-ticket',
      names: 'sample_ticket|ticket',
      words: 'Sample ticket',
      removeTitle: 'Deletes the typed Sample ticket from the %connect line'
    });
  });

  it('its profiles join the profiles file and give back its options', () => {
    const profile = ProfileSchema.parse({
      engine: 'sample',
      name: 's',
      host: 'h',
      ssl: 'disabled',
      tenant: 'acme',
      shards: 2,
      api_key: '${env:SAMPLE_KEY}'
    });
    expect(profileConnectArgs(profile)).toMatchObject({
      args: {
        engine: 'sample',
        url: 'http://h:7700',
        tenant: 'acme',
        shards: 2
      },
      needs: [{ field: 'api_key', arg: 'key', ref: '${env:SAMPLE_KEY}' }]
    });
  });
});
