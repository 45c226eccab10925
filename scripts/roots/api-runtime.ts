import { env, type Env } from '../config/env';
import { openDb } from '../db/open-db';
import type { Db } from '../db/types';
import { createLogger, type Logger } from '../log';
import { seedDemoMerchant } from '../payments/merchants';
import type { PaymentCore } from '../payments/api-request';
import { createPaymentCore } from '../payments/payment-api';
import { createSecretBox } from '../payments/webhooks/secret-box';
import { startWebhookDelivery } from '../payments/webhooks/delivery-worker';
import { createRequestLog } from '../payments/request-log';
import { startBackgroundJobs } from './background-jobs';
import { resolveSealingKeys } from './sealing-keys';
import { checkBeforeOpening } from './start-checks';
import { listeningOrigin } from './allowed-host';
import { createMetrics, type Metrics } from './metrics';
import { ApiError } from '../contract';

export interface Runtime {
  db: Db;
  /** The payment core: served on node:http by the standalone server and Next's API route, and in process to the console. */
  core: PaymentCore;
  log: Logger;
  metrics: Metrics;
  settings: Env;
  /** The API is another deployment (PAYMENT_API_BASE_URL): this process opened no payment database. */
  consoleOnly: boolean;
  stop(): Promise<void>;
}

/**
 * Everything a server process needs: the database (opened and migrated), the
 * demo merchant on first start, the payment API and the background jobs. Shared
 * by the Next app and the standalone server.
 */
export async function startRuntime(
  settings: Env,
  log: Logger = createLogger({ level: settings.LOG_LEVEL }),
  parts: { console?: boolean } = {},
): Promise<Runtime> {
  // Every setting before the database: a refused start writes nothing and prints no key.
  checkBeforeOpening(settings, { console: parts.console ?? false });
  if (settings.PAYMENT_API_BASE_URL) return startConsoleRuntime(settings, log);
  const secretBox = createSecretBox(resolveSealingKeys(settings));
  const db = await openRuntimeDb(settings, settings.DATABASE_URL);
  const demo = await seedDemoMerchant(db, settings.DEMO_SECRET_KEY);
  if (demo) announceDemoMerchant(demo.name, demo.available, demo.currency, demo.secretKey);

  const metrics = createMetrics(db);
  // API requests in flight: webhook deliveries yield to them while the process is saturated.
  let apiInFlight = 0;
  // The console reaches the API on 127.0.0.1; checkout links must carry the public address.
  const publicBaseUrl = settings.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  // Retention 0 keeps no request log at all (and is how the bench measures what the log costs).
  const requestLog = settings.REQUEST_LOG_RETENTION_DAYS > 0 ? createRequestLog(db, log) : undefined;
  const handle = createPaymentCore({
    db,
    log,
    requestLog,
    onRequest: metrics.observe,
    onGroup: metrics.observeGroup,
    settings: {
      withdrawGroupCommit: settings.WITHDRAW_GROUP_COMMIT,
      idempotencyTtlSeconds: settings.IDEMPOTENCY_KEY_TTL_SECONDS,
      idempotencyWaitSeconds: settings.IDEMPOTENCY_WAIT_SECONDS,
      settlementDelaySeconds: settings.SETTLEMENT_DELAY_SECONDS,
      payoutApprovalExpirySeconds: settings.PAYOUT_APPROVAL_EXPIRY_SECONDS,
      authFailuresPerMinute: settings.AUTH_FAILURES_PER_MINUTE,
      publicBaseUrl,
      secretBox,
    },
  });
  const core: PaymentCore = async (req, meta) => {
    apiInFlight++;
    try {
      return await handle(req, meta);
    } finally {
      apiInFlight--;
    }
  };
  const jobs = startBackgroundJobs(db, log, {
    idempotencyTtlSeconds: settings.IDEMPOTENCY_KEY_TTL_SECONDS,
    observe: metrics.observeJob,
    eventRetentionDays: settings.EVENT_RETENTION_DAYS,
    requestLogRetentionDays: settings.REQUEST_LOG_RETENTION_DAYS,
    // Links in events written by a job (no request to take an origin from).
    publicOrigin: publicBaseUrl ?? listeningOrigin(settings),
  });
  const webhooks = startWebhookDelivery(db, log, {
    box: secretBox,
    timeoutMs: settings.WEBHOOK_TIMEOUT_SECONDS * 1000,
    retryDelaysSeconds: settings.WEBHOOK_RETRY_DELAYS_SECONDS,
    allowPrivateNetworks: settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    concurrency: settings.WEBHOOK_CONCURRENCY,
    onAttempt: metrics.observeWebhook,
    apiInFlight: () => apiInFlight,
  });
  log.info({ database: db.kind }, 'payment runtime ready');
  return {
    db,
    core,
    log,
    metrics,
    settings,
    consoleOnly: false,
    async stop() {
      await Promise.all([jobs.stop(), webhooks.stop(), requestLog?.stop()]);
      await db.close();
    },
  };
}

