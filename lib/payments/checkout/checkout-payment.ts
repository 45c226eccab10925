import { ApiError, REFUND_FAILING_TEST_CARD } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import { checkoutSessionJsonSql, eventCtes } from '../webhooks/event-sql';
import { credit } from '../ledger/ledger';
import { CHECKOUT_COLUMNS, type CheckoutSessionRow } from './checkout-session-object';

/** The test card that pays; every other well-formed number (4000 0000 0000 0002 in the docs) is declined. */
export const SUCCEEDING_TEST_CARD = '4242424242424242';
/** Cards that pay: 4242…, and the one whose refunds fail (lib/contract/refunds.ts). */
const PAYING_TEST_CARDS: readonly string[] = [SUCCEEDING_TEST_CARD, REFUND_FAILING_TEST_CARD];

export interface PublicCheckoutSession {
  id: string;
  merchantName: string;
  amount: number;
  currency: string;
  description: string | null;
  status: CheckoutSessionRow['status'];
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string;
}

/** What the hosted page may show a customer: no merchant key, no merchant id. */
export async function getPublicCheckoutSession(db: Db, id: string): Promise<PublicCheckoutSession | undefined> {
  const [row] = await db.query<CheckoutSessionRow & { merchant_name: string }>(
    `SELECT s.*, m.name AS merchant_name
     FROM (SELECT ${CHECKOUT_COLUMNS}, merchant_id FROM checkout_sessions WHERE id = $1) s
     JOIN merchants m ON m.id = s.merchant_id`,
    [id],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    merchantName: row.merchant_name,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    status: row.status,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/** A refused payment as a code of the one error table, and the field it is about. */
export const paymentRefusal = (outcome: Extract<PaymentOutcome, { ok: false }>) =>
  new ApiError(
    (
      {
        card_declined: 'card_declined',
        invalid_card: 'invalid_card',
        not_open: 'checkout_session_not_open',
        not_found: 'not_found',
      } as const
    )[outcome.code],
    outcome.message,
    outcome.code === 'invalid_card' || outcome.code === 'card_declined' ? 'card_number' : 'id',
  );

export type PaymentOutcome =
  | { ok: true; successUrl: string | null }
  | { ok: false; code: 'card_declined' | 'invalid_card' | 'not_open' | 'not_found'; message: string };

/**
 * Pays an open checkout session with a test card. The session's change to
 * `complete`, its checkout_session.completed event (URL from `origin`), the
 * credit to the merchant's balance and the ledger entry commit together; the conditional update lets exactly one of any number of concurrent
 * attempts (double clicks, two tabs) succeed.
 */
export async function payCheckoutSession(db: Db, id: string, cardNumber: string, origin: string): Promise<PaymentOutcome> {
  return db.transaction((tx) => payInTransaction(tx, id, cardNumber, origin));
}

/** The same in the caller's transaction (simulate_checkout_payment runs it in its request's). */
export async function payInTransaction(tx: Queryable, id: string, cardNumber: string, origin: string): Promise<PaymentOutcome> {
  const card = cardNumber.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(card)) return { ok: false, code: 'invalid_card', message: 'Enter a card number of 12 to 19 digits.' };
  if (!PAYING_TEST_CARDS.includes(card)) {
    return { ok: false, code: 'card_declined', message: 'The card was declined. Use 4242 4242 4242 4242 for a successful test payment.' };
  }
  // The hosted page carries no key: a session of a sandbox with a test clock is paid at its clock's time (pipeline/clock.ts).
  await tx.query(
    `SELECT set_config('payments.clock', clocked.clock_now::text, true)
     FROM checkout_sessions c JOIN sandboxes clocked ON clocked.merchant_id = c.merchant_id
     WHERE c.id = $1 AND clocked.clock_now IS NOT NULL`,
    [id],
  );
  const [session] = await tx.query<{ merchant_id: string; amount: number; success_url: string | null }>(
    `WITH s AS (
       UPDATE checkout_sessions SET status = 'complete', completed_at = app_now(), payment_card_last4 = $2
       WHERE id = $1 AND status = 'open' AND expires_at > app_now() RETURNING *),
     ${eventCtes({ from: 's', type: 'checkout_session.completed', data: checkoutSessionJsonSql('s', '$3') })}
     SELECT merchant_id, amount, success_url FROM s`,
    [id, card.slice(-4), origin],
  );
  if (!session) {
    const [exists] = await tx.query('SELECT 1 FROM checkout_sessions WHERE id = $1', [id]);
    return exists
      ? { ok: false, code: 'not_open', message: 'This checkout session is no longer open: it was paid or it expired.' }
      : { ok: false, code: 'not_found', message: 'No such checkout session.' };
  }
  await credit(tx, session.merchant_id, session.amount, 'checkout_payment', id);
  return { ok: true, successUrl: session.success_url };
}
