import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_BACKUP_PATH, ADMIN_PATH, adminHandler } from '../admin/admin-endpoint';
import { API_PATH, apiElsewhereAnswer, errorAnswer, OPENAPI_PATH, REQUEST_ID_HEADER } from '../contract';
import type { Env } from '../config/env';
import type { Db } from '../db/types';
import type { PaymentCore } from '../payments/pipeline/api-request';
import { nextRequestId } from '../payments/pipeline/request-id';
import { hostGuard, listeningOrigin } from './allowed-host';
import { CLIENT_ADDRESS_HEADER, clientAddress } from './client-address';
import { connectionDrain } from './connection-drain';
import { nodeHandler } from './node-http';
import { buildOpenApiDocument } from '../openapi';

/**
 * What a process serves, as its start script composed it (scripts/roots): the payment API where
 * it runs in this process, and what every process has. A console-only process has no core.
 */
export interface ServedProcess {
  settings: Env;
  /** The process's database (the payment database, or the console's own store): /readyz asks it. */
  db: Db;
  metrics: { render(): Promise<{ contentType: string; body: string }> };
  /** The payment API; absent where it runs elsewhere (PAYMENT_API_BASE_URL). */
  core?: PaymentCore;
  /** Stops the jobs and closes the databases, once requests in flight are answered. */
  stop(): Promise<void>;
}

