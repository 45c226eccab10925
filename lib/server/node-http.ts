import http from 'node:http';
import type { PaymentApi } from '../payments/payment-api';
import { API_PATH } from '../payments/protocol';

/** Past this many unread body bytes after the response, the connection is closed rather than drained. */
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
const MAX_DRAIN_MS = 5_000;

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
        body: hasBody ? bodyStream(req) : undefined,
        duplex: 'half',
      } as RequestInit);
      const response = await api(request, { clientAddress: req.socket.remoteAddress ?? 'unknown' });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
      // Answered before the whole body arrived (401, 413): drain the rest so the
      // connection stays usable, within bounds.
      if (!req.complete) drain(req);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"type":"api_error","code":"internal_error","message":"An internal error occurred."}}');
    }
  });
}

/** Routes only the API path to the payment core; anything else is a JSON 404. */
export function mountAtApiPath(api: PaymentApi): PaymentApi {
  return async (req, meta) => {
    if (new URL(req.url).pathname === API_PATH) return api(req, meta);
    return new Response('{"error":{"type":"invalid_request_error","code":"not_found","message":"Not found. The API lives at POST /v1/index.php."}}', {
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
}

/**
 * The request body as a web stream that stays under this adapter's control.
 * (Readable.toWeb destroys the socket when the core stops reading at 64 KiB, so
 * the client got a reset instead of its 413, and an unread body left a
 * keep-alive connection hanging.) Cancelling only stops delivery.
 */
function bodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => controller.close();
  const onError = (error: Error) => controller.error(error);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.pause();
        req.on('data', onData).once('end', onEnd).once('error', onError);
      },
      pull: () => void req.resume(),
      cancel() {
        req.off('data', onData).off('end', onEnd).off('error', onError);
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Discards what is left of a request body; a body too big or too slow closes the connection. */
function drain(req: http.IncomingMessage) {
  let discarded = 0;
  const timer = setTimeout(() => req.socket.destroy(), MAX_DRAIN_MS);
  timer.unref();
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
