import type { Db, Queryable } from '../../db/types';
import { checkoutSessionJsonSql, eventCtes, payoutJsonSql } from '../webhooks/event-sql';
import { settlePending } from '../ledger/ledger';
import { simulatedOutcome, type SimulatedOutcome } from '../../contract';
import { PAID_COLUMNS_SQL } from './payout-returns';

export interface SettlementResult {
  paid: number;
  failed: number;
  /** Payouts whose settlement threw: rolled back alone and retried later, with backoff. */
  postponed: number;
}

export interface SettlementLimits {
  /** Payouts claimed per transaction. */
  batchSize?: number;
  /** Batches per call: bounds one tick while letting it drain more than one batch. */
  maxBatches?: number;
}

/**
 * Settles pending payouts whose time has come, each exactly once, in batches of
 * one transaction each until a batch comes back short (or `maxBatches`), so that
 * a tick keeps up with sustained withdrawals. Rows are claimed with FOR UPDATE
 * SKIP LOCKED: several instances on one PostgreSQL share the work without overlap.
 */
export async function settleDuePayouts(
  db: Db,
  limits: SettlementLimits = {},
  /** Told once per payout, at its first failed attempt (the job logs it). */
  onPostponed: (failure: { merchantId: string; payoutIds: string[]; error: unknown }) => void = () => {},
): Promise<SettlementResult> {
  const { batchSize = 500, maxBatches = 10 } = limits;
  const total: SettlementResult = { paid: 0, failed: 0, postponed: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const batch = await db.transaction((tx) => settleBatch(tx, batchSize, onPostponed));
    total.paid += batch.paid;
    total.failed += batch.failed;
    total.postponed += batch.postponed;
    if (batch.paid + batch.failed + batch.postponed < batchSize) break;
  }
  return total;
}

export interface DuePayout {
  id: string;
  merchant_id: string;
  amount: number;
  account_number: string;
  settle_attempts: number;
}

type Postponed = NonNullable<Parameters<typeof settleDuePayouts>[2]>;

/**
 * One batch: claimed, then settled set-based. Should that throw (one bad row
 * would roll back the whole batch, and the next tick would claim the same rows),
 * each merchant's payouts are settled in a savepoint of their own: a merchant
 * whose settlement throws is rolled back alone and its payouts back off, the
 * rest settle.
 */
