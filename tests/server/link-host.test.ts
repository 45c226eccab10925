// Links never carry a foreign Host: PUBLIC_BASE_URL, else a loopback, listening or allowed Host, else the listening address.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/config/env';
import { createLogger } from '@/lib/log';
import { createAppServer, type AppServer, type NextHandler } from '@/lib/server/app-server';
import { hostGuard } from '@/lib/server/allowed-host';
import { startApiRuntime as startRuntime } from '@/scripts/roots/api-runtime';
import { freshDataDir } from '../../testing/pglite-template';
import type { JsonAnswer } from '../helpers/json-answer';

const DEMO = 'sk_test_linkHostLinkHostLinkHost0123456789ab';
let running: AppServer | undefined;
afterEach(async () => {
  await running?.shutdown().catch(() => {});
  running = undefined;
});

async function start(extra: Record<string, string> = {}, next?: NextHandler) {
  const dataDir = freshDataDir('link-host');
  const settings = parseEnv({ DATA_DIR: dataDir, DEMO_SECRET_KEY: DEMO, LOG_LEVEL: 'silent', ...extra });
  const runtime = await startRuntime(settings, createLogger({ level: 'silent' }));
  running = createAppServer({ runtime, next, shutdownGraceMs: 1000 });
  await running.listen(0, '127.0.0.1');
  return { runtime, port: (running.server.address() as AddressInfo).port };
}

/** One request with the Host header given (fetch would not send a Host of its choosing). */
function request(
  port: number,
  host: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: JsonAnswer }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: payload ? 'POST' : 'GET',
        headers: { host, authorization: `Bearer ${DEMO}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res
          .on('data', (c) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject).end(payload);
  });
}
const checkoutUrl = async (port: number, host: string) => {
  const res = await request(port, host, '/v1/index.php', { action: 'create_checkout_session', amount: 5_000 });
  expect(res.status).toBe(200);
  return res.body.url as string;
};

describe('checkout links and the Host header', () => {
  it('a foreign Host (no PUBLIC_BASE_URL, loopback HOST) gets the listening address, never its own', async () => {
    const { port } = await start();
    expect(await checkoutUrl(port, 'evil.example')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/checkout/cs_`));
    expect(await checkoutUrl(port, 'evil.example:443')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/checkout/cs_`));
    expect(await checkoutUrl(port, '127.0.0.1@evil.example')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/checkout/cs_`));
  });

  it('a loopback Host is kept (the browser on this machine gets links it can open)', async () => {
    const { port } = await start();
    expect(await checkoutUrl(port, `localhost:${port}`)).toMatch(new RegExp(`^http://localhost:${port}/checkout/cs_`));
    expect(await checkoutUrl(port, `[::1]:${port}`)).toMatch(new RegExp(`^http://\\[::1\\]:${port}/checkout/cs_`));
  });

  it('ALLOWED_HOSTS extends the list; PUBLIC_BASE_URL wins over any Host', async () => {
    const allowed = await start({ ALLOWED_HOSTS: 'pay.internal' });
    expect(await checkoutUrl(allowed.port, 'pay.internal:8080')).toMatch(/^http:\/\/pay\.internal:8080\/checkout\/cs_/);
    expect(await checkoutUrl(allowed.port, 'other.internal')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${allowed.port}/`));
    await running!.shutdown();
    const pub = await start({ PUBLIC_BASE_URL: 'https://pay.example.com' });
    expect(await checkoutUrl(pub.port, 'evil.example')).toMatch(/^https:\/\/pay\.example\.com\/checkout\/cs_/);
  });

  it('the console (Next) sees the guarded Host too, so its redirects and URLs carry no foreign host', async () => {
    const seen: Array<string | undefined> = [];
    const next: NextHandler = async (req, res) => {
      seen.push(req.headers.host, req.headers['x-forwarded-host'] as string | undefined);
      res.writeHead(200).end();
    };
    const { port } = await start({}, next);
    await request(port, 'evil.example', '/dashboard');
    await new Promise<void>((resolve, reject) =>
      http
        .get(
          { host: '127.0.0.1', port, path: '/login', headers: { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example' } },
          (res) => res.resume().on('end', resolve),
        )
        .on('error', reject),
    );
    expect(seen).toEqual([`127.0.0.1:${port}`, undefined, `localhost:${port}`, `127.0.0.1:${port}`]);
  });
});

describe('hostGuard', () => {
  const settings = (extra: Record<string, string> = {}) => parseEnv({ HOST: '10.0.0.5', PORT: '8080', ...extra });
  it.each([
    ['10.0.0.5:8080', '10.0.0.5:8080'], // the listening address
    ['127.0.0.2', '127.0.0.2'],
    ['LOCALHOST:3000', 'localhost:3000'],
    ['evil.example', '10.0.0.5:8080'],
    ['evil.example/x', '10.0.0.5:8080'],
    ['', '10.0.0.5:8080'],
    [undefined, '10.0.0.5:8080'],
  ])('HOST=10.0.0.5: %j -> %j', (host, kept) => {
    expect(hostGuard(settings())(host)).toBe(kept);
  });

  it('on every interface (0.0.0.0) only loopback and allowed hosts are kept; the fallback is localhost', () => {
    const guard = hostGuard(settings({ HOST: '0.0.0.0', ALLOWED_HOSTS: 'pay.internal:8080, api.internal' }));
    expect(guard('0.0.0.0:8080')).toBe('localhost:8080');
    expect(guard('pay.internal:8080')).toBe('pay.internal:8080');
    expect(guard('pay.internal:9090')).toBe('localhost:8080');
    expect(guard('api.internal:1')).toBe('api.internal:1');
  });
});

describe('the link origin is built only by the actions that hand out links', () => {
  it('get_balance answers whatever the request URL; create_checkout_session names the bad Host', async () => {
    const dataDir = freshDataDir('link-lazy');
    const runtime = await startRuntime(
      parseEnv({ DATA_DIR: dataDir, DEMO_SECRET_KEY: DEMO, LOG_LEVEL: 'silent' }),
      createLogger({ level: 'silent' }),
    );
    try {
      const call = (body: unknown) =>
        runtime.core({
          method: 'POST',
          url: 'http://bad host/v1/index.php',
          headers: new Headers({ authorization: `Bearer ${DEMO}`, 'content-type': 'application/json' }),
          readBody: async () => Buffer.from(JSON.stringify(body)),
        });
      expect((await call({ action: 'get_balance' })).status).toBe(200);
      const refused = await call({ action: 'create_checkout_session', amount: 5_000 });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error.param).toBe('host');
    } finally {
      await runtime.stop();
    }
  });
});