/** Next's request handler (`app.getRequestHandler()`), for everything that is not the API's. */
export type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export interface AppServerOptions {
  runtime: ServedProcess;
  /** `npm start` / `npm run dev`: Next serves the console; absent for `npm run start:api`. */
  next?: NextHandler;
  /** Bearer token for GET /metrics; without one, /metrics is not served. */
  metricsToken?: string;
  /** How long SIGTERM waits for requests in flight before closing their connections. */
  shutdownGraceMs: number;
  /** Draining, a keep-alive connection without a request is closed after this long idle (connection-drain.ts); 0 by default (tests). */
  drainIdleMs?: number;
  /** The public address is https: every answer tells browsers to use nothing else (HSTS). */
  https?: boolean;
  /** Proxies in front whose X-Forwarded-For entries are believed (0: the socket's address). */
  trustedProxyHops?: number;
  /** Serves the merchant CLI's commands and `npm run backup` to this machine (embedded database only; lib/admin). */
  adminToken?: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = errorAnswer('not_found', 'Not found. The API lives at POST /v1/index.php.');
const GET_ONLY = errorAnswer('method_not_allowed', 'Only GET is served here.');
const NO_METRICS_TOKEN = errorAnswer('unauthorized', 'A valid metrics token is required.');

/**
 * The one node:http server of a process. The payment API, health and metrics
 * are answered here, ahead of Next's router (which costs as much CPU per call as
 * a whole API request of a bare server); everything else goes to Next when it is
 * mounted. `shutdown()` drains (connection-drain.ts): no new connections, every request on an
 * open one is answered with `Connection: close`, idle ones close after `drainIdleMs` (all bounded
 * by the grace period), then the jobs stop and the pool closes.
 */
export function createAppServer(opts: AppServerOptions) {
  const { runtime } = opts;
  const hops = opts.trustedProxyHops ?? 0;
  const api = runtime.core
    ? nodeHandler(runtime.core, (req) => clientAddress(req, hops))
    : apiElsewhere(runtime.settings.PAYMENT_API_BASE_URL);
  const admin = opts.adminToken ? adminHandler(runtime.db, opts.adminToken, runtime.settings.DATA_DIR) : undefined;
  const inFlight = new Set<http.ServerResponse>();
  // Set by listen(), which knows the port: a foreign Host never reaches a link (allowed-host.ts).
  let guardHost = (host: string | undefined) => host ?? 'localhost';
  // Where the OpenAPI document says the API is served: PUBLIC_BASE_URL, else the listening address (never a request's Host).
  let publicOrigin = runtime.settings.PUBLIC_BASE_URL ?? listeningOrigin(runtime.settings);

  const server = http.createServer((req, res) => {
    connections.track(req, res);
    // Before anything reads it: the API's checkout links, Next's request URL and redirects.
    req.headers.host = guardHost(req.headers.host);
    if (req.headers['x-forwarded-host'] !== undefined) req.headers['x-forwarded-host'] = guardHost(String(req.headers['x-forwarded-host']));
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    // Draining: answer, then close the connection instead of keeping it alive.
    if (connections.draining) res.setHeader('connection', 'close');
    if (opts.https) res.setHeader('strict-transport-security', 'max-age=63072000; includeSubDomains');
    const path = (req.url ?? '/').split('?', 1)[0];
    switch (path) {
      case API_PATH:
        return void api(req, res);
      case '/healthz':
        return send(res, 200, '{"status":"ok"}');
      case '/readyz':
        return void ready(res);
      case '/metrics':
        if (opts.metricsToken) return void metrics(req, res);
        break;
      case OPENAPI_PATH:
        return openApi(req, res);
      case ADMIN_PATH:
      case ADMIN_BACKUP_PATH:
        if (admin) return void admin(req, res);
        break;
    }
    if (opts.next) {
      // Console routes rate-limit sign-ins by the browser's address: only this server may say what it is.
      req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req, hops);
      // As the API does: every answer names its request, and the route's log lines carry the same id.
      const requestId = nextRequestId();
      req.headers[REQUEST_ID_HEADER] = requestId;
      res.setHeader(REQUEST_ID_HEADER, requestId);
      return void opts.next(req, res);
    }
    send(res, NOT_FOUND.status, NOT_FOUND.body);
  });
  server.keepAliveTimeout = 65_000;
  const connections = connectionDrain(server, opts.drainIdleMs ?? 0);

  /**
   * Ready: the primary answers (migrations ran before the runtime was handed over); a standby, or a
   * demoted primary still answering during a failover, is not ready to take payments. Once a
   * shutdown begins, 503 at once, also on a connection kept alive: a load balancer stops routing.
   */
  async function ready(res: http.ServerResponse) {
    if (connections.draining) return send(res, 503, '{"status":"draining"}', { 'retry-after': '1' });
    try {
      const [row] = await runtime.db.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      if (row?.standby) return send(res, 503, '{"status":"database_read_only"}', { 'retry-after': '1' });
      send(res, 200, '{"status":"ready"}');
    } catch {
      send(res, 503, '{"status":"database_unavailable"}', { 'retry-after': '1' });
    }
  }

  /** The OpenAPI document, built from the contract once per process. */
  let openApiBody: string | undefined;
  function openApi(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, GET_ONLY.status, GET_ONLY.body, { allow: 'GET, HEAD' });
    }
    openApiBody ??= JSON.stringify(buildOpenApiDocument(publicOrigin));
    // Public and the same for everyone: a browser or a code generator may read it from any origin.
    send(res, 200, openApiBody, { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
  }

  async function metrics(req: http.IncomingMessage, res: http.ServerResponse) {
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !constantTimeEqual(token, opts.metricsToken!)) {
      return send(res, NO_METRICS_TOKEN.status, NO_METRICS_TOKEN.body, {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    const { contentType, body } = await runtime.metrics.render();
    send(res, 200, body, { 'content-type': contentType });
  }

  return {
    server,
    listen(port: number, hostname?: string) {
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, hostname, () => {
          server.off('error', reject);
          const listening = { HOST: hostname ?? runtime.settings.HOST, PORT: (server.address() as AddressInfo).port };
          guardHost = hostGuard({ ...runtime.settings, ...listening });
          publicOrigin = runtime.settings.PUBLIC_BASE_URL ?? listeningOrigin(listening);
          resolve();
        });
      });
    },
    /** Graceful stop (SIGTERM): see above. Resolves when the runtime is closed. */
    async shutdown() {
      if (connections.draining) return;
      const drained = connections.drain(opts.shutdownGraceMs);
      // Requests in flight are answered, then their connections close rather than wait for another.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      await drained;
      await runtime.stop();
    },
  };
}

/** A console-only process: the API path says where the API is, in the one error shape. */
function apiElsewhere(baseUrl: string | undefined) {
  const answer = apiElsewhereAnswer(baseUrl);
  return async (_req: http.IncomingMessage, res: http.ServerResponse) => send(res, answer.status, answer.body);
}

/** Compares digests, so neither the token's content nor its length leaks through timing. */
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const constantTimeEqual = (a: string, b: string) => timingSafeEqual(sha256(a), sha256(b));

function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export type AppServer = ReturnType<typeof createAppServer>;
