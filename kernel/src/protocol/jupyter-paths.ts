import { homedir } from 'node:os';
import { join } from 'node:path';

export type InstallScope =
  { kind: 'user' } | { kind: 'sys-prefix' } | { kind: 'prefix'; dir: string };

type Env = Record<string, string | undefined>;

/** Jupyter's per-user data directory, as jupyter_core computes it. */
export function userDataDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir()
): string {
  if (env.JUPYTER_DATA_DIR) {
    return env.JUPYTER_DATA_DIR;
  }
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'jupyter');
  }
  if (platform === 'darwin') {
    return join(home, 'Library', 'Jupyter');
  }
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'jupyter');
}

/** The active Python environment's prefix (virtualenv or conda), if one is active. */
export function activeEnvPrefix(env: Env = process.env): string | undefined {
  return env.VIRTUAL_ENV || env.CONDA_PREFIX || undefined;
}

/**
 * Where `install` writes. Without a flag: the active environment's prefix when one is active
 * (Jupyter searches it before the user directory), else the user directory.
 */
export function dataDirFor(
  scope: InstallScope | undefined,
  env: Env = process.env
): string {
  const kind = scope?.kind ?? (activeEnvPrefix(env) ? 'sys-prefix' : 'user');
  if (kind === 'user') {
    return userDataDir(env);
  }
  if (kind === 'prefix') {
    return join((scope as { dir: string }).dir, 'share', 'jupyter');
  }
  const prefix = activeEnvPrefix(env);
  if (!prefix) {
    throw new Error(
      '--sys-prefix needs an active Python environment (VIRTUAL_ENV or CONDA_PREFIX); activate one, or use --user or --prefix DIR.'
    );
  }
  return join(prefix, 'share', 'jupyter');
}

/** jupyter_core's `envset`: set and not one of its false words. */
function envFlag(value: string | undefined): boolean {
  return (
    value !== undefined &&
    !['no', 'n', 'false', 'off', '0', '0.0'].includes(value.toLowerCase())
  );
}

/**
 * Jupyter's per-user config directory, as jupyter_core's `jupyter_config_dir()` computes it:
 * `JUPYTER_CONFIG_DIR`, else the platform's config directory under `JUPYTER_PLATFORM_DIRS`,
 * else `~/.jupyter` (on every platform). `JUPYTER_NO_CONFIG` (a throwaway directory in
 * jupyter_core) is not followed: saved connection profiles would vanish with the process.
 */
export function userConfigDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir()
): string {
  if (env.JUPYTER_CONFIG_DIR) {
    return env.JUPYTER_CONFIG_DIR;
  }
  if (envFlag(env.JUPYTER_PLATFORM_DIRS)) {
    // platformdirs.user_config_dir('jupyter', appauthor=False)
    if (platform === 'win32') {
      return join(
        env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'),
        'jupyter'
      );
    }
    if (platform === 'darwin') {
      return join(home, 'Library', 'Application Support', 'jupyter');
    }
    return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'jupyter');
  }
  return join(home, '.jupyter');
}
