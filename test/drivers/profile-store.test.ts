/** The profiles file: where it lives, round trip, mode 0600, atomic writes, and errors naming the field. */
import {
  promises as fsPromises,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync
} from 'node:fs';
import { join } from 'node:path';
import {
  ProfileFileError,
  ProfileStore,
  profilesPath
} from '../../kernel/src/connections/profile-store';
import type { ProfilesFile } from '../../kernel/src/connections/profile-schema';
import { userConfigDir } from '../../kernel/src/protocol/jupyter-paths';
import { scratchDir } from '../support/scratch-dir';

const tempDir = () => scratchDir('searchbook-profiles-');

const SAMPLE: ProfilesFile = {
  version: 1,
  profiles: [
    {
      engine: 'elasticsearch',
      name: 'local-es',
      host: 'localhost',
      port: 9200,
      ssl: 'disabled',
      skip_verify: false,
      auth: 'basic',
      username: 'elastic',
      password: '${env:ES_PASSWORD}'
    },
    {
      engine: 'elasticsearch',
      name: 'cloud',
      host: 'es.example.com',
      port: 443,
      ssl: 'verify-identity',
      skip_verify: false,
      ca: '/etc/ca.pem',
      auth: 'apikey',
      api_key: { keyring: 'cloud/api_key' },
      timeout: 5
    },
    {
      engine: 'typesense',
      name: 'ts',
      host: '[::1]',
      port: 8108,
      ssl: 'disabled',
      skip_verify: true
    }
  ]
};

describe('where the file lives', () => {
  it('follows Jupyter: JUPYTER_CONFIG_DIR, else ~/.jupyter, else the platform dirs when asked', () => {
    expect(
      userConfigDir({ JUPYTER_CONFIG_DIR: '/x/cfg' }, 'linux', '/home/u')
    ).toBe('/x/cfg');
    expect(userConfigDir({}, 'linux', '/home/u')).toBe('/home/u/.jupyter');
    expect(userConfigDir({}, 'darwin', '/Users/u')).toBe('/Users/u/.jupyter');
    expect(
      userConfigDir({ JUPYTER_PLATFORM_DIRS: '1' }, 'linux', '/home/u')
    ).toBe('/home/u/.config/jupyter');
    expect(
      userConfigDir(
        { JUPYTER_PLATFORM_DIRS: '1', XDG_CONFIG_HOME: '/xdg' },
        'linux',
        '/home/u'
      )
    ).toBe('/xdg/jupyter');
    expect(
      userConfigDir({ JUPYTER_PLATFORM_DIRS: '0' }, 'linux', '/home/u')
    ).toBe('/home/u/.jupyter');
    expect(
      userConfigDir({ JUPYTER_PLATFORM_DIRS: 'yes' }, 'darwin', '/Users/u')
    ).toBe('/Users/u/Library/Application Support/jupyter');
    expect(profilesPath({ JUPYTER_CONFIG_DIR: '/x/cfg' })).toBe(
      '/x/cfg/searchbook/profiles.json'
    );
  });
});

describe('reading and writing', () => {
  it('round-trips every field, creating the directory, with mode 0600', async () => {
    const dir = tempDir();
    const store = new ProfileStore(profilesPath({ JUPYTER_CONFIG_DIR: dir }));
    expect(await store.load()).toEqual({ version: 1, profiles: [] });
    await store.write(SAMPLE);
    expect(await store.load()).toEqual(SAMPLE);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'searchbook')).mode & 0o777).toBe(0o700);
    await store.put({
      ...SAMPLE.profiles[2]!,
      port: 8109
    } as ProfilesFile['profiles'][number]);
    expect((await store.get('ts'))?.port).toBe(8109);
    expect((await store.remove('local-es'))?.name).toBe('local-es');
    expect((await store.load()).profiles.map(p => p.name)).toEqual([
      'cloud',
      'ts'
    ]);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('fills the defaults of a hand-written profile: ports 9200 and 8108, ssl disabled', async () => {
    const store = new ProfileStore(join(tempDir(), 'profiles.json'));
    writeFileSync(
      store.path,
      JSON.stringify({
        profiles: [
          { engine: 'elasticsearch', name: 'a', host: 'h' },
          { engine: 'typesense', name: 'b', host: 'h' }
        ]
      })
    );
    const [es, ts] = (await store.load()).profiles;
    expect(es).toMatchObject({
      port: 9200,
      ssl: 'disabled',
      skip_verify: false
    });
    expect(ts).toMatchObject({
      port: 8108,
      ssl: 'disabled',
      skip_verify: false
    });
  });

  it('never leaves a partial file: readers during many writes always see a whole file', async () => {
    const store = new ProfileStore(join(tempDir(), 'profiles.json'));
    await store.write(SAMPLE);
    let writing = true;
    const reads: number[] = [];
    const reader = (async () => {
      while (writing) {
        const text = readFileSync(store.path, 'utf8');
        reads.push(JSON.parse(text).profiles.length as number); // throws on a torn file
        await new Promise(r => setImmediate(r));
      }
    })();
    for (let i = 0; i < 60; i += 1) {
      await store.write({
        version: 1,
        profiles: SAMPLE.profiles.slice(0, 1 + (i % 3))
      });
    }
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(10);
    expect(readdirSync(join(store.path, '..'))).toEqual(['profiles.json']);
  });

  it('a failed write leaves the previous file as it was and no temporary file', async () => {
    const store = new ProfileStore(join(tempDir(), 'profiles.json'));
    await store.write(SAMPLE);
    const before = readFileSync(store.path, 'utf8');
    const rename = jest
      .spyOn(fsPromises, 'rename')
      .mockRejectedValueOnce(
        Object.assign(new Error('disk full'), { code: 'ENOSPC' })
      );
    try {
      await expect(store.write({ version: 1, profiles: [] })).rejects.toThrow(
        /Cannot write .*profiles\.json \(ENOSPC\); the previous file is unchanged/
      );
    } finally {
      rename.mockRestore();
    }
    expect(readFileSync(store.path, 'utf8')).toBe(before);
    expect(readdirSync(join(store.path, '..'))).toEqual(['profiles.json']);
  });
});

