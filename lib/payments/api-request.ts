/**
 * What the payment core reads of a request and what it answers: plain shapes
 * rather than the web Request and Response, so that each mount brings its own
 * adapter. Next hands over a web Request (web-adapter.ts); the standalone server
 * reads node:http directly (lib/server/node-http.ts) and skips allocating a
 * Request, a body stream and a Response per call, most of its per-request CPU.
 */
export interface HeaderReader {
  /** The header's value, several values joined by ", "; null when absent. Names are case-insensitive. */
  get(name: string): string | null;
}

/** Outcome of reading a body with a size limit: its bytes, or 'too_large' as soon as the limit is passed. */
export type BodyRead = Uint8Array | 'too_large';

export interface ApiRequest {
  readonly method: string;
  /** Absolute URL: the origin serves links the API hands out when no public address is configured. */
  readonly url: string;
  readonly headers: HeaderReader;
  /**
   * Reads the body up to `limit` bytes; stops reading as soon as it is passed.
   * Rejects when the client goes away before the end.
   */
  readBody(limit: number): Promise<BodyRead>;
  /**
   * Reads and throws away what is left of a refused request's body, within
   * bounds, so that the answer gets through (see web-adapter.ts).
   */
  discardBody(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RequestMeta {
  /** The client's address as the server saw it, for the authentication rate limit. */
  clientAddress?: string;
}

/** The payment core: one request in, one answer out. */
export type PaymentCore = (req: ApiRequest, meta?: RequestMeta) => Promise<ApiResponse>;
