import type http from 'node:http';

/**
 * The client address behind the Next server. Next sets x-forwarded-for to the
 * socket's address only when the request has none, and a proxy in front appends
 * the address it saw: either way the last entry is the nearest hop's view. A
 * client that talks to Next directly can forge it; the limiter's global ceiling
 * covers that case (see AuthFailureLimiter).
 */
export function clientAddressBehindNext(req: http.IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  const parts = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return parts.at(-1) ?? req.socket.remoteAddress ?? 'unknown';
}
