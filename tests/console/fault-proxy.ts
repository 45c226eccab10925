import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'drop-after-processing'
  | 'timeout-after-processing'
  /** The connection is reset before the request reaches the API: nothing was done. */
  | 'reset-before-processing'
  /** The API's answer arrives, but only after `hangMs`. */
  | 'slow-answer'
  | 'http-503'
  /** 429 with Retry-After: 3. */
  | 'rate-limited-429'
  | 'in-progress-409'
  | 'garbage-200'
  | 'pass';

/**
 * An HTTP proxy in front of the real API that misbehaves on chosen attempts: it
 * can forward a request (so the API carries it out) and then lose the answer.
 */
export async function startFaultProxy(target: string, faults: Fault[], opts: { fallback?: Fault; hangMs?: number } = {}) {
  const seen: { idempotencyKey: string | undefined; authorization: string | undefined; body: string }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    seen.push({
      idempotencyKey: req.headers['x-service-idempotency'] as string | undefined,
      authorization: req.headers.authorization,
      body,
    });
    const fault = faults[seen.length - 1] ?? opts.fallback ?? 'pass';
    if (fault === 'reset-before-processing') return void req.socket.resetAndDestroy();
    if (fault === 'rate-limited-429') {
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' })
        .end('{"error":{"type":"rate_limit_error","code":"rate_limited","message":"Too many requests."}}');
    }
    if (fault === 'http-503') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
    if (fault === 'garbage-200') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"nonsense"}');
    if (fault === 'in-progress-409') {
      return void res
        .writeHead(409, { 'content-type': 'application/json' })
        .end('{"error":{"type":"idempotency_error","code":"idempotency_request_in_progress","message":"in progress"}}');
    }
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
        string,
        string
      >,
      body,
    });
    const text = await upstream.text();
    if (fault === 'drop-after-processing') return void req.socket.destroy();
    if (fault === 'timeout-after-processing') return void setTimeout(() => req.socket.destroy(), opts.hangMs ?? 2_000);
    if (fault === 'slow-answer') await new Promise((resolve) => setTimeout(resolve, opts.hangMs ?? 2_000));
    if (res.destroyed) return;
    const headers = Object.fromEntries(
      [...upstream.headers].filter(([k]) => k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding'),
    );
    res.writeHead(upstream.status, headers).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
