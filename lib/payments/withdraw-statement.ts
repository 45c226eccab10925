import { eventCtes, payoutJsonSql } from './event-sql';
import { PAYOUT_COLUMNS, type PayoutObject } from './serialize';

export interface WithdrawalRow {
  payoutId: string;
  merchantId: string;
  amount: number;
  currency: string;
  bankCode: string;
  accountNumber: string;
  settleDelaySeconds: number;
  /** The key that made it, as JSON (payouts' created_by). */
  createdBy: string;
}

/** What a withdrawal will write, decided before any database work (withdrawal.ts); here, beside its row, so that
 * the action table (actions/action.ts) can name it without importing withdrawal.ts. */
export interface PreparedWithdrawal {
  row: WithdrawalRow;
  /** Its answer, given the timestamp of the transaction that writes it. */
  answer(now: Date): PayoutObject;
}

/**
 * A withdrawal in one statement: the conditional move from `available` to
 * `pending_payouts`, its ledger entry, the payout and its `payout.created` event
 * (with its deliveries, by the events trigger), each written only when the
 * balance covered the amount (no row back: refused, nothing written). `store`
 * adds the idempotency answer to the same statement. The transaction then only
 * has COMMIT left: the merchant's balance row, the one every withdrawal of the
 * merchant waits for, is locked for one round trip. The bench's floor runs this
 * very statement.
 */
export function withdrawStatement(w: WithdrawalRow, store?: (firstParam: number, cte: string) => { sql: string; params: unknown[] }) {
  const params: unknown[] = [w.merchantId, w.amount, w.payoutId, w.currency, w.bankCode, w.accountNumber, w.settleDelaySeconds, w.createdBy];
  const stored = store?.(params.length + 1, 'po');
  const sql = `WITH bal AS (
      UPDATE balances SET available = available - $2, pending_payouts = pending_payouts + $2, updated_at = now()
      WHERE merchant_id = $1 AND available >= $2 RETURNING available),
    entry AS (
      INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
      SELECT $1, -$2::bigint, available, 'payout', $3 FROM bal),
    po AS (
      INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, created_by)
      SELECT $3, $1, $2, $4, $5, $6, 'pending', now() + make_interval(secs => $7), $8::json FROM bal
      RETURNING ${PAYOUT_COLUMNS}),
    ${eventCtes({ from: 'po', type: 'payout.created', data: payoutJsonSql('po'), merchantSql: '$1' })}${stored ? `,
    stored AS (${stored.sql})` : ''}
    SELECT * FROM po`;
  return { sql, params: stored ? [...params, ...stored.params] : params };
}