async function settleBatch(tx: Queryable, limit: number, onPostponed: Postponed): Promise<SettlementResult> {
  const due = await tx.query<DuePayout>(
    `SELECT id, merchant_id, amount, account_number, settle_attempts FROM payouts
     WHERE status = 'pending' AND settle_after <= now()
     ORDER BY settle_after, seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  if (due.length === 0) return { paid: 0, failed: 0, postponed: 0 };
  await tx.query('SAVEPOINT whole_batch');
  try {
    const settled = await settleSet(tx, due);
    await tx.query('RELEASE SAVEPOINT whole_batch');
    return { ...settled, postponed: 0 };
  } catch {
    await tx.query('ROLLBACK TO SAVEPOINT whole_batch');
  }
  const total: SettlementResult = { paid: 0, failed: 0, postponed: 0 };
  const byMerchant = new Map<string, DuePayout[]>();
  for (const p of due) byMerchant.set(p.merchant_id, [...(byMerchant.get(p.merchant_id) ?? []), p]);
  for (const merchantId of [...byMerchant.keys()].sort()) {
    const payouts = byMerchant.get(merchantId)!;
    await tx.query('SAVEPOINT one_merchant');
    try {
      const settled = await settleSet(tx, payouts);
      await tx.query('RELEASE SAVEPOINT one_merchant');
      total.paid += settled.paid;
      total.failed += settled.failed;
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT one_merchant');
      await postpone(tx, payouts);
      total.postponed += payouts.length;
      const firstTime = payouts.filter((p) => p.settle_attempts === 0).map((p) => p.id);
      if (firstTime.length > 0) onPostponed({ merchantId, payoutIds: firstTime, error });
    }
  }
  return total;
}

/** Tries again after 10 s, doubling up to an hour: the row stays pending, the rest of the work goes on. */
async function postpone(tx: Queryable, payouts: DuePayout[]) {
  await tx.query(
    `UPDATE payouts SET settle_attempts = settle_attempts + 1,
       settle_after = now() + make_interval(secs => LEAST(3600, 10 * power(2, settle_attempts)))
     WHERE id = ANY($1::text[])`,
    [payouts.map((p) => p.id)],
  );
}

/**
 * Set-based settlement of claimed payouts: status changes with their events in
 * one statement per outcome, then one balance update per merchant (pending down, failures back to
 * available with their ledger entries).
 */
export async function settleSet(
  tx: Queryable,
  due: DuePayout[],
  /** The bank's answer for each payout: the test accounts' by default; simulate_payout chooses it. */
  outcomeOf: (payout: DuePayout) => SimulatedOutcome = (p) => simulatedOutcome(p.account_number),
): Promise<{ paid: number; failed: number }> {
  const paid: DuePayout[] = [];
  const failed: { payout: DuePayout; code: string; message: string }[] = [];
  for (const payout of due) {
    const outcome = outcomeOf(payout);
    if (outcome.kind === 'failed') failed.push({ payout, code: outcome.failureCode, message: outcome.failureMessage });
    else paid.push(payout);
  }
  if (paid.length > 0) {
    await tx.query(
      `WITH u AS (UPDATE payouts SET status = 'paid', settled_at = now(), ${PAID_COLUMNS_SQL} WHERE id = ANY($1::text[]) RETURNING *),
       ${eventCtes({ from: 'u', type: 'payout.paid', data: payoutJsonSql('u') })}
       SELECT count(*) FROM ev`,
      [paid.map((p) => p.id)],
    );
  }
  if (failed.length > 0) {
    await tx.query(
      `WITH u AS (
         UPDATE payouts p SET status = 'failed', failure_code = f.code, failure_message = f.message, settled_at = now()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, code, message) WHERE p.id = f.id RETURNING p.*),
       ${eventCtes({ from: 'u', type: 'payout.failed', data: payoutJsonSql('u') })}
       SELECT count(*) FROM ev`,
      [failed.map((f) => f.payout.id), failed.map((f) => f.code), failed.map((f) => f.message)],
    );
  }
  // Balances last and in merchant order: their rows are the hot ones, and a fixed
  // order keeps concurrent settlers from deadlocking on them.
  const byMerchant = new Map<string, { paidAmount: number; reversals: { payoutId: string; amount: number }[] }>();
  const forMerchant = (id: string) => {
    let settled = byMerchant.get(id);
    if (!settled) byMerchant.set(id, (settled = { paidAmount: 0, reversals: [] }));
    return settled;
  };
  for (const p of paid) forMerchant(p.merchant_id).paidAmount += p.amount;
  for (const { payout } of failed) forMerchant(payout.merchant_id).reversals.push({ payoutId: payout.id, amount: payout.amount });
  for (const merchantId of [...byMerchant.keys()].sort()) await settlePending(tx, merchantId, byMerchant.get(merchantId)!);
  return { paid: paid.length, failed: failed.length };
}

/**
 * Marks open checkout sessions past `expires_at` as expired (reads already treat
 * them so), each with its checkout_session.expired event, in batches. `origin`
 * starts the URLs in the events (PUBLIC_BASE_URL, or the server's own address).
 */
export async function expireCheckoutSessions(db: Db, origin: string, batchSize = 500): Promise<number> {
  const [row] = await db.query<{ expired: number }>(
    `WITH u AS (
       UPDATE checkout_sessions SET status = 'expired' WHERE id IN (
         SELECT id FROM checkout_sessions WHERE status = 'open' AND expires_at <= now()
         ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *),
     ${eventCtes({ from: 'u', type: 'checkout_session.expired', data: checkoutSessionJsonSql('u', '$1') })}
     SELECT count(*)::int AS expired FROM u`,
    [origin, batchSize],
  );
  return row!.expired;
}
