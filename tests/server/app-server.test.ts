// The process's one server: health, readiness, metrics, and a graceful SIGTERM.
import http, { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/config/env';
import { createLogger } from '@/lib/log';
import { createAppServer, type AppServer, type NextHandler } from '@/lib/server/app-server';
import { startApiRuntime as startRuntime, type ApiRuntime as Runtime } from '@/scripts/roots/api-runtime';
import { buildOpenApiDocument } from '@/lib/openapi';
import { callApi, startTestApi, withdrawal } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';
import { freshDataDir } from '../../testing/pglite-template';

const DEMO = 'sk_test_appServerAppServerAppServer0123456789';
const TOKEN = 'metrics-token-0123456789';

let running: { app: AppServer; runtime: Runtime } | undefined;
afterEach(async () => {
  await running?.app.shutdown().catch(() => {});
  running = undefined;
});

async function start(next?: NextHandler, graceMs = 5_000, https = false, drainIdleMs?: number) {
  const dataDir = freshDataDir('app-server');
  const settings = parseEnv({ DATA_DIR: dataDir, DEMO_SECRET_KEY: DEMO, LOG_LEVEL: 'silent', AUTH_FAILURES_PER_MINUTE: '1000' });
  const runtime = await startRuntime(settings, createLogger({ level: 'silent' }));
  const app = createAppServer({ runtime, next, metricsToken: TOKEN, shutdownGraceMs: graceMs, https, drainIdleMs });
  await app.listen(0, '127.0.0.1');
  running = { app, runtime };
  return { app, runtime, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** A console page that takes its time: stands in for a slow request in flight. `arrived` settles once a request reached it. */
function slowPage(ms: number): { handler: NextHandler; arrived: Promise<void> } {
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const handler: NextHandler = async (_req: http.IncomingMessage, res: http.ServerResponse) => {
    reached();
    await new Promise((r) => setTimeout(r, ms));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('slow page');
  };
  return { handler, arrived };
}

describe('health and readiness', () => {
  it('/healthz is up; /readyz is ready while the database answers and 503 once it does not', async () => {
    const { url, runtime } = await start();
    expect((await fetch(url + '/healthz')).status).toBe(200);
    const ready = await fetch(url + '/readyz');
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);

    await runtime.db.close(); // the database goes away under the server
    const down = await fetch(url + '/readyz');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
  });
});

describe('transport', () => {
  it('sends Strict-Transport-Security on every answer when the public address is https, and not otherwise', async () => {
    const { url, app } = await start(undefined, 1000, true);
    for (const res of [await fetch(url + '/healthz'), await callApi(url, DEMO, { action: 'get_balance' })]) {
      expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    }
    await app.shutdown();
    const plain = await start();
    expect((await fetch(plain.url + '/healthz')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('metrics', () => {
  it('needs the token, and counts what was sent: requests by action and status, replays, 401s', async () => {
    const { url } = await start();
    expect((await fetch(url + '/metrics')).status).toBe(401);
    expect((await fetch(url + '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);

    for (let i = 0; i < 3; i++) await callApi(url, DEMO, { action: 'get_balance' });
    await callApi(url, DEMO, withdrawal(), { idempotencyKey: 'metrics-1' });
    await callApi(url, DEMO, withdrawal(), { idempotencyKey: 'metrics-1' }); // replay
    for (let i = 0; i < 2; i++) await callApi(url, 'sk_test_unknownUnknownUnknownUnknown0123', { action: 'get_balance' });

    const res = await fetch(url + '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('payments_api_requests_total{action="get_balance",status="200"} 3');
    expect(text).toContain('payments_api_requests_total{action="withdraw",status="200"} 2');
    expect(text).toContain('payments_api_requests_total{action="-",status="401"} 2');
    expect(text).toContain('payments_api_idempotent_replays_total 1');
    expect(text).toContain('payments_api_auth_failures_total 2');
    expect(text).toContain('payments_api_request_duration_seconds_count{action="get_balance"} 3');
    expect(text).toMatch(/payments_settlement_backlog \d+/);
    expect(text).toMatch(/payments_db_pool_connections\{state="in_use"\} \d+/);
    expect(text).toMatch(/payments_process_resident_memory_bytes \d+/);
  });

  it('is not served without a token configured', async () => {
    // A copy of the migrated template, as start() uses: a database made from nothing spent 20 s in initdb here.
    const dataDir = freshDataDir('app-server');
    const runtime = await startRuntime(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger({ level: 'silent' }));
    const app = createAppServer({ runtime, shutdownGraceMs: 1000 });
    running = { app, runtime };
    await app.listen(0, '127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/metrics`);
    expect(res.status).toBe(404);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight (telling it to close its connection), refuses new connections (so /readyz fails), then closes the runtime', async () => {
    const slow = slowPage(400);
    const { app, url, runtime } = await start(slow.handler);
    const inFlight = fetch(url + '/slow');
    await slow.arrived; // the request has reached the server (a fixed 100 ms was not always enough on a loaded machine)
    const stopped = app.shutdown();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('slow page');
    expect(res.headers.get('connection')).toBe('close');
    await stopped;
    await expect(fetch(url + '/readyz')).rejects.toThrow();
    await expect(runtime.db.query('SELECT 1')).rejects.toThrow(); // the pool is closed
    running = undefined;
  });

  /** One request on the agent's one connection: status, Connection header, and whether it went on the connection already open. */
  const get = (agent: http.Agent, url: string) =>
    new Promise<{ status: number; connection?: string; reused: boolean }>((resolve, reject) => {
      const req = httpGet(url, { agent }, (res) => {
        res.resume().on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket }));
      });
      req.on('error', reject);
    });

  it('answers a request that arrives on a kept-alive connection after SIGTERM (Connection: close), and /readyz says 503 there', async () => {
    const { app, url } = await start(undefined, 5_000, false, 1_000);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(agent, url + '/healthz')).toMatchObject({ status: 200, reused: false });
    const stopped = app.shutdown();
    await new Promise((r) => setTimeout(r, 100)); // the client's next request, well after the signal
    expect(await get(agent, url + '/readyz')).toEqual({ status: 503, connection: 'close', reused: true });
    await stopped;
    running = undefined;
  });

  it('closes a kept-alive connection with no request only after it stayed idle for the drain time', async () => {
    const { app, url } = await start(undefined, 5_000, false, 400);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await get(agent, url + '/healthz');
    await new Promise((r) => setImmediate(r)); // the socket is back in the agent's free list
    const socket = Object.values(agent.freeSockets).flat()[0]!;
    const closedAt = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    const t = performance.now();
    await app.shutdown();
    expect((await closedAt) - t).toBeGreaterThanOrEqual(350);
    running = undefined;
  });

  it('closes requests that outlive the grace period', async () => {
    const slow = slowPage(60_000);
    const { app, url } = await start(slow.handler, 200);
    const hung = fetch(url + '/hung').then(
      () => 'answered',
      () => 'closed',
    );
    await slow.arrived; // in flight: a request refused at the door would read 'closed' too
    const t = performance.now();
    await app.shutdown();
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(await hung).toBe('closed');
    running = undefined;
  });
});

describe('the console behind the server', () => {
  it('every answer Next gives carries a request-id, the same one the route sees for its log lines; a client cannot choose it', async () => {
    const seen: string[] = [];
    const next: NextHandler = async (req, res) => {
      seen.push(String(req.headers['request-id']));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('page');
    };
    const { url } = await start(next);
    const first = await fetch(url + '/dashboard');
    const second = await fetch(url + '/api/balance', { headers: { 'request-id': 'req_chosenByTheClient' } });
    const ids = [first.headers.get('request-id'), second.headers.get('request-id')];
    expect(ids).toEqual(seen);
    expect(ids.every((id) => /^req_[0-9A-Za-z]{12}[0-9a-z]{8}$/.test(id!))).toBe(true);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('the test API is this server', () => {
  it('startTestApi serves through createAppServer: health, readiness and the OpenAPI document answer as in production', async () => {
    const api = await startTestApi(await pgliteBackend.open());
    try {
      expect((await fetch(api.url + '/healthz')).status).toBe(200);
      expect((await fetch(api.url + '/readyz')).status).toBe(200);
      expect((await fetch(api.url + '/v1/openapi.json')).status).toBe(200);
      expect((await api.call({ action: 'get_balance' })).headers.get('request-id')).toMatch(/^req_/);
    } finally {
      await api.close();
      await api.db.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('GET /v1/openapi.json serves the document built from the contract; other methods are 405', async () => {
    const { url } = await start();
    const res = await fetch(url + '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // Its server is where this one listens (PUBLIC_BASE_URL when set), never a request's Host.
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(url))));
    const post = await fetch(url + '/v1/openapi.json', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
