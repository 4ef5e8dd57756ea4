/**
 * `searchbook sandbox`: runs the sandbox engines' own command (`searchbook-sandbox`, of the
 * @searchbook/sandbox package a clone holds beside the product). The sandbox is found when
 * asked for, never imported, so the kernel and the wheel carry none of it; an installation
 * without it says where it is.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SearchbookError } from '../../contracts/errors';
import { PACKAGE_ROOT } from './package-info';

const SANDBOX_PACKAGE = '@searchbook/sandbox';

export class SandboxNotInstalled extends SearchbookError {
  override readonly name = 'SandboxNotInstalled';
  override readonly code = 'SEARCHBOOK_ERR_SANDBOX_NOT_INSTALLED';
}

type SandboxCommand = (argv: string[]) => Promise<number>;

/** The sandbox's command with `args`; resolves to its exit code once it has stopped. */
export async function runSandboxCommand(args: string[]): Promise<number> {
  const load = createRequire(join(PACKAGE_ROOT, 'package.json'));
  try {
    load.resolve(`${SANDBOX_PACKAGE}/package.json`);
  } catch {
    throw new SandboxNotInstalled(
      "the sandbox engines are not part of this installation: they come with a clone of searchbook's repository, where `npm start` starts them with JupyterLab and `npx searchbook-sandbox` alone"
    );
  }
  const loaded = load(`${SANDBOX_PACKAGE}/main`) as {
    sandboxCommand?: unknown;
  };
  if (typeof loaded.sandboxCommand !== 'function') {
    throw new SandboxNotInstalled(
      `${SANDBOX_PACKAGE} has no sandboxCommand: run npm install and npm run build in the clone`
    );
  }
  return (loaded.sandboxCommand as SandboxCommand)(args);
}
