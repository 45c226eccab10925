import type { Db } from '../db/types';
import {
  getPublicCheckoutSession,
  payCheckoutSession,
  paymentRefusal,
  type PublicCheckoutSession,
} from '../payments/checkout/checkout-payment';

/**
 * The hosted checkout page's data: the provider's page, on the API's side. Built by the API
 * runtime over its payment database and handed to the page by the start script (scripts/start.ts);
 * a console-only process has no payment database, so it hands none and the page is not served there.
 */
export interface HostedCheckout {
  find(id: string): Promise<PublicCheckoutSession | undefined>;
  /** Pays with a test card; the core lets exactly one payment through. The answer in the one error shape. */
  pay(id: string, cardNumber: string, requestOrigin: string): Promise<{ status: number; body: unknown }>;
}

export function createHostedCheckout(db: Db, publicBaseUrl: string | undefined): HostedCheckout {
  return {
    find: (id) => getPublicCheckoutSession(db, id),
    async pay(id, cardNumber, requestOrigin) {
      const outcome = await payCheckoutSession(db, id, cardNumber, publicBaseUrl ?? requestOrigin);
      if (outcome.ok) return { status: 200, body: { status: 'complete', success_url: outcome.successUrl } };
      const refusal = paymentRefusal(outcome);
      return { status: refusal.status, body: refusal.toBody() };
    },
  };
}

const SLOT = Symbol.for('merchant-payments.hosted-checkout');
type WithSlot = typeof globalThis & { [SLOT]?: HostedCheckout };

/** Called once by the start script of a process that runs the API. Kept on globalThis: Next loads this module in several bundles. */
export function provideHostedCheckout(checkout: HostedCheckout): void {
  (globalThis as WithSlot)[SLOT] = checkout;
}

/** The hosted checkout of this process, or undefined where the API runs elsewhere (the page answers 404). */
export function hostedCheckout(): HostedCheckout | undefined {
  return (globalThis as WithSlot)[SLOT];
}
