import type { Db, Queryable } from '../../db/types';
import { notOnTestClockSql } from '../pipeline/clock';
import { checkoutSessionJsonSql, eventCtes } from '../webhooks/event-sql';

/** Expires the open sessions `claim` picks ($2: how many), each with its checkout_session.expired event ($1: the URLs' origin). */
const expireSql = (claim: string) => `WITH u AS (
     UPDATE checkout_sessions SET status = 'expired' WHERE id IN (
       SELECT id FROM checkout_sessions WHERE status = 'open' AND expires_at <= app_now() AND ${claim}
       ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING *),
   ${eventCtes({ from: 'u', type: 'checkout_session.expired', data: checkoutSessionJsonSql('u', '$1') })}
   SELECT count(*)::int AS expired FROM u`;

/**
 * Marks open checkout sessions past `expires_at` as expired (reads already treat
 * them so), each with its checkout_session.expired event, in batches. `origin`
 * starts the URLs in the events (PUBLIC_BASE_URL, or the server's own address).
 * A sandbox with a test clock is left out: advance_test_clock expires its sessions on its clock.
 */
export async function expireCheckoutSessions(db: Db, origin: string, batchSize = 500): Promise<number> {
  const [row] = await db.query<{ expired: number }>(expireSql(notOnTestClockSql('checkout_sessions')), [origin, batchSize]);
  return row!.expired;
}

/** The same for one sandbox with a test clock, at its clock's time (set on `tx`): every one of its sessions due by then. */
export async function expireClockedCheckoutSessions(tx: Queryable, merchantId: string, origin: string): Promise<number> {
  const [row] = await tx.query<{ expired: number }>(expireSql('merchant_id = $3'), [origin, null, merchantId]);
  return row!.expired;
}
