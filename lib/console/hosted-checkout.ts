import 'server-only';
import { payCheckoutSession } from '../payments/checkout-payment';
import { getRuntime } from '../server/runtime';
import { jsonResponse } from './errors';

const STATUS = { card_declined: 402, invalid_card: 400, not_open: 409, not_found: 404 } as const;
const CODE = { card_declined: 'card_declined', invalid_card: 'invalid_card', not_open: 'checkout_session_not_open', not_found: 'not_found' } as const;

/** Pays the session and answers in the one error shape; the core lets exactly one payment through. */
export async function payCheckoutOutcome(id: string, cardNumber: string): Promise<Response> {
  const { db } = await getRuntime();
  const outcome = await payCheckoutSession(db, id, cardNumber);
  if (outcome.ok) return jsonResponse(200, { status: 'complete', success_url: outcome.successUrl });
  const type = outcome.code === 'card_declined' ? 'card_error' : 'invalid_request_error';
  return jsonResponse(STATUS[outcome.code], {
    error: { type, code: CODE[outcome.code], message: outcome.message, ...(outcome.code === 'invalid_card' || outcome.code === 'card_declined' ? { param: 'card_number' } : {}) },
  });
}
