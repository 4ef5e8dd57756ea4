/**
 * `searchbook-sandbox` (the package's bin, which `npm start` runs): both sandbox engines in the
 * foreground, how to connect printed, stopped cleanly on Ctrl-C (SIGINT) or SIGTERM.
 */
import { rename, writeFile } from 'node:fs/promises';
import { startSandbox, type SandboxOptions } from './sandbox';

export const SANDBOX_USAGE = `Usage: searchbook-sandbox [options]

  --es-port N          Elasticsearch stand-in port (default 9200; 0 picks a free port)
  --ts-port N          Typesense stand-in port (default 8108; 0 picks a free port)
  --tls                serve HTTPS with a generated CA (its file is printed)
  --data DIR           directory for the CA file (default: a temporary directory)
  --es-version V       8.15.0 (default) or 7.17.0
  --ts-version V       26.0 to 30.0 (default 29.0)
  --es-password P      password of the "elastic" user (default sandbox-password)
  --ts-api-key K       Typesense admin API key (default sandbox-api-key)
  --no-security        Elasticsearch without authentication
  --addresses FILE     once both listen, write their addresses to FILE as shell
                       assignments (SEARCHBOOK_ES_URL=..., SEARCHBOOK_TYPESENSE_URL=...)
`;

export class SandboxUsageError extends Error {}

export function parseSandboxArgs(
  argv: string[]
): SandboxOptions & { addressesFile?: string } {
  const opts: SandboxOptions & { addressesFile?: string } = {
    esPort: 9200,
    tsPort: 8108,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: 'sandbox-password',
    tsApiKey: 'sandbox-api-key',
    security: true
  };
  const args = [...argv];
  while (args.length > 0) {
    const raw = args.shift() as string;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    const inline =
      raw.startsWith('--') && eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = (): string => {
      const v = inline ?? args.shift();
      if (v === undefined || v === '') {
        throw new SandboxUsageError(`${flag} needs a value`);
      }
      return v;
    };
    const port = (): number => {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        throw new SandboxUsageError(
          `${flag}: "${v}" is not a port number (0 to 65535)`
        );
      }
      return n;
    };
    switch (flag) {
      case '--es-port':
        opts.esPort = port();
        break;
      case '--ts-port':
        opts.tsPort = port();
        break;
      case '--tls':
        opts.tls = true;
        break;
      case '--data':
        opts.dataDir = value();
        break;
      case '--es-version':
        opts.esVersion = value();
        break;
      case '--ts-version':
        opts.tsVersion = value();
        break;
      case '--es-password':
        opts.esPassword = value();
        break;
      case '--ts-api-key':
        opts.tsApiKey = value();
        break;
      case '--no-security':
        opts.security = false;
        break;
      case '--addresses':
        opts.addressesFile = value();
        break;
      default:
        throw new SandboxUsageError(
          `unknown option "${raw}"\n\n${SANDBOX_USAGE}`
        );
    }
  }
  if (!/^[78]\.\d+(\.\d+)?$/.test(opts.esVersion)) {
    throw new SandboxUsageError(
      `--es-version: "${opts.esVersion}" is not 7.x or 8.x (for example 8.15.0 or 7.17.0)`
    );
  }
  return opts;
}

export async function sandboxMain(
  argv: string[],
  out: (line: string) => void = l => process.stdout.write(l + '\n')
): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(SANDBOX_USAGE);
    return;
  }
  const { addressesFile, ...opts } = parseSandboxArgs(argv);
  out(
    `searchbook-sandbox: Elasticsearch ${opts.esVersion} (security ${opts.security ? 'on' : 'off'}${opts.tls ? ', HTTPS' : ''}), Typesense ${opts.tsVersion}`
  );
  const running = await startSandbox({
    ...opts,
    log: l => out(`  ${l}`),
    ...(addressesFile
      ? {
          onListening: async ({ esUrl, tsUrl }) => {
            // Whole or not at all: `npm start` reads it as soon as it appears, and starts
            // JupyterLab while the sample data loads.
            await writeFile(
              `${addressesFile}.partial`,
              `SEARCHBOOK_ES_URL=${esUrl}\nSEARCHBOOK_TYPESENSE_URL=${tsUrl}\n`
            );
            await rename(`${addressesFile}.partial`, addressesFile);
          }
        }
      : {})
  });
  const esAuth = opts.security
    ? ` auth=basic user=elastic password=\${env:ES_PASSWORD}`
    : ' auth=none';
  out('');
  out(
    `Elasticsearch  ${running.esUrl}${opts.security ? `   user elastic, password ${opts.esPassword}` : '   (no authentication)'}`
  );
  out(`Typesense      ${running.tsUrl}   admin API key ${opts.tsApiKey}`);
  if (running.caFile) {
    out(`CA certificate ${running.caFile}`);
  }
  out('');
  out('In the shell that starts Jupyter:');
  out(
    `  export ${opts.security ? `ES_PASSWORD='${opts.esPassword}' ` : ''}TYPESENSE_API_KEY='${opts.tsApiKey}'`
  );
  out('Then in a notebook cell:');
  out(`  %connect elasticsearch ${running.esUrl}${esAuth}`);
  out(`  %connect typesense ${running.tsUrl} key=\${env:TYPESENSE_API_KEY}`);
  out('');
  out('Press Ctrl-C to stop.');

  await new Promise<void>(resolve => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      out('stopping sandbox...');
      running.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The bin's whole run: the exit code, with a usage mistake and a failure told on stderr. */
export async function sandboxCommand(argv: string[]): Promise<number> {
  try {
    await sandboxMain(argv);
    return 0;
  } catch (err) {
    process.stderr.write(`searchbook-sandbox: ${(err as Error).message}\n`);
    return err instanceof SandboxUsageError ? 2 : 1;
  }
}
