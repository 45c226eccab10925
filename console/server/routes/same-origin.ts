/**
 * Why a state-changing request must be refused as cross-origin, or null when it
 * may proceed. SameSite=Strict is not enough: another port on the same host is
 * the same *site*, so its pages' requests carry the cookie.
 *
 * Browsers send Sec-Fetch-Site and Origin on every POST/DELETE; both must say
 * "this very origin". A request with neither comes from no browser (curl, a
 * script) and cannot ride a victim's cookie, so it may proceed.
 */
export function crossOriginRefusal(headers: Headers): string | null {
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') return `Sec-Fetch-Site is ${site}`;
  const origin = headers.get('origin');
  if (origin === null) return null;
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin ${origin} is not a URL`;
  }
  return host !== null && originHost === host ? null : `Origin ${origin} is not this site`;
}
