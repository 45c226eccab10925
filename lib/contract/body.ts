import { ApiError } from './errors';
import { MAX_BODY_BYTES } from './protocol';

export interface HeaderReader {
  /** The header's value, several values joined by ", "; null when absent. Names are case-insensitive. */
  get(name: string): string | null;
}

/** Outcome of reading a body with a size limit: its bytes, or 'too_large' as soon as the limit is passed. */
export type BodyRead = Uint8Array | 'too_large';

/** What the body reader needs of a request, whatever the server it came through. */
export interface BodySource {
  readonly headers: HeaderReader;
  /**
   * Reads the body up to `limit` bytes; stops reading as soon as it is passed.
   * Rejects when the client goes away before the end.
   */
  readBody(limit: number): Promise<BodyRead>;
}

/**
 * The one body reader: the body as a JSON object. 415 unless the content type is
 * JSON, 413 past `limit` (refused on Content-Length, and reading stops there, so a
 * huge body costs no memory), 400 when it is not valid UTF-8 JSON or not an object.
 */
export async function readJsonObject(req: BodySource, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  }
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit);

  // A client that goes away mid-body is its own failure, not the server's: 400, not a logged 500.
  const bytes = await req.readBody(limit).catch(() => {
    throw new ApiError('invalid_request', 'The request body could not be read to its end.');
  });
  if (bytes === 'too_large') throw tooLarge(limit);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `application/json`, with or without parameters such as a charset. */
export const isJsonContentType = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

const tooLarge = (limit: number) => new ApiError('payload_too_large', `The request body must be at most ${limit} bytes.`);
