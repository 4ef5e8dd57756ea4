import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE } from '../handlers/kernel-info';
import { PACKAGE_ROOT } from '../package-info';

export const KERNEL_NAME = 'searchbook';

/** How `searchbook install` starts the kernel: this Node.js running this checkout's entry script. */
export function checkoutKernelArgv(): string[] {
  // Absolute paths: Jupyter starts the kernel without the user's shell PATH.
  return [
    process.execPath,
    join(PACKAGE_ROOT, 'bin', 'searchbook.js'),
    'kernel',
    '{connection_file}'
  ];
}

export function kernelSpec(
  argv: string[] = checkoutKernelArgv()
): Record<string, unknown> {
  return {
    argv,
    display_name: 'searchbook',
    language: LANGUAGE.name,
    interrupt_mode: 'message',
    metadata: { debugger: false }
  };
}

/** Writes a kernelspec folder (kernel.json and the logos) at `dir`. */
export async function writeKernelspec(
  dir: string,
  argv?: string[]
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'kernel.json'),
    `${JSON.stringify(kernelSpec(argv), null, 2)}\n`
  );
  for (const logo of ['logo-32x32.png', 'logo-64x64.png', 'logo-svg.svg']) {
    await copyFile(join(PACKAGE_ROOT, 'kernel', 'logo', logo), join(dir, logo));
  }
}

export async function installKernelspec(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'kernels', KERNEL_NAME);
  await writeKernelspec(dir);
  return dir;
}

export async function uninstallKernelspec(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'kernels', KERNEL_NAME);
  await rm(dir, { recursive: true, force: true });
  return dir;
}
