import type { ApiRequest, ApiResponse, BodyRead, PaymentCore, RequestMeta } from './api-request';

/**
 * The core behind the web Request/Response pair, for hosts that speak it (an App
 * Router route handler, other runtimes, the in-process transport given a Request).
 * Next itself mounts the core through node's request (pages/api/v1/index.php.ts).
 */
export type PaymentApi = (req: Request, meta?: RequestMeta) => Promise<Response>;

export function webPaymentApi(core: PaymentCore): PaymentApi {
  return async (req, meta) => toWebResponse(await core(fromWebRequest(req), meta));
}

export const toWebResponse = (res: ApiResponse) => new Response(res.body, { status: res.status, headers: res.headers });

export function fromWebRequest(req: Request): ApiRequest {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    readBody: (limit) => readLimited(req, limit),
    discardBody: () => discardUnreadBody(req),
  };
}

async function readLimited(req: Request, limit: number): Promise<BodyRead> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await discard(reader, size);
      return 'too_large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** How much of a refused request's unread body is read and thrown away so that its answer gets through. */
const MAX_DISCARD_BYTES = 2 * 1024 * 1024;

/**
 * A refused request's body may still be on the wire: refused before reading
 * (401, 415, 413 by declared size) or part-way (413). Some servers (Next's
 * route handlers, seen by the fuzzer) then stall that keep-alive connection,
 * or reset it before the answer arrives. Reading and discarding the rest,
 * within bounds, lets every mount answer; past the bound the body is abandoned.
 */
async function discardUnreadBody(req: Request): Promise<void> {
  if (!req.body || req.bodyUsed) return;
  const reader = req.body.getReader();
  const declared = Number(req.headers.get('content-length') ?? '0');
  await discard(reader, declared > MAX_DISCARD_BYTES ? Infinity : 0);
}

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let size = alreadyRead;
  try {
    while (size <= MAX_DISCARD_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
    await reader.cancel();
  } catch {
    /* the client went away: nothing left to answer */
  }
}
