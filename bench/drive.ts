import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { API_PATH } from '../testing/api-path';
import { DEMO_KEY } from '../testing/server-process';

export { signInToConsole as signIn } from '../testing/console-session';

export type Action = 'get_balance' | 'withdraw';

export interface Drive {
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** Where each request gets a fresh idempotency key, so that every withdrawal pays out. */
  uniqueKey?: 'header' | 'body';
}

const PAYOUT = { amount: 10_000, bank_code: 'BCA', account_number: '1234567890' };

/** A merchant server calling the API itself. */
export function apiDrive(action: Action): Drive {
  return {
    path: API_PATH,
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: action === 'withdraw' ? { action, ...PAYOUT } : { action },
    uniqueKey: action === 'withdraw' ? 'header' : undefined,
  };
}

/** The console's browser calling its proxy routes with a session cookie. */
export function consoleDrive(action: Action, cookie: string): Drive {
  return action === 'withdraw'
    ? { path: '/api/payouts', method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: PAYOUT, uniqueKey: 'body' }
    : { path: '/api/balance', method: 'GET', headers: { cookie } };
}

/** `setup` rewrites each request (a key of its own, another merchant); by default `d.uniqueKey` decides. */
export function drive(
  baseUrl: string,
  d: Drive,
  connections: number,
  seconds: number,
  setup?: (req: autocannon.Request) => autocannon.Request,
): Promise<autocannon.Result> {
  const body = d.body && JSON.stringify(d.body);
  const fresh =
    setup ??
    ((req: autocannon.Request) =>
      d.uniqueKey === 'header'
        ? { ...req, headers: { ...req.headers, 'x-service-idempotency': randomUUID() } }
        : { ...req, body: JSON.stringify({ ...d.body, idempotency_key: randomUUID() }) });
  return autocannon({
    url: baseUrl + d.path,
    connections,
    duration: seconds,
    method: d.method,
    headers: d.headers,
    body,
    requests: d.uniqueKey || setup ? [{ setupRequest: fresh }] : undefined,
  });
}

/** Seconds of load before a server's first measured run: JIT, connection pool and caches warm (hundreds of requests). */
export const WARM_UP_S = 1;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request at a time for `seconds`, timed with performance.now(): exact
 * service times, where autocannon's histogram rounds to whole milliseconds (too
 * coarse for a 2 ms target). Returns the p50 in ms.
 */
export async function sequentialP50(baseUrl: string, d: Drive, seconds: number): Promise<number> {
  const url = new URL(baseUrl + d.path);
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const body = d.uniqueKey === 'body' ? JSON.stringify({ ...d.body, idempotency_key: randomUUID() }) : d.body && JSON.stringify(d.body);
    const headers = d.uniqueKey === 'header' ? { ...d.headers, 'x-service-idempotency': randomUUID() } : d.headers;
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: d.method, headers, agent }, (res) => {
        res.resume().once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', reject).end(body);
    });
    times.push(performance.now() - started);
    if (status !== 200) throw new Error(`${d.method} ${d.path} answered ${status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
