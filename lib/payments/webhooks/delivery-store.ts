import { eventDataSql } from './event-sql';
import type { Db } from '../../db/types';
import type { EventRow } from './event-object';
import { nextDelaySeconds } from './retry-schedule';
import type { AttemptResult } from './send-webhook';

/** A delivery claimed for one attempt, with what sending it needs. */
export interface Claimed {
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

export type Outcome = 'succeeded' | 'retrying' | 'failed';

/**
 * Claims due deliveries: pushes `next_attempt_at` past the attempt's timeout (a
 * lease) under FOR UPDATE SKIP LOCKED, so several instances on one PostgreSQL
 * share the work without overlap, and a delivery whose process died mid-attempt
 * is due again once its lease ends: at least once, never dropped. It looks at
 * the $1 * 8 deliveries due first (a backlog of thousands costs no more), and
 * takes at most $4
 * deliveries of an endpoint per claim, less those already in flight here ($2, $3).
 * Params: how many, busy endpoint ids, their counts, per-endpoint cap, lease seconds.
 */
export const CLAIM_SQL = `
  WITH candidates AS (
    SELECT c.id FROM (
      SELECT d.id, d.endpoint_id, d.next_attempt_at,
             row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.seq) AS n
      FROM (SELECT id, endpoint_id, next_attempt_at, seq FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 * 8) d) c
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
            e.id AS event_id, e.type, e.created_at AS event_created_at, ${eventDataSql('e')} AS data`;

interface Row {
  status: 'succeeded' | 'failed' | 'pending';
  delay: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** What an attempt's result means: done, another attempt later (when), or no attempt left. */
function judge(attempts: number, result: AttemptResult, delays: readonly number[]): Row {
  const status = result.kind === 'response' ? result.status : null;
  const responseBody = result.kind === 'response' ? result.body : null;
  if (status !== null && status >= 200 && status <= 299) {
    return { status: 'succeeded', delay: null, responseStatus: status, responseBody, error: null };
  }
  const error = result.kind === 'error' ? result.error : `HTTP ${status}`;
  // 410 Gone: the receiver asks never to be called again (the endpoint is disabled too).
  const delay =
    status === 410
      ? undefined
      : nextDelaySeconds(delays, attempts, {
          status: status ?? undefined,
          retryAfterSeconds: result.kind === 'response' ? result.retryAfterSeconds : undefined,
        });
  return { status: delay === undefined ? 'failed' : 'pending', delay: delay ?? null, responseStatus: status, responseBody, error };
}

/**
 * Records finished attempts in one statement. The `attempts` guard ignores a
 * result that arrives after its lease ran out and another attempt began. An
 * endpoint that answered 410 is disabled and its other pending deliveries end,
 * in the same statement.
 */
export async function recordAttempts(
  db: Db,
  done: Array<{ row: Claimed; result: AttemptResult }>,
  delays: readonly number[],
): Promise<Outcome[]> {
  const rows = done.map(({ row, result }) => judge(row.attempts, result, delays));
  const gone = done.filter(({ result }) => result.kind === 'response' && result.status === 410).map(({ row }) => row.endpoint_id);
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::float8[], $5::int[], $6::text[], $7::text[])
         AS r(id, attempts, status, delay, response_status, response_body, error)),
     recorded AS (
       UPDATE webhook_deliveries d SET status = r.status,
         next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + make_interval(secs => r.delay) END,
         last_response_status = r.response_status, last_response_body = r.response_body, last_error = r.error
       FROM r WHERE d.id = r.id AND d.attempts = r.attempts AND d.status = 'pending'),
     disabled AS (
       UPDATE webhook_endpoints SET disabled = true, disabled_reason = 'The endpoint answered 410 Gone.'
       WHERE id = ANY($8::text[]) AND NOT disabled RETURNING id)
     UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint disabled'
     WHERE endpoint_id IN (SELECT id FROM disabled) AND status = 'pending' AND id <> ALL($1::text[])`,
    [
      done.map(({ row }) => row.id),
      done.map(({ row }) => row.attempts),
      rows.map((r) => r.status),
      rows.map((r) => r.delay),
      rows.map((r) => r.responseStatus),
      rows.map((r) => r.responseBody),
      rows.map((r) => r.error),
      gone,
    ],
  );
  return rows.map((r) => (r.status === 'pending' ? 'retrying' : r.status));
}
