import 'server-only';
import type { z } from 'zod';
import { ApiError, isJsonContentType } from '../contract';
import { getRuntime } from '../server/runtime';
import { verifySession, type ConsoleSession } from '../session/session';
import { jsonResponse, notSignedIn, toErrorResponse, validationError } from './errors';
import { crossOriginRefusal } from './same-origin';

const MAX_BODY_BYTES = 16 * 1024;

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
    try {
      if (opts.mutates) {
        const refusal = crossOriginRefusal(req.headers);
        if (refusal) throw new ApiError('cross_origin_request', `Cross-origin request refused (${refusal}).`);
      }
      return await handler({ req, params: await ctx.params });
    } catch (error) {
      const { response, unexpected } = toErrorResponse(error);
      if (unexpected) (await getRuntime()).log.error({ err: error, path: new URL(req.url).pathname }, 'console route failed');
      return response;
    }
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
    return handler({ ...ctx, session });
  });
}

/** The body as JSON, validated: 415 for anything but application/json (which no plain HTML form can send). */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  if (!isJsonContentType(req.headers.get('content-type'))) throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError('payload_too_large', 'The request body is too large.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** Refuses a body on a route that takes none, unless it is JSON. */
export function assertNoForeignBody(req: Request): void {
  const type = req.headers.get('content-type');
  if (type && !isJsonContentType(type)) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  }
}

export const ok = (body: unknown, status = 200) => jsonResponse(status, body);
