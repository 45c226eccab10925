'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { payoutSummaryQuery } from '@/console/browser/queries/queries';
import { formatMoney } from '@/lib/format';

const WAITING = { status: 'awaiting_approval' as const };

/** The dashboard's line about the approval queue: how many payouts wait, and where to decide them. */
export function ApprovalsWaiting() {
  const summary = useQuery(payoutSummaryQuery(WAITING));
  if (!summary.data) return null;
  const { count, total_amount, currency } = summary.data;
  return (
    <p data-testid="approvals-waiting" role="status">
      {count === 0
        ? 'No payout is waiting for approval.'
        : `${count} ${count === 1 ? 'payout waits' : 'payouts wait'} for approval (${formatMoney(total_amount, currency)}).`}{' '}
      {count > 0 && <Link href="/approvals">Review them in Approvals</Link>}
    </p>
  );
}
