import Link from 'next/link';
import { createdByLabel, formatMoney } from '@/lib/format';
import type { Payout } from '@/lib/contract';
import { DataTable } from './data-table';
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
        { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
        {
          header: 'Status',
          cell: (p) => (
            <>
              <span className={`status status-${p.status}`}>{p.status}</span>
              {p.failure_code && <span className="muted"> ({p.failure_code})</span>}
            </>
          ),
        },
        { header: 'Account', cell: (p) => `${p.bank_code} •••• ${p.account_last4}` },
        { header: 'Created', cell: (p) => <Time iso={p.created_at} /> },
        { header: 'Created by', cell: (p) => createdByLabel(p.created_by), testId: 'created-by' },
        { header: 'Payout', cell: (p) => <Link href={`/payouts/${p.id}`}>Details</Link> },
      ]}
    />
  );
}
