import Link from 'next/link';
import { createdByLabel, formatMoney } from '@/lib/format';
import type { Payout } from '@/lib/contract';
import { payoutStatusLabel, PAYOUT_STATUS } from '@/console/browser/labels';
import { DataTable } from './data-table';
import { StatusBadge } from './status-badge';
import { Time } from './time-zone';

/** Payouts as given (newest first), one row each, with an optional note under them. */
export function PayoutsTable({ payouts, note }: { payouts: Payout[]; note?: string }) {
  return (
    <DataTable
      label="Payouts"
      rows={payouts}
      rowKey={(p) => p.id}
      rowProps={(p) => ({ 'data-testid': 'payout-row', 'data-payout-id': p.id, 'data-status': p.status })}
      footer={note}
      columns={[
        { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency), numeric: true },
        {
          header: 'Status',
          cell: (p) => <StatusBadge label={payoutStatusLabel(p)} tone={PAYOUT_STATUS[p.status].tone} code={p.status} />,
        },
        { header: 'Account', cell: (p) => <span className="nowrap">{`${p.bank_code} •••• ${p.account_last4}`}</span> },
        { header: 'Created', cell: (p) => <Time iso={p.created_at} /> },
        { header: 'Created by', cell: (p) => createdByLabel(p.created_by), testId: 'created-by' },
        { header: 'Payout', cell: (p) => <Link href={`/payouts/${p.id}`}>Details</Link> },
      ]}
    />
  );
}
