import type http from 'node:http';

/**
 * The client's address. With no trusted proxy (`hops` 0, the default) it is the
 * socket's peer, and X-Forwarded-For is ignored: anyone can write that header.
 * Behind `hops` proxies that each append the address they saw, the client is the
 * entry `hops` places from the right of X-Forwarded-For plus the socket address;
 * entries further left were written by the client and are not believed.
 */
export function clientAddress(req: http.IncomingMessage, hops: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (hops === 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

/** The header the app server sets for Next's console routes (replacing any the client sent). */
export const CLIENT_ADDRESS_HEADER = 'x-client-address';

/**
 * The client's address where Next's own server (`next start`) fronts the console: it sets
 * X-Forwarded-For to the socket's peer only when the request carries none, and appends nothing.
 * Behind `hops` proxies the client is the entry the nearest one appended (`hops` places from the
 * right, counting that one as the first); with none (0) only the last entry is there to take, and a
 * browser reaching Next directly can write it, so a console served that way belongs behind a proxy.
 */
export function forwardedClientAddress(forwardedFor: string | null, hops: number): string {
  const chain = (forwardedFor ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return chain[Math.max(0, chain.length - Math.max(hops, 1))] ?? 'unknown';
}
