import { ApiError } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import type { CallerKey } from '../pipeline/caller';
import { eventCtes, payoutCreatedBySql, payoutJsonSql } from '../webhooks/event-sql';
import { PAYOUT_COLUMNS, payoutObject, type PayoutRow } from './payout-object';
import { notOnTestClockSql } from '../pipeline/clock';

/**
 * The end of a payout's wait for approval: approved (to pending, then
 * settled as any payout), rejected or expired (the amount back to available with
 * a `payout_reversal` ledger entry). Each is one statement that moves the
 * payouts, the merchant's balance figures, the ledger and the events together,
 * and touches only payouts still awaiting approval.
 */

/** The payouts an approval names: by id, or every waiting payout of a batch. */
export type ApprovalTarget = { ids: string[] } | { batchId: string };

interface Candidate {
  id: string;
  status: string;
  creator: string | null;
  due: boolean;
}

/**
 * Locks the payouts the call names (their state rows in seq order, then the payouts in
 * id order: two approvals of the same payouts cannot deadlock) and refuses the whole
 * call, naming the first payout at fault, unless every one is the merchant's (404),
 * awaiting approval and not past its expiry (409), and made by another key (403: four
 * eyes). Nothing is written here.
 */
export async function lockForDecision(tx: Queryable, merchantId: string, key: CallerKey, target: ApprovalTarget): Promise<string[]> {
  const cols = `id, status, ${payoutCreatedBySql()}->>'key_id' AS creator, approval_expires_at <= app_now() AS due`;
  let rows: Candidate[];
  let param: (i: number, id: string) => string;
  if ('batchId' in target) {
    const [batch] = await tx.query('SELECT 1 FROM payout_batches WHERE id = $1 AND merchant_id = $2', [target.batchId, merchantId]);
    if (!batch) throw new ApiError('not_found', `No such payout batch: ${target.batchId}`, 'batch_id');
  }
  // The payouts named: the call's ids, or the batch's waiting payouts. Their state rows are locked first, the order
  // settlement, the returns job and simulate_payout take (docs/prove.md, "Lock order").
  const [named, value] =
    'ids' in target ? ['id = ANY($2::text[])', target.ids] : [`batch_id = $2 AND status = 'awaiting_approval'`, target.batchId];
  await tx.query(
    `SELECT 1 FROM payout_states WHERE seq IN (SELECT seq FROM payouts WHERE merchant_id = $1 AND ${named}) ORDER BY seq FOR UPDATE`,
    [merchantId, value],
  );
  const found = await tx.query<Candidate>(`SELECT ${cols} FROM payouts WHERE merchant_id = $1 AND ${named} ORDER BY id FOR UPDATE`, [
    merchantId,
    value,
  ]);
  if ('ids' in target) {
    const byId = new Map(found.map((r) => [r.id, r]));
    target.ids.forEach((id, i) => {
      if (!byId.has(id)) throw new ApiError('not_found', `No such payout: ${id}; nothing was changed.`, `ids[${i}]`);
    });
    rows = target.ids.map((id) => byId.get(id)!);
    param = (i) => `ids[${i}]`;
  } else {
    rows = found;
    if (rows.length === 0) {
      throw new ApiError(
        'payout_not_awaiting_approval',
        `No payout of batch ${target.batchId} is awaiting approval; nothing was changed.`,
        'batch_id',
      );
    }
    param = () => 'batch_id';
  }
  rows.forEach((r, i) => {
    if (r.status !== 'awaiting_approval' || r.due) {
      const state = r.status === 'awaiting_approval' ? 'past its approval expiry' : r.status;
      throw new ApiError(
        'payout_not_awaiting_approval',
        `Payout ${r.id} is not awaiting approval (it is ${state}); nothing was changed.`,
        param(i, r.id),
      );
    }
  });
  rows.forEach((r, i) => {
    if (r.creator === key.id) {
      throw new ApiError(
        'self_approval_not_allowed',
        `Payout ${r.id} was created by this key; another key must approve or reject it. Nothing was changed.`,
        param(i, r.id),
      );
    }
  });
  return rows.map((r) => r.id);
}

const actingKey = (key: CallerKey) => JSON.stringify({ key_id: key.id, key_name: key.name });

/** Sorts answers in the order the call named the payouts. */
const inOrder = (rows: PayoutRow[], ids: string[]) => {
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!).map(payoutObject);
};

