import 'server-only';
import { payCheckoutSession } from '../payments/checkout-payment';
import { getRuntime } from '../server/runtime';
import { ApiError } from '../contract';
import { jsonResponse, toErrorResponse } from './errors';

/** The core's outcomes as codes of the one error table. */
const CODE = { card_declined: 'card_declined', invalid_card: 'invalid_card', not_open: 'checkout_session_not_open', not_found: 'not_found' } as const;

/** Pays the session and answers in the one error shape; the core lets exactly one payment through. */
export async function payCheckoutOutcome(id: string, cardNumber: string): Promise<Response> {
  const { db } = await getRuntime();
  const outcome = await payCheckoutSession(db, id, cardNumber);
  if (outcome.ok) return jsonResponse(200, { status: 'complete', success_url: outcome.successUrl });
  const param = outcome.code === 'invalid_card' || outcome.code === 'card_declined' ? 'card_number' : undefined;
  return toErrorResponse(new ApiError(CODE[outcome.code], outcome.message, param)).response;
}
