import { purgeAuthFailures } from '../db/auth-failures';
import { tableStatistics } from '../db/table-statistics';
import type { Db } from '../db/types';
import type { Logger } from '../log';
import { runJobs, type Job, type JobObserver } from './job-runner';
import { figuresUpkeep } from './figures-compaction';
import { sendStatementsReady } from '../payments/statements/statement-ready';
import { purgeOldEvents } from '../payments/webhooks/event-retention';
import { purgeRequestLog } from '../payments/pipeline/request-log';
import { purgeExpiredIdempotencyKeys } from '../payments/pipeline/idempotency';
import { expireCheckoutSessions } from '../payments/checkout/checkout-expiry';
import { settleDuePayouts, SETTLEMENT_TICK } from '../payments/payouts/settlement';
import { payoutStatesVacuum } from '../payments/payouts/payout-states-vacuum';
import { settleDueRefunds } from '../payments/refunds/refund-settlement';
import { returnDuePayouts } from '../payments/payouts/payout-returns';
import { expireUnapprovedPayouts, purgeExpiredValidations } from '../payments/payouts/payout-approvals';
import { purgeSandboxes } from '../payments/sandboxes/sandbox-purge';

/**
 * The API runtime's work after commit, from rows the requests wrote: settling due
 * payouts, expiring checkout sessions, purging idempotency keys past retention.
 * (The console's own purges are its context's: scripts/roots/console-side.ts.) Each job has its own timer, its own
 * error handling and its own metric, so one that fails (or one bad row inside
 * it) never stops the others; a failing job logs once until it recovers.
 * Every job reads its work from the database, so it survives restarts and is
 * safe to run in every instance at once.
 */
export function startBackgroundJobs(db: Db, log: Logger, opts: BackgroundJobOptions & { observe?: JobObserver }) {
  return runJobs(backgroundJobs(db, log, opts), log, { tickMs: opts.tickMs ?? 1000, observe: opts.observe });
}

export interface BackgroundJobOptions {
  idempotencyTtlSeconds: number;
  publicOrigin: string;
  eventRetentionDays?: number;
  requestLogRetentionDays?: number;
  tickMs?: number;
  /** false: planner statistics are left to the database's operator (TABLE_STATISTICS=off). */
  tableStatistics?: boolean;
}

