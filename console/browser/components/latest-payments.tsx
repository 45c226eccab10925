import Link from 'next/link';
import type { BalanceTransaction } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { EmptyState } from './empty-state';
import { DataTable } from './data-table';
import { Time } from './time-zone';

/** The newest completed checkout payments, each linked to its session. */
export function LatestPayments({ payments }: { payments: BalanceTransaction[] }) {
  if (payments.length === 0) {
    return (
      <EmptyState>
        <p>
          No payments yet. <Link href="/checkout-sessions">Create a payment link</Link> and send it to your customer.
        </p>
      </EmptyState>
    );
  }
  return (
    <DataTable
      label="Latest payments"
      rows={payments}
      rowKey={(t) => t.id}
      rowProps={(t) => ({ 'data-testid': 'payment-row', 'data-session-id': t.source, 'data-amount': t.amount })}
      columns={[
        { header: 'Amount', cell: (t) => formatMoney(t.amount, t.currency) },
        { header: 'Paid', cell: (t) => <Time iso={t.created_at} /> },
        { header: 'Checkout session', cell: (t) => <Link href={`/checkout-sessions/${t.source}`}>{t.source}</Link> },
      ]}
    />
  );
}
