import type { Db } from '../../db/types';
import type { Logger } from '../../log';
import { eventObject, type EventRow } from '../serialize';
import { nextDelaySeconds } from './retry-schedule';
import type { SecretBox } from './secret-box';
import { sendWebhook, type AttemptResult } from './send-webhook';
import { webhookHeaders } from './signing';

export interface DeliverySettings {
  box: SecretBox;
  timeoutMs: number;
  retryDelaysSeconds: readonly number[];
  allowPrivateNetworks: boolean;
  /** Attempts in flight in this process, and per endpoint (so a slow endpoint cannot take every slot). */
  concurrency?: number;
  perEndpoint?: number;
  /** How often an idle process looks for due deliveries. */
  pollMs?: number;
  onAttempt?: (outcome: 'succeeded' | 'retrying' | 'failed', ms: number) => void;
}

interface Claimed {
  id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  event_id: string;
  type: EventRow['type'];
  event_created_at: Date;
  data: Record<string, unknown>;
}

/**
 * Claims due deliveries and attempts them. The claim pushes `next_attempt_at`
 * past the attempt's timeout (a lease) with FOR UPDATE SKIP LOCKED, so several
 * instances on one PostgreSQL share the work without overlap, and a delivery
 * whose process died mid-attempt is due again once its lease ends: at least
 * once, never dropped. Each claim takes at most `perEndpoint` deliveries of an
 * endpoint, less those already in flight here.
 */
const CLAIM_SQL = `
  WITH candidates AS (
    SELECT c.id FROM (
      SELECT d.id, d.endpoint_id, d.next_attempt_at,
             row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.seq) AS n
      FROM (SELECT id, endpoint_id, next_attempt_at, seq FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT 500) d) c
    LEFT JOIN unnest($2::text[], $3::int[]) AS busy(endpoint_id, n) ON busy.endpoint_id = c.endpoint_id
    WHERE c.n <= $4 - coalesce(busy.n, 0)
    ORDER BY c.next_attempt_at LIMIT $1),
  locked AS (
    SELECT d.id FROM webhook_deliveries d JOIN candidates USING (id)
    WHERE d.status = 'pending' AND d.next_attempt_at <= now() FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d
     SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + make_interval(secs => $5)
    FROM locked, webhook_endpoints w, events e
   WHERE d.id = locked.id AND w.id = d.endpoint_id AND e.id = d.event_id
  RETURNING d.id, d.attempts, d.endpoint_id, w.url, w.secret_sealed,
            CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_secret_sealed,
            e.id AS event_id, e.type, e.created_at AS event_created_at, e.data`;

export function startWebhookDelivery(db: Db, log: Logger, settings: DeliverySettings) {
  const { concurrency = 16, perEndpoint = 4, pollMs = 500 } = settings;
  const leaseSeconds = settings.timeoutMs / 1000 + 5;
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let active = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let failing = false;

  async function poll() {
    if (stopped || polling) return;
    polling = true;
    try {
      const free = concurrency - active;
      if (free > 0) {
        const rows = await db.query<Claimed>(CLAIM_SQL, [free, [...inFlight.keys()], [...inFlight.values()], perEndpoint, leaseSeconds]);
        for (const row of rows) track(row);
        if (failing) log.info('webhook delivery recovered');
        failing = false;
      }
    } catch (err) {
      if (!failing && !stopped) log.error({ err }, 'webhook delivery could not claim work; retrying');
      failing = true;
    } finally {
      polling = false;
      schedule(pollMs);
    }
  }

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), ms);
    timer.unref();
  }

  function track(row: Claimed) {
    active++;
    inFlight.set(row.endpoint_id, (inFlight.get(row.endpoint_id) ?? 0) + 1);
    const attempt = deliver(row)
      .catch((err) => log.error({ err, delivery: row.id }, 'webhook delivery attempt could not be recorded; it is retried when its lease ends'))
      .finally(() => {
        active--;
        const n = inFlight.get(row.endpoint_id)! - 1;
        if (n === 0) inFlight.delete(row.endpoint_id);
        else inFlight.set(row.endpoint_id, n);
        running.delete(attempt);
        // A slot came free: look for more work now rather than at the next poll.
        if (!stopped) schedule(0);
      });
    running.add(attempt);
  }

  async function deliver(row: Claimed) {
    const started = performance.now();
    const body = JSON.stringify(eventObject({ id: row.event_id, type: row.type, created_at: row.event_created_at, data: row.data }));
    const secrets = [row.secret_sealed, row.previous_secret_sealed].filter((s): s is string => s !== null).map((s) => settings.box.open(s));
    const result = await sendWebhook({
      url: row.url,
      body,
      headers: webhookHeaders(secrets, row.event_id, new Date(), body),
      timeoutMs: settings.timeoutMs,
      allowPrivateNetworks: settings.allowPrivateNetworks,
    });
    const outcome = await record(db, row, result, settings.retryDelaysSeconds);
    settings.onAttempt?.(outcome, performance.now() - started);
    // The URL and the status only: never the secret, the signature or the body.
    log.debug({ delivery: row.id, event: row.event_id, endpoint: row.endpoint_id, attempt: row.attempts, outcome }, 'webhook attempt');
  }

  schedule(0);
  return {
    /** Looks for due deliveries now (after a commit that wrote events, in tests). */
    poke: () => schedule(0),
    /** Stops claiming; attempts in flight finish and are recorded. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(running);
    },
  };
}

/** Records one attempt; the `attempts` guard ignores a result that arrives after its lease was taken over. */
async function record(db: Db, row: Claimed, result: AttemptResult, delays: readonly number[]): Promise<'succeeded' | 'retrying' | 'failed'> {
  const status = result.kind === 'response' ? result.status : null;
  const responseBody = result.kind === 'response' ? result.body : null;
  const error = result.kind === 'error' ? result.error : status !== null && (status < 200 || status > 299) ? `HTTP ${status}` : null;
  if (status !== null && status >= 200 && status <= 299) {
    await finish(db, row, 'succeeded', null, status, responseBody, null);
    return 'succeeded';
  }
  if (status === 410) {
    // Gone: the receiver asks never to be called again. The endpoint is disabled and its other pending deliveries end.
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE webhook_endpoints SET disabled = true, disabled_reason = 'The endpoint answered 410 Gone.' WHERE id = $1`,
        [row.endpoint_id],
      );
      await finish(tx, row, 'failed', null, status, responseBody, error);
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint disabled'
         WHERE endpoint_id = $1 AND status = 'pending' AND id <> $2`,
        [row.endpoint_id, row.id],
      );
    });
    return 'failed';
  }
  const retryAfterSeconds = result.kind === 'response' ? result.retryAfterSeconds : undefined;
  const delay = nextDelaySeconds(delays, row.attempts, { status: status ?? undefined, retryAfterSeconds });
  await finish(db, row, delay === undefined ? 'failed' : 'pending', delay ?? null, status, responseBody, error);
  return delay === undefined ? 'failed' : 'retrying';
}

function finish(
  db: Pick<Db, 'query'>,
  row: Claimed,
  status: 'succeeded' | 'failed' | 'pending',
  delaySeconds: number | null,
  responseStatus: number | null,
  responseBody: string | null,
  error: string | null,
) {
  return db.query(
    `UPDATE webhook_deliveries SET status = $3,
       next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $4) END,
       last_response_status = $5, last_response_body = $6, last_error = $7
     WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
    [row.id, row.attempts, status, delaySeconds, responseStatus, responseBody, error],
  );
}