/** The jobs themselves, unstarted (the query-plan test runs each once). */
export function backgroundJobs(db: Db, log: Logger, opts: BackgroundJobOptions): Job[] {
  const tickMs = opts.tickMs ?? 1000;
  return [
    settlementJob(db, log, tickMs),
    {
      // The bank's returns of paid payouts (test mode: account 4000000004, one settlement delay after it was paid).
      name: 'payout_returns',
      everyMs: tickMs,
      async run() {
        const returned = await returnDuePayouts(db);
        if (returned > 0) log.info({ returned }, 'paid payouts returned by the bank');
      },
    },
    {
      name: 'refund_settlement',
      everyMs: tickMs,
      async run() {
        const settled = await settleDueRefunds(db, {}, ({ merchantId, refundId, error }) =>
          log.error({ err: error, merchantId, refundId }, 'a refund could not be settled; retrying it later with backoff'),
        );
        if (settled.succeeded + settled.failed > 0) log.info(settled, 'refunds settled');
      },
    },
    // Folds the figures rows each write adds into one row per merchant and day, and per batch and status (exact either way; fewer rows to read),
    // and vacuums what the folding left dead where no daemon will.
    figuresCompactionJob(db, log, tickMs),
    {
      // statement.ready once per merchant and month, after the month ends in the merchant's zone.
      name: 'statement_ready',
      everyMs: 60 * tickMs,
      async run() {
        const sent = await sendStatementsReady(db);
        if (sent > 0) log.info({ sent }, 'statement.ready events sent');
      },
    },
    { name: 'checkout_expiry', everyMs: tickMs, run: async () => void (await expireCheckoutSessions(db, opts.publicOrigin)) },
    {
      // Payouts left unapproved past PAYOUT_APPROVAL_EXPIRY_SECONDS: money back to available.
      name: 'payout_approval_expiry',
      everyMs: tickMs,
      async run() {
        const expired = await expireUnapprovedPayouts(db, (merchantId, err) =>
          log.error({ err, merchantId }, 'unapproved payouts could not be expired; retrying on the next tick'),
        );
        if (expired > 0) log.info({ expired }, 'unapproved payouts expired');
      },
    },
    {
      // Deleted and expired sandboxes: every row of their merchants, a few seconds after their keys stopped working.
      name: 'sandbox_purge',
      everyMs: tickMs,
      async run() {
        const purged = await purgeSandboxes(db);
        if (purged > 0) log.info({ purged }, 'deleted or expired sandboxes purged');
      },
    },
    { name: 'bank_account_validation_purge', everyMs: 10 * 60_000, run: async () => void (await purgeExpiredValidations(db)) },
    {
      name: 'idempotency_purge',
      everyMs: 10 * 60_000,
      async run() {
        const purged = await purgeExpiredIdempotencyKeys(db, opts.idempotencyTtlSeconds);
        if (purged > 0) log.info({ purged }, 'expired idempotency keys purged');
      },
    },
    {
      name: 'request_log_purge',
      everyMs: 10 * 60_000,
      async run() {
        const purged = await purgeRequestLog(db, opts.requestLogRetentionDays ?? 30);
        if (purged > 0) log.info({ purged }, 'request log rows past retention purged');
      },
    },
    {
      name: 'event_purge',
      everyMs: 10 * 60_000,
      async run() {
        const purged = await purgeOldEvents(db, opts.eventRetentionDays ?? 30);
        if (purged > 0) log.info({ purged }, 'events past retention purged');
      },
    },
    { name: 'auth_failure_purge', everyMs: 60_000, run: async () => void (await purgeAuthFailures(db)) },
    ...(opts.tableStatistics === false ? [] : [tableStatisticsJob(db, log, 30 * tickMs)]),
  ];
}

/** Settling due payouts. A backlog drains tick after tick with no pause between (settlement at the speed of intake); an idle one polls. */
export function settlementJob(
  db: Db,
  log: Logger,
  everyMs: number,
  tick: { batchSize: number; maxBatches: number; loops?: number } = SETTLEMENT_TICK,
): Job {
  const vacuum = payoutStatesVacuum(db);
  return {
    name: 'settlement',
    everyMs,
    async run() {
      const settled = await settleDuePayouts(db, tick, ({ merchantId, payoutIds, error }) =>
        log.error({ err: error, merchantId, payoutIds }, 'payouts could not be settled; retrying them later with backoff'),
      );
      if (settled.paid + settled.failed + settled.held > 0) log.info(settled, 'payouts settled');
      await vacuum(settled.paid + settled.failed + settled.held);
      const claimed = settled.paid + settled.failed + settled.postponed + settled.held;
      return claimed >= tick.batchSize * tick.maxBatches ? 'more' : undefined;
    },
  };
}

/** The planner's statistics where no autovacuum daemon keeps them (lib/db/table-statistics.ts): soon after start, then every `everyMs`. */
export function tableStatisticsJob(db: Db, log: Logger, everyMs: number): Job {
  const analyze = tableStatistics(db);
  return {
    name: 'table_statistics',
    everyMs,
    async run() {
      const analyzed = await analyze();
      if (analyzed.length > 0) log.info({ analyzed }, 'tables analyzed');
    },
  };
}

/** The figures' fold and the vacuum of what it leaves dead (lib/server/figures-compaction.ts): every 5 ticks, folding for up to 4. */
function figuresCompactionJob(db: Db, log: Logger, tickMs: number): Job {
  const upkeep = figuresUpkeep(db, 4 * tickMs);
  return {
    name: 'figures_compaction',
    everyMs: 5 * tickMs,
    async run() {
      const { vacuumed } = await upkeep();
      if (vacuumed.length > 0) log.debug({ vacuumed }, 'figures tables vacuumed');
    },
  };
}
