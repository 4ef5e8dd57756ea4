import type { InstallScope } from './protocol/jupyter-paths';
import { SearchbookError } from '../../contracts/errors';

/** The command line's help; the engines it names are the registry's, loaded only for the help. */
async function usage(): Promise<string> {
  const { ENGINES } = await import('./engines/engine-registry');
  const engines = new Intl.ListFormat('en', { type: 'conjunction' }).format(
    ENGINES.map(engine => engine.displayName)
  );
  return `searchbook: ${engines} in Jupyter

Usage:
  searchbook kernel <connection-file>     run the Jupyter kernel (Jupyter starts this)
  searchbook install [--user | --sys-prefix | --prefix DIR]
                                          install the kernelspec and the JupyterLab extension
                                          into Jupyter's data directory
  searchbook uninstall [--user | --sys-prefix | --prefix DIR]
  searchbook sandbox [options]            in a clone: local stand-ins of the engines above,
                                          with sample data (searchbook-sandbox; --help lists the options)
  searchbook --version
`;
}

class UsageError extends SearchbookError {
  override readonly name = 'UsageError';
  override readonly code = 'SEARCHBOOK_ERR_USAGE';
}

function parseScope(args: string[]): InstallScope | undefined {
  const [flag, value, ...rest] = args;
  if (rest.length) {
    throw new UsageError(`unexpected argument "${rest[0]}"`);
  }
  if (flag === undefined) {
    return undefined;
  }
  if (flag === '--user' && value === undefined) {
    return { kind: 'user' };
  }
  if (flag === '--sys-prefix' && value === undefined) {
    return { kind: 'sys-prefix' };
  }
  if (flag === '--prefix' && value) {
    return { kind: 'prefix', dir: value };
  }
  throw new UsageError(
    `use one of --user, --sys-prefix, --prefix DIR (got "${args.join(' ')}")`
  );
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'kernel': {
        if (args.length !== 1) {
          throw new UsageError(
            'kernel takes the connection file Jupyter passes'
          );
        }
        // Loaded here, not at the top, so other commands don't pay for the kernel's modules.
        const { runKernel } = await import('./kernel');
        // %set expressions run on worker threads of this same script.
        const { runExpressionsFrom } =
          await import('./console/expression-worker');
        runExpressionsFrom(process.argv[1] as string);
        try {
          await runKernel(args[0] as string);
        } catch (err) {
          // Jupyter waits on this process: one that cannot start must end, whatever it opened.
          process.stderr.write(`searchbook: ${(err as Error).message}\n`);
          process.exit(1);
        }
        return -1; // keeps running
      }
      case 'expression-worker': {
        const { runExpressionWorker } =
          await import('./console/expression-worker-main');
        runExpressionWorker();
        return -1; // keeps running, until the kernel ends the worker
      }
      case 'install':
      case 'uninstall': {
        const { dataDirFor } = await import('./protocol/jupyter-paths');
        const { installKernelspec, uninstallKernelspec } =
          await import('./install/kernelspec');
        const { installLabextension, uninstallLabextension } =
          await import('./install/labextension');
        const dataDir = dataDirFor(parseScope(args));
        if (command === 'install') {
          process.stdout.write(
            `Installed the searchbook kernelspec in ${await installKernelspec(dataDir)}\n`
          );
          process.stdout.write(
            `Installed the searchbook JupyterLab extension in ${await installLabextension(dataDir)}\n`
          );
        } else {
          process.stdout.write(
            `Removed ${await uninstallKernelspec(dataDir)}\n`
          );
          process.stdout.write(
            `Removed ${await uninstallLabextension(dataDir)}\n`
          );
        }
        return 0;
      }
      case 'sandbox': {
        const { runSandboxCommand } = await import('./sandbox-command');
        return await runSandboxCommand(args);
      }
      case '--version':
      case '-V': {
        const { PACKAGE_VERSION } = await import('./package-info');
        process.stdout.write(`${PACKAGE_VERSION}\n`);
        return 0;
      }
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(await usage());
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`searchbook: ${err.message}\n\n${await usage()}`);
      return 2;
    }
    process.stderr.write(`searchbook: ${(err as Error).message}\n`);
    return 1;
  }
}
