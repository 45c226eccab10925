'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { payoutsQuery } from '@/lib/client/queries';
import { formatMoney, formatTime } from '@/lib/format';
import type { PayoutStatus } from '@/lib/upstream/schemas';

/** Newest first; polls while any payout is still settling. */
export function PayoutsTable({ status = 'all', limit = 20 }: { status?: PayoutStatus | 'all'; limit?: number }) {
  const { data, error, isPending } = useQuery(payoutsQuery(status, limit));
  if (isPending) return <p className="muted">Loading payouts…</p>;
  if (error && !data) return <p className="error" role="alert">The payouts could not be loaded: {error.message}</p>;
  if (data.data.length === 0) {
    return <p className="muted">{status === 'all' ? 'No payouts yet. Send one with the form.' : `No ${status} payouts.`}</p>;
  }
  return (
    <table className="table" aria-label="Payouts">
      <thead>
        <tr>
          <th scope="col">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Account</th>
          <th scope="col">Created</th>
          <th scope="col">Payout</th>
        </tr>
      </thead>
      <tbody>
        {data.data.map((p) => (
          <tr key={p.id} data-testid="payout-row" data-payout-id={p.id} data-status={p.status}>
            <td>{formatMoney(p.amount, p.currency)}</td>
            <td>
              <span className={`status status-${p.status}`}>{p.status}</span>
              {p.failure_code && <span className="muted"> ({p.failure_code})</span>}
            </td>
            <td>
              {p.bank_code} •••• {p.account_last4}
            </td>
            <td>{formatTime(p.created_at)}</td>
            <td>
              <Link href={`/payouts/${p.id}`}>Details</Link>
            </td>
          </tr>
        ))}
      </tbody>
      {data.has_more && (
        <tfoot>
          <tr>
            <td colSpan={5} className="muted">
              Showing the newest {data.data.length}.
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
