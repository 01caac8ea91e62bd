import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768-60999), where the OS never hands a port to an outgoing
 * connection or to another process's listen(0): a port chosen here and bound a moment later is
 * rarely taken in between, which listen(0)-then-close could not promise under parallel tests.
 */
const FIRST = 20_000;
const COUNT = 12_000;
const handedOut = new Set<number>();

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free loopback port, never the same twice in one process. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = FIRST + randomInt(COUNT);
    if (handedOut.has(port) || !(await listens(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in ${FIRST}-${FIRST + COUNT - 1} after 100 tries`);
}
