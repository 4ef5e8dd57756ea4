/** `%connect` lines as profiles and --save, URL import and export, and the Typesense URL refusal. */
import { ConnectArgsError } from '../../kernel/src/connections/connect-args';
import { parseConnectCommand } from '../../kernel/src/connections/connect-command';
import { profileAddress } from '../../kernel/src/connections/profile-url';
import { profileConnectArgs } from '../../kernel/src/connections/profiles';
import { missingSecrets } from '../../kernel/src/connections/secrets';
import { secretEnv, SECRETS } from './helpers';

const parse = (line: string) => parseConnectCommand(line, secretEnv());

describe('%connect <profile> and --save', () => {
  it('one word is a profile name', () => {
    expect(parse('local-es')).toEqual({ kind: 'profile', name: 'local-es' });
  });

  it('--save <name> and --save=<name> name the profile and the connection, and keep the ${env:NAME} names', () => {
    const saved = parse(
      'elasticsearch https://elastic@localhost:9200 password=${env:ES_PASSWORD} --save prod'
    );
    expect(saved).toMatchObject({
      kind: 'address',
      save: 'prod',
      envNames: { password: 'ES_PASSWORD' }
    });
    expect(saved.kind === 'address' && saved.args).toMatchObject({
      name: 'prod',
      user: 'elastic',
      password: SECRETS.ES_PASSWORD,
      url: 'https://localhost:9200',
      ssl: 'required'
    });
    expect(
      parse('typesense localhost --save=ts name=other key=${env:TS_API_KEY}')
    ).toMatchObject({
      save: 'ts',
      args: { name: 'other' },
      envNames: { key: 'TS_API_KEY' }
    });
  });

  it.each([
    ['', /needs a profile name, or an engine and an address/],
    ['elasticsearch', /needs an engine and an address/],
    ['prod --save other', /"prod" names a profile, which is saved already/],
    ['elasticsearch http://h --save', /--save needs a profile name/],
    ['elasticsearch http://h --save a --save b', /write --save once/],
    ['elasticsearch http://h --save "bad name"', /--save needs a profile name/],
    ['elasticsearch http://h --force', /"--force" is not a flag of %connect/],
    [
      'elasticsearch http://h auth=basic --save p',
      /auth=basic needs user=<name>/
    ],
    ['no/such', /name the engine before the address/],
    [
      'https://elastic:${env:ES_PASSWORD}@localhost:9200',
      /name the engine before the address: %connect elasticsearch https:\/\/elastic:\*\*\*@localhost:9200/
    ],
    [
      'elasticsearch es://localhost:9200',
      /es:\/\/ is not a scheme searchbook connects with/
    ]
  ])('refuses %j', (line, message) => {
    expect(() => parse(line)).toThrow(ConnectArgsError);
    expect(() => parse(line)).toThrow(message);
  });
});

describe('Elasticsearch URLs in and out; Typesense never as a URL', () => {
  it('imports https://elastic@localhost:9200 (user from the URL, no password in it) and exports it the same way', () => {
    const command = parse('elasticsearch https://elastic@localhost:9200');
    if (command.kind !== 'address') {
      throw new Error('expected an address');
    }
    expect(command.args).toMatchObject({
      user: 'elastic',
      url: 'https://localhost:9200',
      ssl: 'required'
    });
    expect(command.args).not.toHaveProperty('password');
    expect(missingSecrets(command.args)).toEqual([
      { field: 'password', arg: 'password' }
    ]);
    expect(
      profileAddress({
        engine: 'elasticsearch',
        name: 'p',
        host: 'localhost',
        port: 9200,
        ssl: 'required',
        skip_verify: false,
        auth: 'basic',
        username: 'elastic',
        password: { keyring: 'p/password' }
      })
    ).toBe('https://elastic@localhost:9200');
    expect(
      profileAddress({
        engine: 'elasticsearch',
        name: 'p',
        host: 'es.local',
        port: 9200,
        ssl: 'disabled',
        skip_verify: false,
        auth: 'basic',
        username: 'a b@c',
        password: '${env:X}'
      })
    ).toBe('http://a%20b%40c@es.local:9200');
  });

  it('a Typesense profile shows as host:port, never as a URL', () => {
    expect(
      profileAddress({
        engine: 'typesense',
        name: 't',
        host: 'xyz.a1.typesense.net',
        port: 443,
        ssl: 'verify-identity',
        skip_verify: false,
        api_key: '${env:K}'
      })
    ).toBe('xyz.a1.typesense.net:443');
  });

  it.each([
    [
      'typesense typesense://localhost:8108',
      /"typesense:\/\/\.\.\." is not a Typesense address/
    ],
    [
      'typesense ts://admin@localhost',
      /"ts:\/\/\.\.\." is not a Typesense address/
    ],
    [
      'typesense http://admin:${env:TS_API_KEY}@localhost:8108',
      /"user@\.\.\." is not a Typesense address/
    ],
    [
      'typesense admin@localhost:8108',
      /"user@\.\.\." is not a Typesense address/
    ],
    ['typesense localhost password=${env:TS_API_KEY}', /Typesense has no users/]
  ])('refuses %j and says what to write', (line, message) => {
    expect(() => parse(line)).toThrow(message);
    expect(() => parse(line)).toThrow(
      /write %connect typesense <host>\[:port\]|key=\$\{env:NAME\}/
    );
    expect(() => parse(line)).not.toThrow(SECRETS.TS_API_KEY);
  });

  it('still takes a plain http(s) address for Typesense', () => {
    expect(
      parse('typesense http://localhost:8108 key=${env:TS_API_KEY}')
    ).toMatchObject({
      kind: 'address',
      args: { url: 'http://localhost:8108' }
    });
  });
});

describe('a profile as %connect arguments', () => {
  it('Elasticsearch basic: the URL from ssl, host and port; the password still to fetch from its reference', () => {
    const { args, needs } = profileConnectArgs({
      engine: 'elasticsearch',
      name: 'p',
      host: '[::1]',
      port: 9201,
      ssl: 'verify-ca',
      skip_verify: true,
      ca: '/ca.pem',
      timeout: 3,
      username: 'elastic',
      password: '${env:ES_PASSWORD}'
    });
    expect(args).toEqual({
      engine: 'elasticsearch',
      name: 'p',
      url: 'https://[::1]:9201',
      ssl: 'verify-ca',
      enginePort: false,
      skip_verify: true,
      ca: '/ca.pem',
      timeout: 3,
      auth: 'basic',
      user: 'elastic'
    });
    expect(needs).toEqual([
      { field: 'password', arg: 'password', ref: '${env:ES_PASSWORD}' }
    ]);
  });

  it('an API key chooses auth apikey; auth none needs nothing; Typesense needs its key', () => {
    expect(
      profileConnectArgs({
        engine: 'elasticsearch',
        name: 'p',
        host: 'h',
        port: 9200,
        ssl: 'disabled',
        skip_verify: false,
        api_key: { keyring: 'p/api_key' }
      }).needs
    ).toEqual([
      { field: 'api_key', arg: 'key', ref: { keyring: 'p/api_key' } }
    ]);
    expect(
      profileConnectArgs({
        engine: 'elasticsearch',
        name: 'p',
        host: 'h',
        port: 9200,
        ssl: 'disabled',
        skip_verify: false,
        auth: 'none'
      }).needs
    ).toEqual([]);
    expect(
      profileConnectArgs({
        engine: 'typesense',
        name: 't',
        host: 'h',
        port: 8108,
        ssl: 'disabled',
        skip_verify: false
      }).needs
    ).toEqual([{ field: 'api_key', arg: 'key' }]);
  });
});
