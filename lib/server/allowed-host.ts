import type { Env } from '../config/env';

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);
const isLoopbackName = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
/** `host[:port]` as a URL sees it (lower case, IPv6 in brackets), or undefined when it is anything more. */
function parseHost(value: string): URL | undefined {
  try {
    const url = new URL(`http://${value}`);
    return url.host === value.toLowerCase() && url.pathname === '/' && !url.username ? url : undefined;
  } catch {
    return undefined;
  }
}
const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** The origin of the address this server listens on: for links when no request's Host may be used. */
export function listeningOrigin(settings: Pick<Env, 'HOST' | 'PORT'>): string {
  return `http://${WILDCARD.has(settings.HOST) ? 'localhost' : bracketed(settings.HOST)}:${settings.PORT}`;
}

/**
 * What a request's Host header becomes before anything builds a link from it (checkout URLs,
 * the console's redirects, Next's request URL). A Host is kept only when it names a loopback
 * address, the address the server listens on, the host of PUBLIC_BASE_URL or an entry of
 * ALLOWED_HOSTS (`name` for any port, `name:port` for that one); any other, or none, is
 * replaced by PUBLIC_BASE_URL's host, else the listening address. A link then never carries
 * a host that a stranger typed (Host header injection).
 */
export function hostGuard(
  settings: Pick<Env, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL' | 'ALLOWED_HOSTS'>,
): (host: string | undefined) => string {
  const publicHost = settings.PUBLIC_BASE_URL ? new URL(settings.PUBLIC_BASE_URL).host : undefined;
  const fallback = publicHost ?? new URL(listeningOrigin(settings)).host;
  const names = new Set<string>();
  const exact = new Set<string>(publicHost ? [publicHost] : []);
  const listening = parseHost(bracketed(settings.HOST));
  if (listening && !WILDCARD.has(settings.HOST)) names.add(listening.hostname);
  for (const entry of settings.ALLOWED_HOSTS) {
    const url = parseHost(entry);
    if (url) (url.port ? exact : names).add(url.port ? url.host : url.hostname);
  }
  return (host) => {
    const url = host === undefined ? undefined : parseHost(host);
    if (!url) return fallback;
    return isLoopbackName(url.hostname) || names.has(url.hostname) || exact.has(url.host) ? url.host : fallback;
  };
}
