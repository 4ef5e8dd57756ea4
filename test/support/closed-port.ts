import { connect } from 'node:net';

/**
 * A port on 127.0.0.1 that refuses connections now and for the rest of the run, for tests of
 * what users read when nothing listens.
 *
 * A port picked by `freePort()` is free only until someone binds it, and a run binds hundreds
 * (kernels, sandboxes, JupyterLab, real nodes). Ports below 1024 are bound only by explicit
 * choice, which nothing in this suite makes, so one found refusing stays refusing.
 */
export async function closedPort(): Promise<number> {
  for (const port of CANDIDATES) {
    if (await refuses(port)) {
      return port;
    }
  }
  throw new Error(
    `every one of ports ${CANDIDATES.join(', ')} on 127.0.0.1 accepts connections`
  );
}

// Ports no service of this machine is expected to hold: tcpmux, rje, echo-less low numbers.
const CANDIDATES = [1, 5, 11, 27, 47, 61, 83, 91, 97];

function refuses(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED')
    );
  });
}
