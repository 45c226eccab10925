import http from 'node:http';
import { Readable } from 'node:stream';
import type { PaymentApi } from '../payments/payment-api';

/**
 * Serves a Request -> Response function on node:http: the standalone API server
 * and the integration tests use it. Bodies stream both ways.
 */
export function createNodeServer(api: PaymentApi): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: 'half',
      } as RequestInit);
      const response = await api(request, { clientAddress: req.socket.remoteAddress ?? 'unknown' });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return res.end();
      const body = Buffer.from(await response.arrayBuffer());
      res.end(body);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"type":"api_error","code":"internal_error","message":"An internal error occurred."}}');
    }
  });
}

/** Routes only the API path to the payment core; anything else is a JSON 404. */
export function mountAtApiPath(api: PaymentApi): PaymentApi {
  return async (req, meta) => {
    if (new URL(req.url).pathname === '/v1/index.php') return api(req, meta);
    return new Response('{"error":{"type":"invalid_request_error","code":"not_found","message":"Not found. The API lives at POST /v1/index.php."}}', {
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
}
