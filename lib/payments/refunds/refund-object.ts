/** A refund row as the API answers it. */
import type { CreatedBy, RefundStatus } from '../../contract';
import { iso } from '../pipeline/api-object';

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
