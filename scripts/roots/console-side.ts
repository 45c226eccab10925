// The console's side of a process: one of the composition roots (the API's is api-runtime.ts). Built by
// the start scripts (compose.ts) and, when `next start` runs the console alone, by Next's instrumentation
// (console-in-next.ts); nothing under lib/, app/ or console/ imports this folder (.dependency-cruiser.cjs).
// It loads nothing of the payment core: the layering rule "next-entry-reaches-no-core" checks it.
import type { Env } from '../../lib/config/env';
import { purgeAuthFailures } from '../../lib/db/auth-failures';
import type { Db } from '../../lib/db/types';
import type { Logger } from '../../lib/log';
import type { PaymentCore } from '../../lib/payments/pipeline/api-request';
import { runJobs, type Job, type JobObserver } from '../../lib/server/job-runner';
import type { ConsoleWiring } from '../../console/server/data/console-wiring';
import { purgeEndedConsoleSessions } from '../../console/server/session/session-purge';
import { inProcessFetch } from '../../console/server/upstream/in-process-fetch';
import { openProcessDb } from './open-process-db';

export interface ConsoleSide<M = undefined> {
  /** What the console's data access layer builds its context from (console/server/data/data-access.ts). */
  wiring: ConsoleWiring;
  /** The console's store: the payment database when the API runs here, a store of its own otherwise. */
  db: Db;
  /** A console-only process's own metrics (its jobs), when the process serves them; with the API here, the API's carry them. */
  metrics?: M;
  stop(): Promise<void>;
}

export interface ConsoleSideOptions<M> {
  /** The API of this process, when it runs here: the console's store is its database and its client calls the core in process. */
  api?: { db: Db; core: PaymentCore; metrics: { observeJob: JobObserver } };
  /** Who says a request's browser address (for the sign-in limit): the app server in front of Next, or Next itself. */
  clientAddress: ConsoleWiring['clientAddress'];
  /** A console-only process's metrics over its own store, where something serves them (npm start's app server). */
  metricsOf?: (store: Db) => M & { observeJob: JobObserver };
}

/**
 * The console context's parts: its store, its way to the payment API and its logger. With `api`
 * (the API runs in this process) the console's store is the payment database and its client calls
 * the core in process; without, it opens its own store (CONSOLE_DATABASE_URL, else DATABASE_URL or
 * DATA_DIR, none of the payment schema) and calls PAYMENT_API_BASE_URL over HTTP.
 */
export async function startConsoleSide<M = undefined>(settings: Env, log: Logger, opts: ConsoleSideOptions<M>): Promise<ConsoleSide<M>> {
  const { api } = opts;
  const wiringOf = (store: Db): ConsoleWiring => ({
    store,
    api: {
      // From the settings only, never from a request: the browser cannot point the console (and the key) elsewhere.
      baseUrl: settings.PAYMENT_API_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? settings.PORT}`,
      timeoutMs: settings.PAYMENT_API_TIMEOUT_MS,
      fetch: api ? inProcessFetch(async () => api.core) : undefined,
    },
    log,
    settings,
    clientAddress: opts.clientAddress,
  });
  if (api) {
    // The API's jobs purge the sign-in counts (one table with the API's); the sessions are the console's.
    const jobs = runJobs([sessionPurge(api.db, log)], log, { observe: api.metrics.observeJob });
    return { wiring: wiringOf(api.db), db: api.db, stop: () => jobs.stop() };
  }
  const db = await openProcessDb(settings, settings.CONSOLE_DATABASE_URL ?? settings.DATABASE_URL, 'console');
  const metrics = opts.metricsOf?.(db);
  const jobs = runJobs(
    [{ name: 'auth_failure_purge', everyMs: 60_000, run: async () => void (await purgeAuthFailures(db)) }, sessionPurge(db, log)],
    log,
    { observe: metrics?.observeJob },
  );
  log.info({ database: db.kind, api: settings.PAYMENT_API_BASE_URL }, 'console-only process ready');
  return {
    wiring: wiringOf(db),
    db,
    metrics,
    async stop() {
      await jobs.stop();
      await db.close();
    },
  };
}

const sessionPurge = (db: Db, log: Logger): Job => ({
  name: 'console_session_purge',
  everyMs: 10 * 60_000,
  async run() {
    const purged = await purgeEndedConsoleSessions(db);
    if (purged > 0) log.info({ purged }, 'ended console sessions purged');
  },
});