describe('a bad file gets an error naming the field, and never quotes a value', () => {
  const es = (extra: Record<string, unknown>) => ({
    engine: 'elasticsearch',
    name: 'p',
    host: 'localhost',
    ...extra
  });
  it.each([
    [
      {
        profiles: [es({}), es({ name: 'q' }), es({ name: 'r', port: '9200' })]
      },
      'profiles.json: profiles[2].port: expected a number'
    ],
    [
      { profiles: [es({ port: 70000 })] },
      'profiles.json: profiles[0].port: must be'
    ],
    [
      { profiles: [{ engine: 'solr', name: 'p', host: 'h' }] },
      'profiles.json: profiles[0].engine: engine must be "elasticsearch" or "typesense"'
    ],
    [
      { profiles: [es({ host: undefined })] },
      'profiles.json: profiles[0].host: is missing'
    ],
    [
      { profiles: [es({ host: 'https://localhost:9200' })] },
      'profiles.json: profiles[0].host: write the host name only'
    ],
    [
      { profiles: [es({ ssl: 'on' })] },
      'profiles.json: profiles[0].ssl: must be "disabled", "preferred", "required", "verify-ca" or "verify-identity"'
    ],
    [
      {
        profiles: [
          es({
            auth: 'basic',
            username: 'elastic',
            password: 'LITERAL-SECRET-1'
          })
        ]
      },
      'profiles.json: profiles[0].password: a secret is never stored in this file'
    ],
    [
      { profiles: [es({ auth: 'apikey', api_key: 'LITERAL-SECRET-1' })] },
      'profiles.json: profiles[0].api_key: a secret is never stored in this file'
    ],
    [
      {
        profiles: [
          { engine: 'typesense', name: 't', host: 'h', username: 'admin' }
        ]
      },
      'profiles.json: profiles[0]: unknown field "username" (a Typesense profile has no username or password'
    ],
    [
      { profiles: [es({ auth: 'basic' })] },
      'profiles.json: profiles[0].username: auth is "basic", so a username is needed'
    ],
    [
      { profiles: [es({ skip_verify: 'yes' })] },
      'profiles.json: profiles[0].skip_verify: expected true or false'
    ],
    [
      { profiles: [es({}), es({})] },
      'profiles.json: profiles[1].name: "p" is already the name of an earlier profile'
    ],
    [
      { profiles: [es({ name: 'has space' })] },
      'profiles.json: profiles[0].name: use letters, digits, _, . and - only'
    ],
    [{ version: 2, profiles: [] }, 'profiles.json: version: must be 1'],
    [{ profiles: {} }, 'profiles.json: profiles: expected an array']
  ])('%j', async (content, message) => {
    const store = new ProfileStore(join(tempDir(), 'profiles.json'));
    writeFileSync(store.path, JSON.stringify(content));
    const err = await store.load().then(
      () => undefined,
      (e: unknown) => e
    );
    expect(err).toBeInstanceOf(ProfileFileError);
    expect((err as Error).message.startsWith(message)).toBe(true);
    expect((err as Error).message).toContain(store.path);
    expect((err as Error).message).not.toContain('LITERAL-SECRET-1');
  });

  it('invalid JSON: the place, not the text around it', async () => {
    const store = new ProfileStore(join(tempDir(), 'profiles.json'));
    writeFileSync(
      store.path,
      '{"profiles": [\n  {"password": LITERAL-SECRET-2}]}'
    );
    await expect(store.load()).rejects.toThrow(
      /profiles\.json is not valid JSON.*check its quotes and commas/
    );
    await expect(store.load()).rejects.not.toThrow(/LITERAL-SECRET-2/);
  });
});
