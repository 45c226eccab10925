import type { Db, Queryable } from '../../db/types';
import { eventCtes, payoutJsonSql } from '../webhooks/event-sql';
import { simulatedOutcome, type SimulatedOutcome } from '../../contract';
import { paidColumnsSql } from './payout-returns';
import { notOnTestClockSql } from '../pipeline/clock';

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

/** One tick of the settlement job: 1,000 a statement, up to 20,000 (a few seconds at most); a full tick is followed by another at once. */
export const SETTLEMENT_TICK = { batchSize: 1000, maxBatches: 20 } as const;

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
  const { batchSize = SETTLEMENT_TICK.batchSize, maxBatches = SETTLEMENT_TICK.maxBatches } = limits;
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
  // Claimed through payout_states (no payout index holds `status`): its rows are the locks, so a
  // payout row is only ever locked by the update that settles it (simulate_payout takes the same
  // state row first).
  const due = await tx.query<DuePayout>(CLAIM_SQL, [limit]);
  if (due.length === 0) return { paid: 0, failed: 0, postponed: 0 };
  return settleClaimed(tx, due, onPostponed);
}

export const CLAIM_SQL = `SELECT p.id, p.merchant_id, p.amount, p.account_number, p.settle_attempts
     FROM (SELECT seq, due_at FROM payout_states WHERE state = 'pending' AND due_at <= app_now() AND ${notOnTestClockSql('payout_states')}
           ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED) s
     JOIN payouts p ON p.seq = s.seq ORDER BY s.due_at, s.seq`;

async function settleClaimed(tx: Queryable, due: DuePayout[], onPostponed: Postponed): Promise<SettlementResult> {
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
       settle_after = app_now() + make_interval(secs => LEAST(3600, 10 * power(2, settle_attempts)))
     WHERE id = ANY($1::text[])`,
    [payouts.map((p) => p.id)],
  );
}

/**
 * Set-based settlement of claimed payouts in one statement: each payout pending -> paid or failed
 * (a conditional update: a payout settled meanwhile is left alone), its event and deliveries, one
 * balance update per merchant (pending down, failures back to available), and a payout_reversal
 * ledger entry per failure. Balances are locked in merchant order first: their rows are the hot
 * ones, and a fixed order keeps concurrent settlers from deadlocking on them.
 */
export async function settleSet(
  tx: Queryable,
  due: DuePayout[],
  /** The bank's answer for each payout: the test accounts' by default; simulate_payout chooses it. */
  outcomeOf: (payout: DuePayout) => SimulatedOutcome = (p) => simulatedOutcome(p.account_number),
): Promise<{ paid: number; failed: number }> {
  const codes: (string | null)[] = [];
  const messages: (string | null)[] = [];
  for (const payout of due) {
    const outcome = outcomeOf(payout);
    codes.push(outcome.kind === 'failed' ? outcome.failureCode : null);
    messages.push(outcome.kind === 'failed' ? outcome.failureMessage : null);
  }
  const [row] = await tx.query<{ paid: number; failed: number; merchants: number; balances: number }>(SETTLE_SQL, [
    due.map((p) => p.id),
    codes,
    messages,
  ]);
  if (row!.balances !== row!.merchants) throw new Error(`settlement: ${row!.merchants - row!.balances} merchant(s) without a balance`);
  return { paid: row!.paid, failed: row!.failed };
}

export const SETTLE_SQL = `
  WITH f AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, code, message)),
  u AS (
    UPDATE payouts p SET status = CASE WHEN f.code IS NULL THEN 'paid' ELSE 'failed' END,
      failure_code = f.code, failure_message = f.message, settled_at = app_now(), ${paidColumnsSql('f.code IS NULL')}
    FROM f WHERE p.id = f.id AND p.status = 'pending'
    RETURNING p.*),
  ${eventCtes({
    from: 'u',
    // As when paid and failed payouts were two statements: a batch's payout.paid events, then its payout.failed ones.
    type: { sql: "CASE WHEN u.status = 'paid' THEN 'payout.paid' ELSE 'payout.failed' END", order: "u.status = 'failed', u.seq" },
    data: payoutJsonSql('u'),
  })},
  m AS (SELECT merchant_id, sum(amount) AS settled, COALESCE(sum(amount) FILTER (WHERE status = 'failed'), 0) AS reversed
        FROM u GROUP BY merchant_id),
  locked AS MATERIALIZED (
    SELECT merchant_id FROM balances WHERE merchant_id IN (SELECT merchant_id FROM m) ORDER BY merchant_id FOR UPDATE),
  b AS (
    UPDATE balances b SET pending_payouts = b.pending_payouts - m.settled, available = b.available + m.reversed, updated_at = app_now()
    FROM m JOIN locked USING (merchant_id) WHERE b.merchant_id = m.merchant_id
    RETURNING b.merchant_id, b.available, m.reversed),
  -- One entry per failed payout, in payout order, each with the balance as if credited one by one.
  le AS (
    INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
    SELECT u.merchant_id, u.amount, b.available - b.reversed + sum(u.amount) OVER (PARTITION BY u.merchant_id ORDER BY u.seq),
           'payout_reversal', u.id
    FROM u JOIN b USING (merchant_id) WHERE u.status = 'failed' ORDER BY u.merchant_id, u.seq)
  SELECT count(*) FILTER (WHERE status = 'paid')::int AS paid, count(*) FILTER (WHERE status = 'failed')::int AS failed,
         (SELECT count(*) FROM m)::int AS merchants, (SELECT count(*) FROM b)::int AS balances
  FROM u`;
