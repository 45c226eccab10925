import net from 'node:net';

/** The ports this suite may use on this shared machine; other teams own the rest. */
export const PORT_RANGE = { first: 3200, last: 3299 } as const;

const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A free port in PORT_RANGE. Starts at a random offset so that parallel test
 * files (separate processes) rarely probe the same port at the same moment.
 */
export async function freePort(): Promise<number> {
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = PORT_RANGE.first + ((start + i) % size);
    if (handedOut.has(port)) continue;
    if (await isFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${PORT_RANGE.first}-${PORT_RANGE.last}`);
}
