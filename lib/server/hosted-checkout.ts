import 'server-only';
import { payCheckoutSession, paymentRefusal } from '../payments/checkout-payment';
import { getRuntime } from '../server/runtime';
import { ApiError } from '../contract';
import { jsonResponse, toErrorResponse } from './errors';

/** Pays the session and answers in the one error shape; the core lets exactly one payment through. */
export async function payCheckoutOutcome(id: string, cardNumber: string, requestOrigin: string): Promise<Response> {
  const { db, settings, consoleOnly } = await getRuntime();
  // The hosted page is the API's: a console-only process holds no checkout sessions.
  if (consoleOnly) return toErrorResponse(new ApiError('not_found', 'Checkout sessions are paid where the payment API runs.')).response;
  const outcome = await payCheckoutSession(db, id, cardNumber, settings.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? requestOrigin);
  if (outcome.ok) return jsonResponse(200, { status: 'complete', success_url: outcome.successUrl });
  return toErrorResponse(paymentRefusal(outcome)).response;
}
