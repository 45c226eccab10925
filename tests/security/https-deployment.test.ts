// Behind TLS (an https PUBLIC_BASE_URL): the console cookie is __Host- and Secure, every answer
// carries HSTS, and checkout links use the public address, never the request's Host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../helpers/api-server';
import { ensureNextBuild } from '../../testing/next-build';
import { DEMO_KEY, ServerProcess } from '../../testing/server-process';

const PUBLIC = 'https://pay.example.test';

describe('an https deployment', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({ kind: 'next', distDir: await ensureNextBuild(), env: { PUBLIC_BASE_URL: PUBLIC } });
    await server.start();
  }, 300_000);
  afterAll(() => server?.stop());

  it('names the session cookie __Host-console_session (Secure, Path=/, no Domain) and sends HSTS', async () => {
    const res = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secretKey: DEMO_KEY }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-console_session=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);
    const balance = await fetch(`${server.url}/api/balance`, { headers: { cookie: cookie!.split(';')[0]! } });
    expect(balance.status).toBe(200);
  });

  it('builds checkout links from PUBLIC_BASE_URL whatever Host the request carried', async () => {
    const res = await callApi(server.url, DEMO_KEY, { action: 'create_checkout_session', amount: 5_000 });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${PUBLIC}/checkout/cs_`));
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});
