/**
 * `hosts=` on a %connect line and `hosts` in a profile: the nodes of one cluster, one scheme
 * and one set of credentials for all of them; a bad list is refused with what to write.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConnectArgsError,
  parseConnectArgs
} from '../../kernel/src/connections/connect-args';
import {
  ProfileFileError,
  ProfileStore
} from '../../kernel/src/connections/profile-store';
import { profileConnectArgs } from '../../kernel/src/connections/profiles';
import { secretEnv } from './helpers';
import { scratchDir } from '../support/scratch-dir';

const parse = (line: string) => parseConnectArgs(line, secretEnv());

describe('%connect hosts=', () => {
  it('lists the nodes in place of the address, each with the port written or the engine default, the scheme from ssl=', () => {
    expect(
      parse('elasticsearch hosts=127.0.0.1:9200,es2.example auth=none')
    ).toMatchObject({
      url: 'http://127.0.0.1:9200',
      nodes: ['http://127.0.0.1:9200', 'http://es2.example:9200'],
      ssl: 'disabled',
      auth: 'none',
      enginePort: false
    });
    expect(
      parse(
        'elasticsearch hosts=a:9200,b:9201 ssl=verify-ca user=elastic password=${env:ES_PASSWORD}'
      )
    ).toMatchObject({
      url: 'https://a:9200',
      nodes: ['https://a:9200', 'https://b:9201'],
      ssl: 'verify-ca',
      user: 'elastic'
    });
    expect(
      parse('elasticsearch hosts=https://a:9200,https://b:9200')
    ).toMatchObject({
      nodes: ['https://a:9200', 'https://b:9200'],
      ssl: 'required'
    });
    // Each engine's default port: Typesense's is 8108.
    expect(
      parse('typesense hosts=ts1,ts2:8109 key=${env:TS_API_KEY}')
    ).toMatchObject({
      nodes: ['http://ts1:8108', 'http://ts2:8109']
    });
    // One node in hosts= is an ordinary connection.
    const one = parse('elasticsearch hosts=a:9200');
    expect(one.url).toBe('http://a:9200');
    expect(one.nodes).toBeUndefined();
  });

  it.each([
    ['elasticsearch hosts=a:9200,,b:9200', 'entry 2 is empty'],
    ['elasticsearch hosts=a:9200,', 'entry 2 is empty'],
    ['elasticsearch hosts=', 'hosts= is empty'],
    [
      'elasticsearch hosts=a:9200,b:http',
      'the port of "b:http" is not a number from 1 to 65535; write host:port, for example b:9200.'
    ],
    ['elasticsearch hosts=a:99999', 'is not a number from 1 to 65535'],
    [
      'elasticsearch hosts=http://a:9200,https://b:9200',
      'mixes schemes: every node of a connection is reached the same way. Write the nodes without a scheme and choose it with ssl=<mode>'
    ],
    ['elasticsearch hosts=https://a:9200,b:9200', 'mixes schemes'],
    [
      'elasticsearch hosts=https://a:9200,https://b:9200 ssl=disabled',
      'hosts= says https:// but ssl=disabled says plain HTTP'
    ],
    [
      'elasticsearch http://a:9200 hosts=a:9200,b:9200',
      'write the nodes either as the address or in hosts=, not both'
    ],
    [
      'elasticsearch hosts=elastic@a:9200,b:9200',
      'holds a user; every node is reached with the same credentials, so write user=<name> once'
    ],
    ['elasticsearch hosts=a:9200,a:9200', 'lists a:9200 twice'],
    ['elasticsearch hosts=a:9200/x,b', 'is not a host:port']
  ])('%s', (line, message) => {
    expect(() => parse(line)).toThrow(ConnectArgsError);
    expect(() => parse(line)).toThrow(message);
  });
});

describe('a profile with hosts', () => {
  const load = async (profile: Record<string, unknown>) => {
    const store = new ProfileStore(
      join(scratchDir('searchbook-hosts-'), 'profiles.json')
    );
    writeFileSync(store.path, JSON.stringify({ profiles: [profile] }));
    return store.load();
  };

  it('connects to every node listed, host and port first', async () => {
    const file = await load({
      engine: 'elasticsearch',
      name: 'cluster',
      host: 'a',
      port: 9200,
      hosts: ['a:9200', 'b:9201'],
      ssl: 'required'
    });
    const { args } = profileConnectArgs(file.profiles[0]!);
    expect(args).toMatchObject({
      url: 'https://a:9200',
      nodes: ['https://a:9200', 'https://b:9201']
    });
  });

  it.each([
    [
      { hosts: ['b:9200', 'a:9200'] },
      'profiles[0].hosts: lists every node, the one in "host" and "port" first: write ["a:9200", ...]'
    ],
    [
      { hosts: ['a:9200', 'http://b:9200'] },
      'profiles[0].hosts[1]: write each node as host:port'
    ],
    [
      { hosts: ['a:9200', 'b'] },
      'profiles[0].hosts[1]: write each node as host:port'
    ],
    [{ hosts: ['a:9200', 'a:9200'] }, 'profiles[0].hosts: lists a node twice']
  ])('%j is refused', async (extra, message) => {
    const err = await load({
      engine: 'elasticsearch',
      name: 'cluster',
      host: 'a',
      port: 9200,
      ...extra
    }).then(
      () => undefined,
      (e: unknown) => e
    );
    expect(err).toBeInstanceOf(ProfileFileError);
    expect((err as Error).message).toContain(message);
  });
});
