/** Database rows to the API's resource objects: ISO times, masked accounts, explicit nulls. */
import type { CheckoutSessionStatus, CreatedBy, PayoutStatus, RefundStatus } from '../contract';

/** A time as the API answers it: ISO 8601, UTC. */
export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export interface PayoutRow {
  id: string;
  amount: number;
  currency: string;
  bank_code: string;
  account_number: string;
  status: PayoutStatus;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  settled_at: Date | null;
  batch_id: string | null;
  reference: string | null;
  created_by: CreatedBy;
  account_holder_name: string | null;
  approval_expires_at: Date | null;
  approved_by: ActingKey | null;
  approved_at: Date | null;
  rejected_by: ActingKey | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
  /** Absent in an answer built before the payout is written (a new payout has neither). */
  bank_reference?: string | null;
  returned_at?: Date | null;
}

/** Who approved or rejected a payout. */
export interface ActingKey {
  key_id: string;
  key_name: string | null;
}

/**
 * A payout's `created_by` (`t`: the payouts' alias, or '' unqualified): its own, or, for a batch's payout stored
 * without it (migration 075), its batch's.
 */
export const payoutCreatedBySql = (t = '') =>
  `COALESCE(${t ? `${t}.` : ''}created_by, (SELECT b.created_by FROM payout_batches b WHERE b.id = ${t ? `${t}.` : ''}batch_id))`;

export const PAYOUT_COLUMNS =
  'id, amount, currency, bank_code, account_number, status, failure_code, failure_message, created_at, settled_at, batch_id, reference, ' +
  `${payoutCreatedBySql()} AS created_by, ` +
  'account_holder_name, approval_expires_at, approved_by, approved_at, rejected_by, rejected_at, rejection_reason, bank_reference, returned_at';

export const payoutObject = (r: PayoutRow) => ({
  object: 'payout' as const,
  id: r.id,
  amount: r.amount,
  currency: r.currency,
  bank_code: r.bank_code,
  account_last4: r.account_number.slice(-4),
  status: r.status,
  failure_code: r.failure_code,
  failure_message: r.failure_message,
  created_at: iso(r.created_at),
  settled_at: iso(r.settled_at),
  bank_reference: r.bank_reference ?? null,
  // A returned payout was paid first: its settlement is when it was paid.
  paid_at: r.status === 'paid' || r.status === 'returned' ? iso(r.settled_at) : null,
  returned_at: iso(r.returned_at ?? null),
  batch_id: r.batch_id,
  reference: r.reference,
  created_by: r.created_by ?? null,
  account_holder_name: r.account_holder_name ?? null,
  approval_expires_at: iso(r.approval_expires_at ?? null),
  approved_by: r.approved_by ?? null,
  approved_at: iso(r.approved_at ?? null),
  rejected_by: r.rejected_by ?? null,
  rejected_at: iso(r.rejected_at ?? null),
  rejection_reason: r.rejection_reason ?? null,
  livemode: false,
});

export type PayoutObject = ReturnType<typeof payoutObject>;

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

export interface RefundRow {
  id: string;
  checkout_session_id: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  reason: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  settled_at: Date | null;
  created_by: CreatedBy;
}

export const REFUND_COLUMNS =
  'id, checkout_session_id, amount, currency, status, reason, failure_code, failure_message, created_at, settled_at, created_by';

export const refundObject = (r: RefundRow) => ({
  object: 'refund' as const,
  id: r.id,
  checkout_session_id: r.checkout_session_id,
  amount: Number(r.amount),
  currency: r.currency,
  status: r.status,
  reason: r.reason,
  failure_code: r.failure_code,
  failure_message: r.failure_message,
  created_at: iso(r.created_at),
  settled_at: iso(r.settled_at),
  created_by: r.created_by ?? null,
  livemode: false,
});

export type RefundObject = ReturnType<typeof refundObject>;

/** Cursor pages, newest first: the shape every list_* action returns. */
export const listObject = <T>(data: T[], hasMore: boolean) => ({ object: 'list' as const, data, has_more: hasMore });
