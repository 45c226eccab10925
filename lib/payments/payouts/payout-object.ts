/** A payout row as the API answers it: ISO times, the account masked to its last four, explicit nulls. */
import type { CreatedBy, PayoutStatus } from '../../contract';
import { iso } from '../pipeline/api-object';
import { payoutCreatedBySql } from '../webhooks/event-sql';

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
