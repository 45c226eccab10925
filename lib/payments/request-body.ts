import { ApiError } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads the body as a JSON object: 415 unless the content type is JSON, 413 past
 * 64 KiB (stopping the read there, so a huge body costs no memory), 400 when it is
 * not valid UTF-8 JSON or not an object.
 */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.', 'content-type');
  }
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();

  const text = await readLimited(req);
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

/** `application/json`, with or without parameters such as a charset. */
export const isJsonContentType = (header: string | null) =>
  (header ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

const tooLarge = () => new ApiError('payload_too_large', `The request body must be at most ${MAX_BODY_BYTES} bytes.`);

async function readLimited(req: Request): Promise<string> {
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A client that goes away mid-body is its own failure, not the server's: 400, not a logged 500.
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError('invalid_request', 'The request body could not be read to its end.');
    });
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await discard(reader, size);
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid UTF-8.');
  }
}

/** How much of a refused request's unread body is read and thrown away so that its answer gets through. */
const MAX_DISCARD_BYTES = 2 * 1024 * 1024;

/**
 * A refused request's body may still be on the wire: refused before reading
 * (401, 415, 413 by declared size) or part-way (413). Some servers (Next's, seen
 * by the fuzzer) then stall that keep-alive connection, or reset it before the
 * answer arrives. Reading and discarding the rest, within bounds, lets every
 * mount answer; past the bound the body is abandoned.
 */
export async function discardUnreadBody(req: Request): Promise<void> {
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
