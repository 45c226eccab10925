// Runs before every page: security headers with a fresh CSP
// nonce, and an optimistic redirect to /login when there is no session cookie at
// all. The real check is verifySession() in the data layer.
import { NextResponse, type NextRequest } from 'next/server';
import { CONSOLE_PAGE_TREES } from './console/console-pages';

// Either name of the session cookie (console/server/session/session.ts: __Host- over https).
const SESSION_COOKIES = ['console_session', '__Host-console_session'];

// The API reference (app/docs/api): Redoc's styled-components write <style> tags and style
// attributes that carry no nonce, so that page alone allows inline styles (never inline scripts).
const API_REFERENCE = '/docs/api';

function contentSecurityPolicy(nonce: string, https: boolean, inlineStyles = false): string {
  const dev = process.env.NODE_ENV === 'development';
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? ` 'unsafe-eval'` : ''}`,
    inlineStyles ? `style-src 'self' 'unsafe-inline'` : `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isConsolePage = CONSOLE_PAGE_TREES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  let response: NextResponse;
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, request.nextUrl.protocol === 'https:', pathname === API_REFERENCE);

  if (isConsolePage && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    // nextUrl keeps the host the browser used (from the Host header), unlike a URL built from server settings.
    const login = request.nextUrl.clone();
    login.pathname = '/login';
    login.search = '';
    // The page the merchant was going to survives sign-in (the login page accepts only same-origin paths).
    login.searchParams.set('next', `${pathname}${request.nextUrl.search}`);
    response = NextResponse.redirect(login);
  } else {
    // Next reads the nonce from the request's CSP header and puts it on its own scripts.
    const headers = new Headers(request.headers);
    headers.set('content-security-policy', csp);
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set('content-security-policy', csp);
  response.headers.set('x-frame-options', 'DENY');
  response.headers.set('referrer-policy', 'no-referrer');
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  response.headers.set('cross-origin-opener-policy', 'same-origin');
  return response;
}

export const config = {
  // Pages only: not static assets, the payment API, nor the console's JSON routes (next.config.js gives those static headers).
  matcher: ['/((?!_next/static|_next/image|favicon.ico|v1/|api/).*)'],
};
