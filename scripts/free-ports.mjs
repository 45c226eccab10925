// Ports for a test run of its own, so that two clones can test side by side on one machine.
import net from 'node:net';

/** Whether `port` on 127.0.0.1 can be listened on now. */
export function isFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A random block of 101 ports in 20000-59999 whose first and last ports are free now. */
export async function freePortBlock() {
  for (;;) {
    const base = 20000 + 200 * Math.floor(Math.random() * 200);
    if ((await isFree(base)) && (await isFree(base + 100))) return base;
  }
}