/**
 * A console-only process (PAYMENT_API_BASE_URL set): the console's own store (sessions and
 * sign-in counts; CONSOLE_DATABASE_URL, else DATABASE_URL or DATA_DIR), none of the payment
 * schema, no demo merchant, no settlement or payment purges. Its API path answers 404: the API
 * is served where PAYMENT_API_BASE_URL points.
 */
async function startConsoleRuntime(settings: Env, log: Logger): Promise<Runtime> {
  const db = await openRuntimeDb(settings, settings.CONSOLE_DATABASE_URL ?? settings.DATABASE_URL, 'console');
  const metrics = createMetrics(db, { payments: false });
  const elsewhere = new ApiError('not_found', `This deployment serves the console only; the payment API is at ${settings.PAYMENT_API_BASE_URL}.`);
  const core: PaymentCore = async () => ({
    status: elsewhere.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(elsewhere.toBody()),
  });
  // Console jobs only: no checkout expiry here, so no origin for its events.
  const jobs = startBackgroundJobs(db, log, { idempotencyTtlSeconds: settings.IDEMPOTENCY_KEY_TTL_SECONDS, observe: metrics.observeJob, consoleOnly: true, publicOrigin: '' });
  log.info({ database: db.kind, api: settings.PAYMENT_API_BASE_URL }, 'console-only runtime ready');
  return {
    db,
    core,
    log,
    metrics,
    settings,
    consoleOnly: true,
    async stop() {
      await jobs.stop();
      await db.close();
    },
  };
}

/** The process's database with the pool limits of its settings: the payment schema, or the console's own store. */
function openRuntimeDb(settings: Env, databaseUrl: string | undefined, schema?: 'console') {
  return openDb({
    databaseUrl,
    dataDir: settings.DATA_DIR,
    poolSize: settings.DATABASE_POOL_SIZE,
    pooler: settings.DATABASE_POOLER,
    // The direct URL is the payment database's: only used when that is the database opened.
    ...(settings.DATABASE_DIRECT_URL && databaseUrl === settings.DATABASE_URL ? { directUrl: settings.DATABASE_DIRECT_URL } : {}),
    limits: {
      connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    ...(schema ? { schema } : {}),
  });
}

/** Printed once, on the first start of an empty database, straight to the terminal (never the log). */
function announceDemoMerchant(name: string, available: number, currency: string, key: string) {
  process.stdout.write(
    [
      '',
      `  Demo merchant "${name}" created with ${available.toLocaleString('en-US')} ${currency}.`,
      `  Its secret key (shown only now; sign in to the console with it):`,
      '',
      `    ${key}`,
      '',
    ].join('\n') + '\n',
  );
}

const GLOBAL_KEY = Symbol.for('merchant-payments.runtime');
type WithRuntime = typeof globalThis & { [GLOBAL_KEY]?: Promise<Runtime> };

/**
 * The process's one runtime, kept on globalThis: Next may load this module in
 * several bundles (instrumentation, route handlers) and dev reloads re-evaluate
 * it, but PGlite must be opened exactly once per process.
 */
export function getRuntime(): Promise<Runtime> {
  const g = globalThis as WithRuntime;
  // Next's bundles and npm start: the console is served, so its settings are checked too.
  g[GLOBAL_KEY] ??= startRuntime(env(), undefined, { console: true }).catch((error) => {
    delete g[GLOBAL_KEY];
    throw error;
  });
  return g[GLOBAL_KEY];
}
