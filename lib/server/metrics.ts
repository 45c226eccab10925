import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/types';
import type { RequestOutcome } from '../payments/pipeline/payment-api';

/**
 * The process's Prometheus metrics (GET /metrics). The core reports each answer
 * through its `onRequest` hook; database gauges are read at scrape time, so an
 * idle process does no work for them.
 */
export function createMetrics(db: Db, opts: { payments?: boolean } = {}) {
  const payments = opts.payments ?? true;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'payments_' });

  const requests = new Counter({
    name: 'payments_api_requests_total',
    help: 'API requests answered, by action and HTTP status.',
    labelNames: ['action', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'payments_api_request_duration_seconds',
    help: 'Time from reading a request to its answer, by action.',
    labelNames: ['action'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const replays = new Counter({
    name: 'payments_api_idempotent_replays_total',
    help: 'Answers replayed from the idempotency store.',
    registers: [registry],
  });
  const inProgress = new Counter({
    name: 'payments_api_idempotency_conflicts_total',
    help: '409 idempotency_request_in_progress answers.',
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'payments_api_auth_failures_total',
    help: '401 answers (no valid key).',
    registers: [registry],
  });
  const rateLimited = new Counter({ name: 'payments_api_rate_limited_total', help: '429 answers.', registers: [registry] });
  const withdrawGroups = new Histogram({
    name: 'payments_withdraw_group_size',
    help: 'Withdrawals committed together in one transaction (group commit; 1: a lone request).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'payments_job_runs_total',
    help: 'Runs of each background job, by outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'payments_job_duration_seconds',
    help: 'Duration of each run of a background job.',
    labelNames: ['job'] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [registry],
  });

  const webhookAttempts = new Counter({
    name: 'payments_webhook_attempts_total',
    help: 'Webhook delivery attempts, by what came of them: succeeded, retrying (failed, another attempt is scheduled) or failed (no attempt left).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'payments_webhook_backlog',
    help: 'Webhook deliveries due now and not yet attempted.',
    registers: [registry],
    async collect() {
      if (!payments) return; // a console-only process has no webhook deliveries
      const [row] = await db.query<{ due: number }>(
        `SELECT count(*)::int AS due FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
      );
      this.set(row?.due ?? 0);
    },
  });
  new Gauge({
    name: 'payments_settlement_backlog',
    help: 'Pending payouts whose settlement time has come.',
    registers: [registry],
    async collect() {
      if (!payments) return; // a console-only process has no payouts table
      const [row] = await db.query<{ due: number; oldest: number | null }>(
        `SELECT count(*)::int AS due, EXTRACT(EPOCH FROM now() - min(due_at))::float8 AS oldest
         FROM payout_states WHERE state = 'pending' AND due_at <= now()`,
      );
      this.set(row?.due ?? 0);
      oldestDue.set(row?.oldest ?? 0);
    },
  });
  const oldestDue = new Gauge({
    name: 'payments_settlement_oldest_due_seconds',
    help: 'Age of the oldest due payout not yet settled (0 when none).',
    registers: [registry],
  });
  new Gauge({
    name: 'payments_db_pool_connections',
    help: 'Database connections by state: in_use, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { total, idle, waiting } = db.poolStats();
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });

  return {
    registry,
    /** The core's `onRequest` hook. */
    observe(outcome: RequestOutcome) {
      requests.inc({ action: outcome.action, status: String(outcome.status) });
      latency.observe({ action: outcome.action }, outcome.ms / 1000);
      if (outcome.replayed) replays.inc();
      if (outcome.code === 'idempotency_request_in_progress') inProgress.inc();
      if (outcome.status === 401) authFailures.inc();
      if (outcome.status === 429) rateLimited.inc();
    },
    /** The core's `onGroup` hook: the size of each group of withdrawals. */
    observeGroup(size: number) {
      withdrawGroups.observe(size);
    },
    /** The background jobs' observer (lib/server/background-jobs.ts). */
    observeJob(job: string, outcome: 'ok' | 'failed', ms: number) {
      jobRuns.inc({ job, outcome });
      jobSeconds.observe({ job }, ms / 1000);
    },
    /** The webhook delivery worker's observer. */
    observeWebhook(outcome: 'succeeded' | 'retrying' | 'failed') {
      webhookAttempts.inc({ outcome });
    },
    /** Prometheus text exposition. */
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
