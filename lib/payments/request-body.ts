import type { ApiRequest } from './api-request';
import { ApiError } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads the body as a JSON object: 415 unless the content type is JSON, 413 past
 * 64 KiB (stopping the read there, so a huge body costs no memory), 400 when it is
 * not valid UTF-8 JSON or not an object.
 */
export async function readJsonObject(req: ApiRequest): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  }
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();

  // A client that goes away mid-body is its own failure, not the server's: 400, not a logged 500.
  const bytes = await req.readBody(MAX_BODY_BYTES).catch(() => {
    throw new ApiError('invalid_request', 'The request body could not be read to its end.');
  });
  if (bytes === 'too_large') throw tooLarge();
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
export const isJsonContentType = (header: string | null) =>
  (header ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

const tooLarge = () => new ApiError('payload_too_large', `The request body must be at most ${MAX_BODY_BYTES} bytes.`);
