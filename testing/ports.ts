import net from 'node:net';

/**
 * The ports this run may use. `npm test` picks a free block of its own and passes
 * it as TEST_PORT_BASE, so that two clones can test side by side on one machine;
 * a bare `vitest run` uses 3200-3299.
 */
const base = Number(process.env.TEST_PORT_BASE ?? 3200);
export const PORT_RANGE = { first: base, last: base + 99 } as const;

const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * This process's share of PORT_RANGE. Parallel test files run in separate
 * processes: if two of them probed the same free port, both spawned a server on
 * it, and the loser's readiness probe was answered by the winner's server, the
 * loser's tests would talk to the wrong server. Each vitest worker (VITEST_POOL_ID
 * 1..TEST_WORKERS) therefore gets its own slice; anything else uses the whole range.
 */
/** Test files run at once (vitest.config.mts reads it from here): two cores, two files. */
export const TEST_WORKERS = 2;
function myRange(): { first: number; size: number } {
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1 || pool > TEST_WORKERS) return { first: PORT_RANGE.first, size };
  const slice = Math.floor(size / TEST_WORKERS);
  return { first: PORT_RANGE.first + (pool - 1) * slice, size: slice };
}

/** A free port in this process's slice of PORT_RANGE, from a random offset. */
export async function freePort(): Promise<number> {
  const { first, size } = myRange();
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = first + ((start + i) % size);
    if (handedOut.has(port)) continue;
    if (await isFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${first}-${first + size - 1}`);
}
