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
