import Link from 'next/link';
import type { PayoutBatchListItem } from '@/lib/contract';
import { createdByLabel, formatMoney } from '@/lib/format';
import { PAYOUT_BATCH_STATUS } from '@/console/browser/labels';
import { DataTable } from './data-table';
import { StatusBadge } from './status-badge';
import { Time } from './time-zone';

/** Still on their way: pending at the bank, or waiting for an approver. */
export const stillOpen = (b: Pick<PayoutBatchListItem, 'counts'>) => b.counts.pending + b.counts.awaiting_approval;
/** Ended without the money arriving: failed, rejected, expired or returned by the bank. */
export const notPaid = (b: Pick<PayoutBatchListItem, 'counts'>) =>
  b.counts.failed + b.counts.rejected + b.counts.expired + b.counts.returned;

/** Batches, newest first: when, who made them (the console or a key through the API), how many of their payouts ended how. */
export function PayoutBatchesTable({ batches }: { batches: PayoutBatchListItem[] }) {
  return (
    <DataTable
      label="Payout batches"
      rows={batches}
      rowKey={(b) => b.id}
      rowProps={(b) => ({
        'data-testid': 'batch-row',
        'data-batch-id': b.id,
        'data-paid': b.counts.paid,
        'data-failed': notPaid(b),
        'data-pending': stillOpen(b),
        'data-count': b.payout_count,
      })}
      columns={[
        { header: 'Created', cell: (b) => <Time iso={b.created_at} /> },
        {
          header: 'Batch',
          cell: (b) => (
            <>
              <Link href={`/payout-batches/${b.id}`}>{b.id}</Link>
              <div>
                <StatusBadge {...PAYOUT_BATCH_STATUS[b.status]} code={b.status} />
              </div>
            </>
          ),
        },
        { header: 'Made by', cell: (b) => createdByLabel(b.created_by) },
        { header: 'Payouts', numeric: true, cell: (b) => b.payout_count.toLocaleString('en-US') },
        { header: 'Paid', numeric: true, cell: (b) => b.counts.paid.toLocaleString('en-US') },
        { header: 'Not paid', numeric: true, cell: (b) => notPaid(b).toLocaleString('en-US') },
        { header: 'Pending', numeric: true, cell: (b) => stillOpen(b).toLocaleString('en-US') },
        { header: 'Total', numeric: true, cell: (b) => formatMoney(b.total_amount, b.currency) },
      ]}
    />
  );
}
