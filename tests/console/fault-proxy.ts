import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'drop-after-processing' | 'timeout-after-processing' | 'http-503' | 'in-progress-409' | 'garbage-200' | 'pass';

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
    seen.push({ idempotencyKey: req.headers['x-service-idempotency'] as string | undefined, authorization: req.headers.authorization, body });
    const fault = faults[seen.length - 1] ?? opts.fallback ?? 'pass';
    if (fault === 'http-503') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
    if (fault === 'garbage-200') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"nonsense"}');
    if (fault === 'in-progress-409') {
      return void res
        .writeHead(409, { 'content-type': 'application/json' })
        .end('{"error":{"type":"idempotency_error","code":"idempotency_request_in_progress","message":"in progress"}}');
    }
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>,
      body,
    });
    const text = await upstream.text();
    if (fault === 'drop-after-processing') return void req.socket.destroy();
    if (fault === 'timeout-after-processing') return void setTimeout(() => req.socket.destroy(), opts.hangMs ?? 2_000);
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers)).end(text);
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
