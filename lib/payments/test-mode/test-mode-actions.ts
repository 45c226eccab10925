import {
  ApiError,
  DEFAULT_RETURN_CODE,
  PAYOUT_FAILURES,
  PAYOUT_RETURNS,
  type PayoutFailureCode,
  type PayoutReturnCode,
} from '../../contract';
import { returnPayouts } from '../payouts/payout-returns';
import { payInTransaction, paymentRefusal, SUCCEEDING_TEST_CARD } from '../checkout/checkout-payment';
import { credit } from '../ledger/ledger';
import { newId } from '../pipeline/random-id';
import { CHECKOUT_COLUMNS, checkoutSessionObject, type CheckoutSessionRow } from '../checkout/checkout-session-object';
import { PAYOUT_COLUMNS, payoutObject, type PayoutRow } from '../payouts/payout-object';
import { settleSet, type DuePayout } from '../payouts/settlement';
import { writeAction } from '../pipeline/action';
import { getBalance } from '../ledger/balance-actions';

/**
 * Test-mode helpers for end-to-end suites: each goes through the same code as the
 * real path (the settlement job's settleSet, the hosted page's payment, the
 * ledger's credit) and refuses what that path would refuse.
 */

/**
 * simulate_payout: the bank answers now. A pending payout's state row is locked first, as the settlement
 * job claims it, then the payout: the job cannot settle it too, and the two never wait on each other crosswise.
 * `returned`: the bank sends a paid payout back, as a due return of a returning test account would.
 */
export const simulatePayout = writeAction('simulate_payout', async ({ db, merchant }, input) => {
  const code = input.failure_code;
  const returns = input.outcome === 'returned';
  if (code !== undefined && (returns ? !(code in PAYOUT_RETURNS) : input.outcome === 'paid' || !(code in PAYOUT_FAILURES))) {
    const allowed = returns ? Object.keys(PAYOUT_RETURNS) : input.outcome === 'failed' ? Object.keys(PAYOUT_FAILURES) : [];
    throw new ApiError(
      'invalid_request',
      allowed.length > 0
        ? `failure_code of a ${input.outcome} payout must be one of ${allowed.join(', ')}`
        : 'failure_code is only for failed or returned',
      'failure_code',
    );
  }
  await db.query(`SELECT 1 FROM payout_states WHERE seq = (SELECT seq FROM payouts WHERE id = $1 AND merchant_id = $2) FOR UPDATE`, [
    input.id,
    merchant.id,
  ]);
  const [due] = await db.query<DuePayout & { status: string }>(
    `SELECT id, merchant_id, amount, account_number, settle_attempts, status FROM payouts WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
    [input.id, merchant.id],
  );
  if (!due) throw new ApiError('not_found', `No such payout: ${input.id}`, 'id');
  if (returns) {
    if (due.status !== 'paid')
      throw new ApiError('payout_not_paid', `Payout ${input.id} is ${due.status}: only a paid payout can be returned.`, 'id');
    await returnPayouts(db, [{ id: due.id, code: (code as PayoutReturnCode | undefined) ?? DEFAULT_RETURN_CODE }]);
  } else {
    if (due.status !== 'pending') throw new ApiError('payout_not_pending', `Payout ${input.id} is already ${due.status}.`, 'id');
    const failure = (code as PayoutFailureCode | undefined) ?? 'rejected_by_bank';
    await settleSet(db, [due], () =>
      input.outcome === 'paid' ? { kind: 'paid' } : { kind: 'failed', failureCode: failure, failureMessage: PAYOUT_FAILURES[failure] },
    );
  }
  const [row] = await db.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1`, [input.id]);
  return payoutObject(row!);
});

/** simulate_checkout_payment: pays an open session of this merchant as the hosted page would. */
export const simulateCheckoutPayment = writeAction('simulate_checkout_payment', async ({ db, merchant, origin }, input) => {
  const [own] = await db.query('SELECT 1 FROM checkout_sessions WHERE id = $1 AND merchant_id = $2', [input.id, merchant.id]);
  if (!own) throw new ApiError('not_found', `No such checkout session: ${input.id}`, 'id');
  const outcome = await payInTransaction(db, input.id, input.card_number ?? SUCCEEDING_TEST_CARD, origin);
  if (!outcome.ok) throw paymentRefusal(outcome);
  const [row] = await db.query<CheckoutSessionRow>(`SELECT ${CHECKOUT_COLUMNS} FROM checkout_sessions WHERE id = $1`, [input.id]);
  return checkoutSessionObject(row!, origin);
});

/** create_test_topup: money in, with a ledger entry of its own kind; answers the balance after it. */
export const createTestTopup = writeAction('create_test_topup', async (ctx, input) => {
  await credit(ctx.db, ctx.merchant.id, input.amount, 'topup', newId('tu'));
  return getBalance.read(ctx, { action: 'get_balance' });
});
