import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE } from '../handlers/kernel-info';
import { PACKAGE_ROOT } from '../package-info';

export const KERNEL_NAME = 'searchbook';

export function kernelSpec(): Record<string, unknown> {
  return {
    // Absolute paths: Jupyter starts the kernel without the user's shell PATH.
    argv: [process.execPath, join(PACKAGE_ROOT, 'bin', 'searchbook.js'), 'kernel', '{connection_file}'],
    display_name: 'searchbook',
    language: LANGUAGE.name,
    interrupt_mode: 'message',
    metadata: { debugger: false },
  };
}

export async function installKernelspec(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'kernels', KERNEL_NAME);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'kernel.json'), `${JSON.stringify(kernelSpec(), null, 2)}\n`);
  for (const logo of ['logo-32x32.png', 'logo-64x64.png', 'logo-svg.svg']) {
    await copyFile(join(PACKAGE_ROOT, 'kernel', 'logo', logo), join(dir, logo));
  }
  return dir;
}

export async function uninstallKernelspec(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'kernels', KERNEL_NAME);
  await rm(dir, { recursive: true, force: true });
  return dir;
}
