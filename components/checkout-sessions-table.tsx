'use client';
import Link from 'next/link';
import { useInfiniteQuery } from '@tanstack/react-query';
import { checkoutSessionPagesQuery } from '@/lib/client/queries';
import { createdByLabel, formatMoney, formatTime, refundMark } from '@/lib/format';
import { CopyLink } from './copy-link';
import { LoadMoreButton } from './load-more-button';
import { TableScroll } from './table-scroll';
import { NoCheckoutSessions } from './empty-state';
import { ErrorText } from './error-text';

/** Checkout sessions, newest first, a page at a time. */
export function CheckoutSessionsTable() {
  const query = useInfiniteQuery(checkoutSessionPagesQuery());
  const { data, error, isPending } = query;
  if (isPending) return <p className="muted">Loading checkout sessions…</p>;
  if (error && !data) return <p className="error" role="alert">The checkout sessions could not be loaded: <ErrorText error={error} /></p>;
  if (data.length === 0) return <NoCheckoutSessions />;
  return (
    <>
      <TableScroll label="Checkout sessions table">
      <table className="table" aria-label="Checkout sessions">
        <thead>
          <tr>
            <th scope="col">Amount</th>
            <th scope="col">Description</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Created by</th>
            <th scope="col">Link</th>
          </tr>
        </thead>
        <tbody>
          {data.map((s) => (
            <tr key={s.id} data-testid="checkout-row" data-session-id={s.id} data-status={s.status} data-refund={refundMark(s) ?? 'none'}>
              <td>
                <Link href={`/checkout-sessions/${s.id}`}>{formatMoney(s.amount, s.currency)}</Link>
              </td>
              <td>{s.description ?? <span className="muted">none</span>}</td>
              <td>
                <span className={`status status-${s.status}`}>{s.status}</span>
                {refundMark(s) === 'partly refunded' && (
                  <span className="status status-partly-refunded" title={`${formatMoney(s.amount_refunded, s.currency)} refunded`}>
                    {' '}partly refunded
                  </span>
                )}
              </td>
              <td>{formatTime(s.expires_at)}</td>
              <td data-testid="created-by">{createdByLabel(s.created_by)}</td>
              <td>{s.status === 'open' ? <CopyLink url={s.url} /> : <span className="muted">closed</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </TableScroll>
      <LoadMoreButton query={query} noun="checkout sessions" />
    </>
  );
}
