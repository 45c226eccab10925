import { describe, expect, it } from 'vitest';
import { crossOriginRefusal } from '@/console/server/routes/same-origin';

const h = (headers: Record<string, string>) => new Headers({ host: '127.0.0.1:3000', ...headers });

describe('crossOriginRefusal', () => {
  it.each([
    ['same origin', { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }],
    ['no browser headers (curl, scripts)', {}],
    ['an older browser without Sec-Fetch-Site', { origin: 'http://127.0.0.1:3000' }],
  ])('lets %s through', (_name, headers) => {
    expect(crossOriginRefusal(h(headers))).toBeNull();
  });

  it.each([
    ['another port on the same host (same site)', { origin: 'http://127.0.0.1:3001', 'sec-fetch-site': 'same-site' }],
    ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['a forged Origin with a same-origin Sec-Fetch-Site', { origin: 'http://127.0.0.1:3001', 'sec-fetch-site': 'same-origin' }],
    ['an opaque origin', { origin: 'null' }],
    ['a user-typed navigation', { 'sec-fetch-site': 'none' }],
  ])('refuses %s', (_name, headers) => {
    expect(crossOriginRefusal(h(headers))).toMatch(/.+/);
  });
});
