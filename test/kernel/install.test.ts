import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  dataDirFor,
  userDataDir
} from '../../kernel/src/protocol/jupyter-paths';
import { REPO } from '../support/kernel-client';
import { scratchDir } from '../support/scratch-dir';

const run = promisify(execFile);

describe("Jupyter's data directory rules", () => {
  test('JUPYTER_DATA_DIR wins on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(
        userDataDir({ JUPYTER_DATA_DIR: '/custom' }, platform, '/home/u')
      ).toBe('/custom');
    }
  });

  test('Linux honours XDG_DATA_HOME, else ~/.local/share', () => {
    expect(userDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/u')).toBe(
      '/xdg/jupyter'
    );
    expect(userDataDir({}, 'linux', '/home/u')).toBe(
      '/home/u/.local/share/jupyter'
    );
  });

  test('macOS uses ~/Library/Jupyter and Windows %APPDATA%\\jupyter', () => {
    expect(userDataDir({}, 'darwin', '/Users/u')).toBe(
      '/Users/u/Library/Jupyter'
    );
    expect(
      userDataDir(
        { APPDATA: 'C:/Users/u/AppData/Roaming' },
        'win32',
        'C:/Users/u'
      )
    ).toBe(join('C:/Users/u/AppData/Roaming', 'jupyter'));
  });

  test('without a flag, an active virtual environment is preferred to the user directory', () => {
    expect(
      dataDirFor(undefined, { VIRTUAL_ENV: '/venv', JUPYTER_DATA_DIR: '/user' })
    ).toBe('/venv/share/jupyter');
    expect(dataDirFor(undefined, { JUPYTER_DATA_DIR: '/user' })).toBe('/user');
    expect(
      dataDirFor(
        { kind: 'user' },
        { VIRTUAL_ENV: '/venv', JUPYTER_DATA_DIR: '/user' }
      )
    ).toBe('/user');
    expect(dataDirFor({ kind: 'prefix', dir: '/opt/x' }, {})).toBe(
      '/opt/x/share/jupyter'
    );
  });

  test('--sys-prefix without an active environment says what to do instead', () => {
    expect(() => dataDirFor({ kind: 'sys-prefix' }, {})).toThrow(
      /activate one, or use --user or --prefix DIR/
    );
  });
});

describe('searchbook install and uninstall', () => {
  const cli = join(REPO, 'bin', 'searchbook.js');

  test('write and remove the kernelspec with message interrupts and logos', async () => {
    const prefix = scratchDir('searchbook-install-');
    const { stdout } = await run(process.execPath, [
      cli,
      'install',
      '--prefix',
      prefix
    ]);
    const dir = join(prefix, 'share', 'jupyter', 'kernels', 'searchbook');
    expect(stdout).toContain(dir);
    const spec = JSON.parse(readFileSync(join(dir, 'kernel.json'), 'utf8'));
    expect(spec).toMatchObject({
      display_name: 'searchbook',
      language: 'searchbook',
      interrupt_mode: 'message'
    });
    expect(spec.argv).toEqual([
      process.execPath,
      cli,
      'kernel',
      '{connection_file}'
    ]);
    expect(
      existsSync(join(dir, 'logo-32x32.png')) &&
        existsSync(join(dir, 'logo-64x64.png'))
    ).toBe(true);
    await run(process.execPath, [cli, 'uninstall', '--prefix', prefix]);
    expect(existsSync(dir)).toBe(false);
  });

  test('a wrong flag is refused with the usage', async () => {
    await expect(
      run(process.execPath, [cli, 'install', '--everywhere'])
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'use one of --user, --sys-prefix, --prefix DIR'
      )
    });
  });
});
