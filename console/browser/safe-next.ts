// Where sign-in may send the merchant: a path on this site, never another origin.
const FALLBACK = '/dashboard';

/** `next` when it is a same-origin path ("/payouts/po_1?x=1"), else the dashboard. Refuses "//host", "/\\host", absolute URLs and control characters. */
export function safeNextPath(next: string | string[] | undefined | null): string {
  if (typeof next !== 'string' || next.length > 2000) return FALLBACK;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return FALLBACK;
  // Browsers drop tabs and newlines and read backslashes as slashes: "/\t/host" would leave the site.
  for (const ch of next) if (ch.charCodeAt(0) < 0x20 || ch === '\\') return FALLBACK;
  const base = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== base || url.pathname === '/login') return FALLBACK;
  return `${url.pathname}${url.search}${url.hash}`;
}
