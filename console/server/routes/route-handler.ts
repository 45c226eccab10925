import 'server-only';
import type { z } from 'zod';
import {
  ApiError,
  CONSOLE_MAX_BODY_BYTES,
  isJsonContentType,
  readJsonObject,
  REQUEST_ID_HEADER,
  type BodyRead,
} from '../../../lib/contract';
import { consoleContext } from '../data/data-access';
import { endSession, verifySession, type ConsoleSession } from '../session/session';
import { UpstreamError } from '../upstream/upstream-error';
import { jsonResponse, notSignedIn, toErrorResponse, validationError } from './errors';
import { crossOriginRefusal } from './same-origin';

interface Context<P> {
  req: Request;
  params: P;
}

type Handler<P> = (ctx: Context<P>) => Promise<Response>;

/**
 * Wraps a console route once: cross-origin and content-type checks for state
 * changes, and the one place errors become responses. Handlers stay a screen long.
 */
export function consoleRoute<P = Record<string, never>>(opts: { mutates: boolean }, handler: Handler<P>) {
  return async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const { log } = consoleContext();
    // Given by the app server (lib/server/app-server.ts), which also puts it on the answer.
    const requestId = req.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const path = new URL(req.url).pathname;
    let response: Response;
    try {
      if (opts.mutates) {
        const refusal = crossOriginRefusal(req.headers);
        if (refusal) throw new ApiError('cross_origin_request', `Cross-origin request refused (${refusal}).`);
      }
      response = await handler({ req, params: await ctx.params });
    } catch (error) {
      const refused = toErrorResponse(error);
      if (refused.unexpected) log.error({ err: error, requestId, path }, 'console route failed');
      response = refused.response;
    }
    log.debug({ requestId, path, status: response.status, ms: Math.round(performance.now() - started) }, 'console request');
    return response;
  };
}

/** A signed-in route: 401 JSON without a live session. */
export function sessionRoute<P = Record<string, never>>(
  opts: { mutates: boolean },
  handler: (ctx: Context<P> & { session: ConsoleSession }) => Promise<Response>,
) {
  return consoleRoute<P>(opts, async (ctx) => {
    const session = await verifySession();
    if (!session) throw notSignedIn();
    try {
      return await handler({ ...ctx, session });
    } catch (error) {
      throw await endedWithItsKey(session, error);
    }
  });
}

/**
 * The API refused the session's key (revoked, rolled, expired): the session ends
 * with it, here and now, so the sign-in page that the browser goes to next finds
 * no session and does not send it back (no redirect loop). Any other error passes.
 */
export async function endedWithItsKey(session: ConsoleSession, error: unknown, opts: { inPage?: boolean } = {}): Promise<unknown> {
  if (!(error instanceof UpstreamError) || error.status !== 401) return error;
  await endSession(session, { keepCookie: opts.inPage });
  return new ApiError('unauthorized', 'The API key of this session no longer works (revoked, rolled or expired). Sign in again.');
}

/**
 * The body as JSON, validated, through the contract's one body reader: 415 for
 * anything but application/json (which no plain HTML form can send), 413 past
 * 16 KiB, refused on Content-Length before reading and, for a body without one,
 * by stopping the stream there: a multi-gigabyte body costs no memory.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, maxBytes = CONSOLE_MAX_BODY_BYTES): Promise<z.infer<S>> {
  const value = await readJsonObject({ headers: req.headers, readBody: (limit) => readStream(req.body, limit) }, maxBytes);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** Reads a web stream up to `limit` bytes; past it, cancels the stream and says so. */
async function readStream(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<BodyRead> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return 'too_large';
    }
    chunks.push(value);
  }
}

/** Refuses a body on a route that takes none, unless it is JSON. */
export function assertNoForeignBody(req: Request): void {
  const type = req.headers.get('content-type');
  if (type && !isJsonContentType(type)) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  }
}

export const ok = (body: unknown, status = 200) => jsonResponse(status, body);
