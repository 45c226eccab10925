/** A checkout session row as the API answers it. */
import type { CheckoutSessionStatus, CreatedBy } from '../../contract';
import { iso } from '../pipeline/api-object';

export interface CheckoutSessionRow {
  id: string;
  amount: number;
  currency: string;
  description: string | null;
  success_url: string | null;
  cancel_url: string | null;
  status: CheckoutSessionStatus;
  expires_at: Date;
  created_at: Date;
  completed_at: Date | null;
  card_last4: string | null;
  amount_refunded: number;
  created_by: CreatedBy;
}

/** An open session past its expiry reads as expired even before the sweeper marks it. */
export const CHECKOUT_COLUMNS = `id, amount, currency, description, success_url, cancel_url,
  CASE WHEN status = 'open' AND expires_at <= app_now() THEN 'expired' ELSE status END AS status,
  expires_at, created_at, completed_at, payment_card_last4 AS card_last4, amount_refunded, created_by`;

export const checkoutSessionObject = (r: CheckoutSessionRow, origin: string) => ({
  object: 'checkout_session' as const,
  id: r.id,
  url: `${origin}/checkout/${r.id}`,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  description: r.description,
  success_url: r.success_url,
  cancel_url: r.cancel_url,
  expires_at: iso(r.expires_at),
  created_at: iso(r.created_at),
  completed_at: iso(r.completed_at),
  card_last4: r.card_last4,
  amount_refunded: Number(r.amount_refunded),
  created_by: r.created_by ?? null,
  livemode: false,
});

export type CheckoutSessionObject = ReturnType<typeof checkoutSessionObject>;
