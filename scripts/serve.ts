import { createAppServer, type NextHandler, type ServedProcess } from '../lib/server/app-server';
import type { Logger } from '../lib/log';
import { newAdminToken, publishAdminAccess } from '../lib/admin/admin-endpoint';
import { servedOverHttps } from '../lib/config/env';

/**
 * Listens with the process's one server and shuts it down gracefully on SIGTERM
 * or SIGINT (exit 0 once requests in flight are answered and the pool is closed).
 */
export async function serve(runtime: ServedProcess, opts: { log: Logger; next?: NextHandler; admin: boolean }) {
  const { settings } = runtime;
  const { log, next } = opts;
  // The embedded payment database is this process's alone: the merchant CLI asks this server instead (lib/admin).
  const adminToken = opts.admin && runtime.db.kind === 'pglite' ? newAdminToken() : undefined;
  const app = createAppServer({
    adminToken,
    runtime,
    next,
    metricsToken: settings.METRICS_TOKEN,
    shutdownGraceMs: settings.SHUTDOWN_GRACE_SECONDS * 1000,
    drainIdleMs: Math.min(settings.SHUTDOWN_DRAIN_SECONDS, settings.SHUTDOWN_GRACE_SECONDS) * 1000,
    https: servedOverHttps(settings),
    trustedProxyHops: settings.TRUSTED_PROXY_HOPS,
  });
  await app.listen(settings.PORT, settings.HOST);
  const unpublish = adminToken ? publishAdminAccess(settings.DATA_DIR, settings.PORT, adminToken) : () => {};
  log.info({ port: settings.PORT, console: Boolean(next) }, 'listening');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: draining requests in flight');
    unpublish();
    app.shutdown().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Kept for the whole drain: a process manager signals the whole process group, and npm passes the
  // signal on as well, so it comes more than once. Without a listener a repeat would end the process
  // at once and reset every connection still being answered; the grace period bounds the drain.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return app;
}
