import http from 'node:http';
import { errorAnswer } from '../contract';
import type { ApiRequest, BodyRead, PaymentCore } from '../payments/pipeline/api-request';

/** Past this many unread body bytes after the response, the connection is closed rather than drained. */
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
const MAX_DRAIN_MS = 5_000;

const INTERNAL_ERROR = errorAnswer('internal_error', 'An internal error occurred.');

/**
 * Serves the payment core on node's request and response, as mounted by the app server
 * (app-server.ts) for every process and for the integration tests. It reads node's request
 * directly (no web Request or stream per call) and answers with one write.
 */
export function nodeHandler(
  core: PaymentCore,
  clientAddress: (req: http.IncomingMessage) => string = (req) => req.socket.remoteAddress ?? 'unknown',
): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const answer = await core(nodeApiRequest(req), { clientAddress: clientAddress(req) });
      // A known length: no chunked encoding, and Next's compression wrapper skips small bodies at once.
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) }).end(answer.body);
    } catch {
      if (!res.headersSent) res.writeHead(INTERNAL_ERROR.status, { 'content-type': 'application/json' });
      res.end(INTERNAL_ERROR.body);
    }
    // Answered before the whole body arrived (401, 413): drain the rest so the
    // connection stays usable, within bounds.
    if (!req.complete) drain(req);
  };
}

function nodeApiRequest(req: http.IncomingMessage): ApiRequest {
  return {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    readBody: (limit) => readLimited(req, limit),
  };
}

/**
 * Collects the body up to `limit` bytes. Past it, reading stops (the stream is
 * paused, not destroyed: destroying it would reset the socket before the 413
 * gets out) and the rest is drained after the answer.
 */
function readLimited(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  // The client went away before the body was asked for (while the key was being checked): its
  // 'close' has come and gone, and waiting for 'end' would hold this request forever.
  if (req.destroyed) return Promise.reject(new Error('request body incomplete'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      done();
      req.pause();
      resolve('too_large');
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    // The client went away before the end of its body.
    const onClose = () => onError(new Error('request body incomplete'));
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
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
