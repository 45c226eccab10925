'use client';
import { useQuery } from '@tanstack/react-query';
import { sessionRefundsQuery } from '@/console/browser/queries/queries';
import { createdByLabel, formatMoney } from '@/lib/format';
import { ErrorText } from './error-text';
import { RefundForm } from './refund-form';
import { DataTable } from './data-table';
import { RefundStatusBadge } from './refund-status-badge';
import { Time } from './time-zone';

interface PaidSession {
  id: string;
  amount: number;
  currency: string;
  status: string;
}

/**
 * A paid session's refunds: what was refunded, what is left, each refund with its
 * status (polled while one is pending), and the Refund action for a key that may.
 * "Left" counts the refunds that did not fail, as the API's amount_refunded does.
 */
export function RefundPanel({
  session,
  canRefund,
  retentionSeconds,
}: {
  session: PaidSession;
  canRefund: boolean;
  retentionSeconds: number;
}) {
  const query = useQuery(sessionRefundsQuery(session.id));
  if (query.isPending) return <p className="muted">Loading refunds…</p>;
  if (query.error && !query.data)
    return (
      <p className="error" role="alert">
        The refunds could not be loaded: <ErrorText error={query.error} />
      </p>
    );
  const refunds = query.data.data;
  const refunded = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
  const left = session.amount - refunded;
  return (
    <>
      <dl className="details">
        <dt>Refunded</dt>
        <dd data-testid="cs-refunded" data-amount={refunded}>
          {formatMoney(refunded, session.currency)}
        </dd>
        <dt>Left to refund</dt>
        <dd data-testid="cs-left-to-refund" data-amount={left}>
          {formatMoney(left, session.currency)}
        </dd>
      </dl>
      {canRefund && <RefundForm sessionId={session.id} left={left} currency={session.currency} retentionSeconds={retentionSeconds} />}
      {refunds.length === 0 ? (
        <p className="muted">No refunds yet.</p>
      ) : (
        <DataTable
          label="Refunds"
          rows={refunds}
          rowKey={(r) => r.id}
          rowProps={(r) => ({
            id: r.id,
            'data-testid': 'refund-row',
            'data-refund-id': r.id,
            'data-status': r.status,
            'data-amount': r.amount,
          })}
          columns={[
            { header: 'Created', cell: (r) => <Time iso={r.created_at} /> },
            { header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency), numeric: true },
            {
              header: 'Status',
              cell: (r) => <RefundStatusBadge refund={r} />,
            },
            { header: 'Reason', cell: (r) => r.reason ?? <span className="muted">none</span> },
            { header: 'Created by', cell: (r) => createdByLabel(r.created_by) },
            { header: 'Id', cell: (r) => <code>{r.id}</code> },
          ]}
        />
      )}
    </>
  );
}
