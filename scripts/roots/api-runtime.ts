// The API runtime: one of the two composition roots (the other is console-side.ts). Built by the
// start scripts only; nothing under lib/ imports this folder (.dependency-cruiser.cjs, "roots-stay-on-top").
import type { Env } from '../../lib/config/env';
import type { Db } from '../../lib/db/types';
import type { Logger } from '../../lib/log';
import { seedDemoMerchant } from '../../lib/payments/merchants/merchants';
import { createPaymentCore } from '../../lib/payments/core';
import type { PaymentCore } from '../../lib/payments/pipeline/api-request';
import type { PaymentApiDeps } from '../../lib/payments/pipeline/payment-api';
import type { SecretBox } from '../../lib/payments/pipeline/core-settings';
import { createSecretBox } from '../../lib/payments/webhooks/secret-box';
import { startWebhookDelivery } from '../../lib/payments/webhooks/delivery-worker';
import { createRequestLog, type RequestLog } from '../../lib/payments/pipeline/request-log';
import { startBackgroundJobs } from '../../lib/server/background-jobs';
import { createHostedCheckout, type HostedCheckout } from '../../lib/server/hosted-checkout';
import { resolveSealingKeys } from '../../lib/server/sealing-keys';
import { listeningOrigin } from '../../lib/server/allowed-host';
import { createMetrics, type Metrics } from '../../lib/server/metrics';
import type { DemoMerchant } from '../ready-message';
import { openProcessDb } from './open-process-db';

export interface ApiRuntime {
  /** The payment database. */
  db: Db;
  /** The demo merchant and its secret key, on the first start of an empty database only: the start script prints it when ready. */
  demo?: DemoMerchant;
  /** The payment core: served on node:http by the app server, and handed in process to the console. */
  core: PaymentCore;
  /** The hosted checkout page's data (app/(hosted)): the provider's page, where the API runs. */
  hostedCheckout: HostedCheckout;
  log: Logger;
  metrics: Metrics;
  settings: Env;
  stop(): Promise<void>;
}

/**
 * The payment side of a process: the payment database (opened and migrated), the demo merchant
 * on first start, the core, its background jobs and webhook delivery, and the metrics. The caller
 * has checked the settings (checkBeforeOpening) first: a refused start writes nothing.
 */
export async function startApiRuntime(settings: Env, log: Logger): Promise<ApiRuntime> {
  const secretBox = createSecretBox(resolveSealingKeys(settings));
  const db = await openProcessDb(settings, settings.DATABASE_URL);
  const seeded = await seedDemoMerchant(db, settings.DEMO_SECRET_KEY);
  const demo = seeded && { name: seeded.name, available: seeded.available, currency: seeded.currency, secretKey: seeded.secretKey };

  const metrics = createMetrics(db);
  // The console reaches the API on 127.0.0.1; checkout links must carry the public address.
  const publicBaseUrl = settings.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  const { core, requestLog, apiInFlight } = assembleCore(db, log, settings, {
    secretBox,
    onRequest: metrics.observe,
    onGroup: metrics.observeGroup,
  });
  const jobs = startBackgroundJobs(db, log, {
    idempotencyTtlSeconds: settings.IDEMPOTENCY_KEY_TTL_SECONDS,
    observe: metrics.observeJob,
    eventRetentionDays: settings.EVENT_RETENTION_DAYS,
    requestLogRetentionDays: settings.REQUEST_LOG_RETENTION_DAYS,
    tableStatistics: settings.TABLE_STATISTICS === 'auto',
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
    // API requests in flight (the core counts them): webhook deliveries yield to them while the process is saturated.
    apiInFlight,
  });
  log.info({ database: db.kind }, 'payment runtime ready');
  return {
    db,
    demo,
    core,
    hostedCheckout: createHostedCheckout(db, publicBaseUrl),
    log,
    metrics,
    settings,
    async stop() {
      await Promise.all([jobs.stop(), webhooks.stop(), requestLog?.stop()]);
      await db.close();
    },
  };
}

export interface AssembledCore {
  core: PaymentCore;
  /** Absent with REQUEST_LOG_RETENTION_DAYS=0. */
  requestLog?: RequestLog;
  /** Payment API requests in flight (webhook deliveries yield to them). */
  apiInFlight(): number;
}

/**
 * The payment core over `db`, as every process that serves the API assembles it: the settings from
 * the environment's, its request log, requests in flight counted. The API runtime calls it, and so do
 * the tests' and the benchmarks' in-process API (testing/in-process-api.ts), on a database of their own.
 * `overrides`: settings of the core a test sets beyond the environment's (a shorter wait, a group commit off).
 */
export function assembleCore(
  db: Db,
  log: Logger,
  settings: Env,
  opts: {
    secretBox: SecretBox;
    onRequest?: PaymentApiDeps['onRequest'];
    onGroup?: PaymentApiDeps['onGroup'];
    overrides?: Partial<PaymentApiDeps['settings']>;
  },
): AssembledCore {
  // Retention 0 keeps no request log at all (and is how the bench measures what the log costs).
  const requestLog = settings.REQUEST_LOG_RETENTION_DAYS > 0 ? createRequestLog(db, log) : undefined;
  const core = createPaymentCore({
    db,
    log,
    requestLog,
    onRequest: opts.onRequest,
    onGroup: opts.onGroup,
    settings: {
      withdrawGroupCommit: settings.WITHDRAW_GROUP_COMMIT,
      idempotencyTtlSeconds: settings.IDEMPOTENCY_KEY_TTL_SECONDS,
      idempotencyWaitSeconds: settings.IDEMPOTENCY_WAIT_SECONDS,
      settlementDelaySeconds: settings.SETTLEMENT_DELAY_SECONDS,
      payoutApprovalExpirySeconds: settings.PAYOUT_APPROVAL_EXPIRY_SECONDS,
      sandboxLimit: settings.SANDBOX_LIMIT,
      authFailuresPerMinute: settings.AUTH_FAILURES_PER_MINUTE,
      publicBaseUrl: settings.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      secretBox: opts.secretBox,
      ...opts.overrides,
    },
  });
  return { core, requestLog, apiInFlight: () => core.inFlight };
}
