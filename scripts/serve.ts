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
  const stop = (signal: string) => {
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
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
