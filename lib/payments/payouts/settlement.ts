import type { Db, Queryable } from '../../db/types';
import { simulatedOutcome, type SimulatedOutcome } from '../../contract';
import { holdForOutage } from './bank-outages';
import { BALANCES_SQL, CLAIM_SQL, SETTLE_SQL } from './settlement-sql';

export { BALANCES_SQL, CLAIM_SQL, SETTLE_SQL } from './settlement-sql';

export interface SettlementResult {
  paid: number;
  failed: number;
  /** Payouts whose settlement threw: rolled back alone and retried later, with backoff. */
  postponed: number;
  /** Payouts to a bank that is down: left pending until its outage ends (bank-outages.ts). */
  held: number;
}

export interface SettlementLimits {
  /** Payouts claimed per transaction. */
  batchSize?: number;
  /** Batches per call: bounds one tick while letting it drain more than one batch. */
  maxBatches?: number;
  /** Batches in flight at once, each its own transaction and connection (SKIP LOCKED keeps them apart). */
  loops?: number;
}

/**
 * One tick of the settlement job: 1,000 a statement, up to 20,000 (a few seconds at most), two batches in flight: while
 * one waits for the database, the other's statements run, so both cores of a small server work. A full tick is
 * followed by another at once.
 */
export const SETTLEMENT_TICK = { batchSize: 1000, maxBatches: 20, loops: 2 } as const;

/**
 * Settles pending payouts whose time has come, each exactly once, in batches of one transaction each until a batch
 * comes back short (or `maxBatches`), so that a tick keeps up with sustained withdrawals. Rows are claimed with FOR
 * UPDATE SKIP LOCKED: several loops, and several instances on one PostgreSQL, share the work without overlap.
 */
export async function settleDuePayouts(
  db: Db,
  limits: SettlementLimits = {},
  /** Told once per payout, at its first failed attempt (the job logs it). */
  onPostponed: (failure: { merchantId: string; payoutIds: string[]; error: unknown }) => void = () => {},
): Promise<SettlementResult> {
  const { batchSize = SETTLEMENT_TICK.batchSize, maxBatches = SETTLEMENT_TICK.maxBatches, loops = 1 } = limits;
  const total: SettlementResult = { paid: 0, failed: 0, postponed: 0, held: 0 };
  let started = 0;
  let drained = false;
  const loop = async () => {
    while (!drained && started < maxBatches) {
      started++;
      const batch = await db.transaction((tx) => settleBatch(tx, batchSize, onPostponed));
      total.paid += batch.paid;
      total.failed += batch.failed;
      total.postponed += batch.postponed;
      total.held += batch.held;
      if (batch.paid + batch.failed + batch.postponed + batch.held < batchSize) drained = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, loops) }, loop));
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
 * One batch: claimed, then settled set-based; payouts to a bank that is down are held instead. Should settling throw
 * (one bad row would roll back the whole batch, and the next tick would claim the same rows), each merchant's payouts
 * are settled in a savepoint of their own: a merchant whose settlement throws is rolled back alone and its payouts
 * back off, the rest settle.
 */
async function settleBatch(tx: Queryable, limit: number, onPostponed: Postponed): Promise<SettlementResult> {
  const claimed = await tx.query<DuePayout & { held_until: string | null }>(CLAIM_SQL, [limit]);
  const due = claimed.filter((p) => p.held_until === null);
  const held = await holdForOutage(tx, claimed);
  if (due.length === 0) return { paid: 0, failed: 0, postponed: 0, held };
  return { ...(await settleClaimed(tx, due, onPostponed)), held };
}

async function settleClaimed(tx: Queryable, due: DuePayout[], onPostponed: Postponed): Promise<Omit<SettlementResult, 'held'>> {
  await tx.query('SAVEPOINT whole_batch');
  try {
    const settled = await settleSet(tx, due);
    await tx.query('RELEASE SAVEPOINT whole_batch');
    return { ...settled, postponed: 0 };
  } catch {
    await tx.query('ROLLBACK TO SAVEPOINT whole_batch');
  }
  const total = { paid: 0, failed: 0, postponed: 0 };
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

interface MerchantSettled {
  merchant_id: string;
  settled: number;
  reversed: number;
  paid: number;
  failed: number;
  failed_ids: string[];
  failed_amounts: number[];
}

/**
 * Set-based settlement of claimed payouts in two statements of the caller's transaction: the payouts with their events
 * (SETTLE_SQL), then, last, the balances with their ledger entries (BALANCES_SQL), so that a merchant's balance row is
 * held only for the short end of the transaction, not while the payouts, their triggers and their events are written.
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
  const merchants = await tx.query<MerchantSettled>(SETTLE_SQL, [due.map((p) => p.id), codes, messages]);
  if (merchants.length === 0) return { paid: 0, failed: 0 };
  const failed = merchants.flatMap((m) => m.failed_ids.map((id, i) => ({ merchant: m.merchant_id, id, amount: m.failed_amounts[i] })));
  const [row] = await tx.query<{ balances: number }>(BALANCES_SQL, [
    merchants.map((m) => m.merchant_id),
    merchants.map((m) => String(m.settled)),
    merchants.map((m) => String(m.reversed)),
    failed.map((f) => f.merchant),
    failed.map((f) => f.id),
    failed.map((f) => String(f.amount)),
  ]);
  if (row!.balances !== merchants.length) throw new Error(`settlement: ${merchants.length - row!.balances} merchant(s) without a balance`);
  return { paid: merchants.reduce((n, m) => n + m.paid, 0), failed: merchants.reduce((n, m) => n + m.failed, 0) };
}
