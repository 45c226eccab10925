/**
 * What the payment core reads of a request and what it answers: plain shapes
 * rather than the web Request and Response, so that each mount brings its own
 * small adapter: node's request for the app server, ahead of Next's router
 * (lib/server/node-http.ts), the console's call in process
 * (console/server/upstream/in-process-fetch.ts). Allocating a Request, a body stream and a
 * Response per call was most of the standalone server's per-request CPU.
 */
import type { BodyRead, HeaderReader } from '../../contract/body';

export type { BodyRead, HeaderReader };

export interface ApiRequest {
  readonly method: string;
  /** Absolute URL: the origin serves links the API hands out when no public address is configured. */
  readonly url: string;
  readonly headers: HeaderReader;
  /**
   * Reads the body up to `limit` bytes; stops reading as soon as it is passed.
   * Rejects when the client goes away before the end. What a refused request
   * leaves unread is the mount's to drain after answering.
   */
  readBody(limit: number): Promise<BodyRead>;
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

/** The core as its process holds it: it also counts the requests it is answering right now. */
export type CountingCore = PaymentCore & { readonly inFlight: number };
