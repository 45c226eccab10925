import { PAYOUT_RETURNS, RETURNING_TEST_ACCOUNTS, simulatedOutcome, type PayoutReturnCode } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import { creditReturns } from '../ledger/ledger';
import { eventCtes, payoutJsonSql } from '../webhooks/event-sql';
import { notOnTestClockSql } from '../pipeline/clock';

/**
 * Returned payouts: the receiving bank sends a paid payout back days later. The payout goes from
 * paid to returned with a conditional update (WHERE status = 'paid'), its payout.returned event in
 * the same statement, then its amount goes back to `available` with a `payout_return` entry, all in
 * the caller's transaction: a retry or a concurrent return finds it no longer paid and changes nothing,
 * and the unique index on payout_return entries is the second guard.
 */

/**
 * The bank's reference of a transfer, as its statement line shows it: TRF, the day paid in
 * Jakarta (the banks' day), the payout's seq on at least 10 digits. Unique by construction, since
 * the seq is, with no index for every settlement to keep.
 */
const BANK_REFERENCE_SQL = `'TRF' || to_char(app_now() AT TIME ZONE 'Asia/Jakarta', 'YYMMDD') || lpad(seq::text, greatest(10, length(seq::text)), '0')`;

/**
 * What a payout gains when it is paid, for the SET of the settlement's update, on the rows where
 * `paid` (a SQL condition: one statement settles paid and failed payouts) holds: its bank reference
 * and, for a returning test account (4000000004), when the bank sends it back: one settlement delay
 * after it was paid (the delay it waited, from creation or approval).
 */
export const paidColumnsSql = (paid: string) => {
  const returnAfter =
    RETURNING_TEST_ACCOUNTS.length === 0
      ? 'NULL'
      : `CASE WHEN account_number IN (${RETURNING_TEST_ACCOUNTS.map((n) => `'${n}'`).join(', ')})
       THEN app_now() + (settle_after - COALESCE(approved_at, created_at)) END`;
  return `bank_reference = CASE WHEN ${paid} THEN ${BANK_REFERENCE_SQL} END, return_after = CASE WHEN ${paid} THEN ${returnAfter} END`;
};

export interface PayoutReturn {
  id: string;
  code: PayoutReturnCode;
}

/** Returns the given payouts that are still paid; answers the ids it returned (the others were not paid). */
export async function returnPayouts(tx: Queryable, returns: PayoutReturn[]): Promise<string[]> {
  if (returns.length === 0) return [];
  const rows = await tx.query<{ id: string; merchant_id: string; amount: number }>(
    `WITH u AS (
       UPDATE payouts p SET status = 'returned', failure_code = f.code, failure_message = f.message, returned_at = app_now(), return_after = NULL
       FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, code, message)
       WHERE p.id = f.id AND p.status = 'paid' RETURNING p.*),
     ${eventCtes({ from: 'u', type: 'payout.returned', data: payoutJsonSql('u') })}
     SELECT id, merchant_id, amount FROM u ORDER BY merchant_id, seq`,
    [returns.map((r) => r.id), returns.map((r) => r.code), returns.map((r) => PAYOUT_RETURNS[r.code])],
  );
  // Balances last and in merchant order, as settlement does: concurrent writers never deadlock on them.
  const byMerchant = new Map<string, { payoutId: string; amount: number }[]>();
  for (const r of rows)
    byMerchant.set(r.merchant_id, [...(byMerchant.get(r.merchant_id) ?? []), { payoutId: r.id, amount: Number(r.amount) }]);
  for (const merchantId of [...byMerchant.keys()].sort()) await creditReturns(tx, merchantId, byMerchant.get(merchantId)!);
  return rows.map((r) => r.id);
}

/**
 * The bank's returns that are due (test accounts that return: lib/contract/test-accounts.ts), in
 * batches of one transaction each. Claimed through their payout_states rows, FOR UPDATE SKIP LOCKED:
 * instances share the work, and the lock order is the one settlement and simulate_payout take (a
 * payout's state row, then its payout row, which the update locks). Locking the payouts first
 * deadlocked with a simulate_payout of the same payout: it held the state row and waited for the
 * payout, while the update's trigger waited for the state row. The due payouts' seqs are handed to
 * payout_states as an array: as `IN (SELECT …)` the planner, without statistics, hashed them against
 * a sequential scan of every payout's state row, every second.
 */
export async function returnDuePayouts(db: Db, batchSize = 500, maxBatches = 10): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const returned = await db.transaction(async (tx) => {
      const due = await tx.query<{ id: string; account_number: string }>(
        `WITH due AS (SELECT seq FROM payouts WHERE return_after <= app_now() AND status = 'paid' AND ${notOnTestClockSql('payouts')}
                      ORDER BY return_after LIMIT $1)
         SELECT p.id, p.account_number
         FROM (SELECT seq FROM payout_states WHERE seq = ANY (ARRAY(SELECT seq FROM due)) AND state = 'paid' FOR UPDATE SKIP LOCKED) s
         JOIN payouts p ON p.seq = s.seq`,
        [batchSize],
      );
      return returnPayouts(
        tx,
        due.map((p) => {
          const outcome = simulatedOutcome(p.account_number);
          return { id: p.id, code: outcome.kind === 'returned' ? outcome.failureCode : 'returned_by_bank' };
        }),
      );
    });
    total += returned.length;
    if (returned.length < batchSize) break;
  }
  return total;
}
