/** A fresh, empty Typesense sandbox on loopback for one official suite's run. */
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';

export interface SuiteSandbox {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * `port` 0 picks a free one; the Python and JavaScript suites hard-code 8108 and the key `xyz`
 * (what their CI gives the Typesense container), so they get exactly those.
 */
export async function startSuiteSandbox(
  version: string,
  apiKey: string,
  port = 0
): Promise<SuiteSandbox> {
  const sandbox = createTypesenseSandbox({ version, apiKey });
  let server: ListeningServer;
  try {
    server = await listen(sandbox.handler, { port });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `could not listen on 127.0.0.1:${port} for the sandbox (${why}); stop what uses that port and run again`
    );
  }
  return { url: server.url, apiKey, close: () => server.close() };
}
