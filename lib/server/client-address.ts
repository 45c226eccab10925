/**
 * The client address behind the Next server. Next sets x-forwarded-for to the
 * socket's address only when the request has none, and a proxy in front appends
 * the address it saw: either way the last entry is the nearest hop's view. A
 * client that talks to Next directly can forge it; the limiter's global ceiling
 * covers that case (see AuthFailureLimiter).
 */
export function clientAddressFromHeaders(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  if (!forwarded) return 'unknown';
  const parts = forwarded.split(',').map((s) => s.trim()).filter(Boolean);
  return parts.at(-1) ?? 'unknown';
}
