'use client';
import Link from 'next/link';
import { useInfiniteQuery } from '@tanstack/react-query';
import { checkoutSessionPagesQuery } from '@/console/browser/queries/queries';
import { createdByLabel, formatMoney, refundMark } from '@/lib/format';
import { CopyLink } from './copy-link';
import { LoadMoreButton } from './load-more-button';
import { DataTable } from './data-table';
import { NoCheckoutSessions } from './empty-state';
import { ErrorText } from './error-text';
import { Time } from './time-zone';

/** Checkout sessions, newest first, a page at a time. */
export function CheckoutSessionsTable() {
  const query = useInfiniteQuery(checkoutSessionPagesQuery());
  const { data, error, isPending } = query;
  if (isPending) return <p className="muted">Loading checkout sessions…</p>;
  if (error && !data)
    return (
      <p className="error" role="alert">
        The checkout sessions could not be loaded: <ErrorText error={error} />
      </p>
    );
  if (data.length === 0) return <NoCheckoutSessions />;
  return (
    <>
      <DataTable
        label="Checkout sessions"
        rows={data}
        rowKey={(s) => s.id}
        rowProps={(s) => ({
          'data-testid': 'checkout-row',
          'data-session-id': s.id,
          'data-status': s.status,
          'data-refund': refundMark(s) ?? 'none',
        })}
        columns={[
          { header: 'Amount', cell: (s) => <Link href={`/checkout-sessions/${s.id}`}>{formatMoney(s.amount, s.currency)}</Link> },
          { header: 'Description', cell: (s) => s.description ?? <span className="muted">none</span> },
          {
            header: 'Status',
            cell: (s) => (
              <>
                <span className={`status status-${s.status}`}>{s.status}</span>
                {refundMark(s) === 'partly refunded' && (
                  <span className="status status-partly-refunded" title={`${formatMoney(s.amount_refunded, s.currency)} refunded`}>
                    {' '}
                    partly refunded
                  </span>
                )}
              </>
            ),
          },
          { header: 'Expires', cell: (s) => <Time iso={s.expires_at} /> },
          { header: 'Created by', cell: (s) => createdByLabel(s.created_by), testId: 'created-by' },
          { header: 'Link', cell: (s) => (s.status === 'open' ? <CopyLink url={s.url} /> : <span className="muted">closed</span>) },
        ]}
      />
      <LoadMoreButton query={query} noun="checkout sessions" />
    </>
  );
}
