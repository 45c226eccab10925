import type http from 'node:http';
import net from 'node:net';

interface Connection {
  /** Requests on it not yet answered (more than one when pipelined). */
  busy: number;
  /** When its last answer ended (or it was opened). */
  idleSince: number;
  timer?: NodeJS.Timeout;
}

/**
 * Drains a server's keep-alive connections without resetting a request (a rolling deploy
 * under load). Closing a connection that looks idle races the client's next request, already
 * on the wire: the client gets ECONNRESET for a request that may have been a payout. So,
 * once draining: the server accepts no new connection; every request still arriving on an open
 * one is answered, with `Connection: close` (the caller sets it while `draining`), and the
 * connection ends after that answer; a connection with no request is closed only once it has
 * been idle for `idleMs` (longer than a busy client's gap between requests); at the grace
 * deadline whatever is left is closed.
 */
export function connectionDrain(server: http.Server, idleMs: number) {
  const connections = new Map<net.Socket, Connection>();
  let draining = false;
  let allClosed: (() => void) | undefined;

  const closeWhenIdle = (socket: net.Socket, c: Connection) => {
    clearTimeout(c.timer);
    const wait = Math.max(0, idleMs - (performance.now() - c.idleSince));
    // Timers run before the event loop reads sockets: after a busy stretch (a blocked loop), a
    // request may be waiting, unread, on a connection that looks idle. setImmediate runs after
    // that read, when its 'request' has been seen (busy > 0) and the connection is kept.
    c.timer = setTimeout(() => setImmediate(() => c.busy === 0 && socket.destroy()), wait);
    c.timer.unref();
  };

  server.on('connection', (socket: net.Socket) => {
    const c: Connection = { busy: 0, idleSince: performance.now() };
    connections.set(socket, c);
    if (draining) closeWhenIdle(socket, c);
    socket.once('close', () => {
      clearTimeout(c.timer);
      connections.delete(socket);
      if (draining && connections.size === 0) allClosed?.();
    });
  });

  return {
    get draining() {
      return draining;
    },
    /** For every request: its connection stays open until it is answered. */
    track(req: http.IncomingMessage, res: http.ServerResponse) {
      const socket = req.socket;
      const c = connections.get(socket);
      if (!c) return;
      c.busy++;
      clearTimeout(c.timer);
      res.once('close', () => {
        c.busy--;
        c.idleSince = performance.now();
        if (draining && c.busy === 0 && !socket.destroyed) closeWhenIdle(socket, c);
      });
    },
    /** Stops accepting and drains as above; resolves once every connection is closed (by the grace deadline at the latest). */
    async drain(graceMs: number) {
      draining = true;
      // net's close stops listening, at once: a connect after the signal is refused (nothing sent, the
      // client goes elsewhere); http's close would also close every idle connection, the race above.
      const stopped = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      for (const [socket, c] of connections) if (c.busy === 0) closeWhenIdle(socket, c);
      if (connections.size > 0) {
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([new Promise<void>((resolve) => (allClosed = resolve)), deadline]);
      }
      for (const socket of connections.keys()) socket.destroy();
      await stopped;
    },
  };
}
