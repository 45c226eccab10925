/**
 * The client address behind the Next server: Next's own server appends the
 * socket's address to x-forwarded-for, so the last entry is the one no client
 * can forge. (A deployment behind more proxies would count hops from the right.)
 */
export function clientAddressFromHeaders(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  if (!forwarded) return 'unknown';
  const parts = forwarded.split(',').map((s) => s.trim()).filter(Boolean);
  return parts.at(-1) ?? 'unknown';
}
