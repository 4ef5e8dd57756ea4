/**
 * The packages the bundled kernel still loads from node_modules: the native addons (zeromq for
 * the Jupyter sockets, @napi-rs/keyring for saved secrets), which esbuild cannot inline. Only
 * their runtime files are copied, and only the binaries built for this platform.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../kernel/src/package-info';

/** What esbuild leaves as `require('...')` for node_modules to answer. */
export const NATIVE_PACKAGES = ['zeromq', '@napi-rs/keyring'] as const;

const SOURCE = join(PACKAGE_ROOT, 'node_modules');

/** Runtime files only: code, package.json and licences; no sources, maps, typings or build scripts. */
function isRuntimeFile(path: string): boolean {
  const parts = path.split(sep);
  const name = parts[parts.length - 1] ?? '';
  // A nested node_modules holds build-time packages (zeromq's node-addon-api: C++ headers).
  if (parts.includes('node_modules') || name.startsWith('.')) {
    return false;
  }
  if (/^licen[cs]e/i.test(name)) {
    return true;
  }
  if (
    name.endsWith('.map') ||
    name.endsWith('.d.ts') ||
    name === 'tsconfig.json'
  ) {
    return false;
  }
  if (
    /^(src|script|scripts|test|tests|deps|nodeAPIInclude)$/.test(parts[0] ?? '')
  ) {
    return false;
  }
  return (
    name.endsWith('.js') || name.endsWith('.node') || name === 'package.json'
  );
}

async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter(e => e.isFile())
    .map(e => relative(dir, join(e.parentPath, e.name)));
}

async function copyFiles(
  pkg: string,
  target: string,
  keep: (path: string) => boolean
): Promise<string[]> {
  const from = join(SOURCE, pkg);
  const copied: string[] = [];
  for (const path of await filesOf(from)) {
    if (!keep(path)) {
      continue;
    }
    await mkdir(dirname(join(target, pkg, path)), { recursive: true });
    await cp(join(from, path), join(target, pkg, path));
    copied.push(join(pkg, path));
  }
  return copied;
}

/** The C library zeromq's loader (cmake-ts) matches its prebuilt addons by. */
function libc(): string {
  if (process.platform === 'linux') {
    return existsSync('/etc/alpine-release') ? 'musl' : 'glibc';
  }
  return process.platform === 'darwin'
    ? 'libc'
    : process.platform === 'win32'
      ? 'msvc'
      : 'unknown';
}

/**
 * zeromq's prebuilt addons for every platform sit in build/, listed in build/manifest.json
 * (key: the build's configuration as JSON, value: the addon's path). Keeps this platform's
 * entries, in the manifest and on disk.
 */
async function copyZeromq(target: string): Promise<string[]> {
  const manifest = JSON.parse(
    await readFile(join(SOURCE, 'zeromq', 'build', 'manifest.json'), 'utf8')
  ) as Record<string, string>;
  const here = Object.entries(manifest).filter(([key]) => {
    const config = JSON.parse(key) as {
      os?: string;
      arch?: string;
      libc?: string;
    };
    return (
      config.os === process.platform &&
      config.arch === process.arch &&
      config.libc === libc()
    );
  });
  if (here.length === 0) {
    throw new Error(
      `zeromq has no prebuilt addon for ${process.platform} ${process.arch} ${libc()}`
    );
  }
  const addons = new Set(
    here.map(([, path]) => join('build', path.replaceAll('\\', '/')))
  );
  const copied = await copyFiles('zeromq', target, path =>
    path.startsWith(`build${sep}`) ? addons.has(path) : isRuntimeFile(path)
  );
  await writeFile(
    join(target, 'zeromq', 'build', 'manifest.json'),
    JSON.stringify(Object.fromEntries(here))
  );
  // zeromq's only runtime dependency is cmake-ts's addon loader (node-addon-api is C++ headers).
  copied.push(
    ...(await copyFiles(
      'cmake-ts',
      target,
      path =>
        path === 'package.json' ||
        path === join('build', 'loader.js') ||
        /^licen[cs]e/i.test(path)
    ))
  );
  return copied;
}

/** @napi-rs/keyring loads its binary from the one optional package npm installed for this platform. */
async function copyKeyring(target: string): Promise<string[]> {
  const pkg = JSON.parse(
    await readFile(join(SOURCE, '@napi-rs', 'keyring', 'package.json'), 'utf8')
  ) as { optionalDependencies?: Record<string, string> };
  const platformPackages = Object.keys(pkg.optionalDependencies ?? {}).filter(
    name => existsSync(join(SOURCE, name, 'package.json'))
  );
  if (platformPackages.length !== 1) {
    throw new Error(
      `expected one installed @napi-rs/keyring binary package, found: ${platformPackages.join(', ') || 'none'}`
    );
  }
  const copied = await copyFiles(
    '@napi-rs/keyring',
    target,
    path => isRuntimeFile(path) && !path.startsWith('keytar')
  );
  copied.push(
    ...(await copyFiles(platformPackages[0] as string, target, isRuntimeFile))
  );
  return copied;
}

/** Copies the native packages into `target` (a node_modules folder); returns the files copied. */
export async function copyNativeAddons(target: string): Promise<string[]> {
  return [...(await copyZeromq(target)), ...(await copyKeyring(target))];
}
