import type { Refund } from '@/lib/contract';
import { REFUND_STATUS, refundFailureLabel } from '@/console/browser/labels';
import { StatusBadge } from './status-badge';

/** A refund's status in words, why it failed when it did; the bank's own message in the badge's title. */
export function RefundStatusBadge({ refund: r }: { refund: Pick<Refund, 'status' | 'failure_code' | 'failure_message'> }) {
  return (
    <StatusBadge
      label={r.failure_code ? `${REFUND_STATUS[r.status].label}: ${refundFailureLabel(r.failure_code)}` : REFUND_STATUS[r.status].label}
      tone={REFUND_STATUS[r.status].tone}
      code={r.status}
      title={r.failure_message ?? undefined}
    />
  );
}
