import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now, for a process that binds it a moment later (a kernel's
 * connection file, a real node, JupyterLab).
 *
 * It is picked below the kernel's ephemeral range: a port the OS hands out for `listen(0)` is
 * also one it hands out as the source port of the next outgoing connection, and under a full
 * test run (real nodes, browsers, thousands of requests) one of those took a kernel's port in
 * the few hundred milliseconds before the kernel bound it. Below the range only another
 * explicit bind can take it.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 64; attempt++) {
    const port = FLOOR + Math.floor(Math.random() * (low - FLOOR));
    if (await listensOn(port)) {
      return port;
    }
  }
  return osPicked();
}

const FLOOR = 20_000;

function ephemeralLow(): number {
  try {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
        .trim()
        .split(/\s+/)[0]
    );
    return Number.isInteger(low) && low > FLOOR + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function listensOn(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function osPicked(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port'))
      );
    });
  });
}