/** Approves locked waiting payouts: pending, due for settlement after their original delay from now. */
export async function approvePayouts(tx: Queryable, merchantId: string, key: CallerKey, ids: string[]) {
  const rows = await tx.query<PayoutRow>(
    `WITH u AS (
       UPDATE payouts SET status = 'pending', approved_by = $3::json, approved_at = app_now(), settle_after = app_now() + (settle_after - created_at)
       WHERE merchant_id = $1 AND id = ANY($2::text[]) AND status = 'awaiting_approval'
       RETURNING *),
     tot AS (SELECT COALESCE(sum(amount), 0)::bigint AS total FROM u),
     bal AS (
       UPDATE balances b SET awaiting_approval = b.awaiting_approval - tot.total, pending_payouts = b.pending_payouts + tot.total, updated_at = app_now()
       FROM tot WHERE b.merchant_id = $1 RETURNING 1),
     ${eventCtes({ from: 'u', type: 'payout.approved', data: payoutJsonSql('u') })}
     SELECT ${PAYOUT_COLUMNS} FROM u`,
    [merchantId, ids, actingKey(key)],
  );
  if (rows.length !== ids.length) throw new Error(`approve_payouts moved ${rows.length} of ${ids.length} locked payouts`);
  return inOrder(rows, ids);
}

/**
 * Ends locked waiting payouts without paying them: rejected (by a key, with a
 * reason) or expired (by the expiry job). The amounts return to available, each
 * with its ledger entry (balance_after as if credited one by one).
 */
export async function endWaitingPayouts(
  tx: Queryable,
  merchantId: string,
  ids: string[],
  end: { status: 'rejected'; by: CallerKey; reason: string } | { status: 'expired' },
) {
  const rejected = end.status === 'rejected';
  const rows = await tx.query<PayoutRow>(
    `WITH u AS (
       UPDATE payouts SET status = $3, rejected_by = $4::json, rejected_at = CASE WHEN $3 = 'rejected' THEN app_now() END, rejection_reason = $5
       WHERE merchant_id = $1 AND id = ANY($2::text[]) AND status = 'awaiting_approval'
       RETURNING *),
     tot AS (SELECT COALESCE(sum(amount), 0)::bigint AS total FROM u),
     bal AS (
       UPDATE balances b SET available = b.available + tot.total, awaiting_approval = b.awaiting_approval - tot.total, updated_at = app_now()
       FROM tot WHERE b.merchant_id = $1 RETURNING b.available - tot.total AS opening),
     entry AS (
       INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
       SELECT $1, u.amount, bal.opening + sum(u.amount) OVER (ORDER BY u.seq), 'payout_reversal', u.id
       FROM u, bal ORDER BY u.seq),
     ${eventCtes({ from: 'u', type: rejected ? 'payout.rejected' : 'payout.expired', data: payoutJsonSql('u') })}
     SELECT ${PAYOUT_COLUMNS} FROM u`,
    [merchantId, ids, end.status, rejected ? actingKey(end.by) : null, rejected ? end.reason : null],
  );
  if (rows.length !== ids.length) throw new Error(`${end.status}: ended ${rows.length} of ${ids.length} locked payouts`);
  return inOrder(rows, ids);
}

/**
 * The expiry job: waiting payouts past approval_expires_at end `expired`, one
 * transaction per merchant, claimed with FOR UPDATE SKIP LOCKED so that several
 * instances share the work (and an approval in progress keeps its payouts). A
 * merchant whose expiry throws is skipped and told to `onError`; the others go on.
 */
export async function expireUnapprovedPayouts(
  db: Db,
  onError: (merchantId: string, error: unknown) => void = () => {},
  batchSize = 500,
): Promise<number> {
  const merchants = await db.query<{ merchant_id: string }>(
    `SELECT DISTINCT merchant_id FROM (SELECT merchant_id FROM payout_states WHERE state = 'awaiting_approval' AND due_at <= app_now()
       AND ${notOnTestClockSql('payout_states')}
       ORDER BY due_at LIMIT $1) due ORDER BY merchant_id`,
    [batchSize],
  );
  let expired = 0;
  for (const { merchant_id: merchantId } of merchants) {
    try {
      expired += await db.transaction(async (tx) => {
        const due = await tx.query<{ id: string }>(
          `SELECT id FROM payouts WHERE seq IN (
             SELECT seq FROM payout_states WHERE merchant_id = $1 AND state = 'awaiting_approval' AND due_at <= app_now()
             ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
             AND status = 'awaiting_approval' AND approval_expires_at <= app_now()
           ORDER BY id FOR UPDATE`,
          [merchantId, batchSize],
        );
        if (due.length === 0) return 0;
        return (
          await endWaitingPayouts(
            tx,
            merchantId,
            due.map((d) => d.id),
            { status: 'expired' },
          )
        ).length;
      });
    } catch (error) {
      onError(merchantId, error);
    }
  }
  return expired;
}

/** Bank account look-ups past their 24 hours (validate_bank_account), in bounded batches. */
export async function purgeExpiredValidations(db: Db, batchSize = 1000): Promise<number> {
  const [row] = await db.query<{ purged: number }>(
    `WITH d AS (DELETE FROM bank_account_validations WHERE id IN (
       SELECT id FROM bank_account_validations WHERE expires_at <= app_now() LIMIT $1) RETURNING 1)
     SELECT count(*)::int AS purged FROM d`,
    [batchSize],
  );
  return row!.purged;
}
