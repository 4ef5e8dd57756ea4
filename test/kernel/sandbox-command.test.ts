/**
 * `searchbook sandbox` in a clone runs the sandbox package's own command (searchbook-sandbox),
 * which the kernel finds when asked for and never imports.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

function searchbook(...args: string[]) {
  return spawnSync(
    process.execPath,
    [join(REPO, 'bin', 'searchbook.js'), ...args],
    {
      encoding: 'utf8'
    }
  );
}

it('lists the sandbox options of searchbook-sandbox', () => {
  const run = searchbook('sandbox', '--help');
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('Usage: searchbook-sandbox [options]');
  expect(run.stdout).toContain('--addresses FILE');
});

it('refuses a wrong option as searchbook-sandbox does, with its usage', () => {
  const run = searchbook('sandbox', '--es-port', 'x');
  expect(run.status).toBe(2);
  expect(run.stderr).toBe(
    'searchbook-sandbox: --es-port: "x" is not a port number (0 to 65535)\n'
  );
});
