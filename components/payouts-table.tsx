import Link from 'next/link';
import { createdByLabel, formatMoney, formatTime } from '@/lib/format';
import type { Payout } from '@/lib/contract';
import { TableScroll } from './table-scroll';

/** Payouts as given (newest first), one row each, with an optional note under them. */
export function PayoutsTable({ payouts, note }: { payouts: Payout[]; note?: string }) {
  return (
    <TableScroll label="Payouts table">
    <table className="table" aria-label="Payouts">
      <thead>
        <tr>
          <th scope="col">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Account</th>
          <th scope="col">Created</th>
          <th scope="col">Created by</th>
          <th scope="col">Payout</th>
        </tr>
      </thead>
      <tbody>
        {payouts.map((p) => (
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
            <td data-testid="created-by">{createdByLabel(p.created_by)}</td>
            <td>
              <Link href={`/payouts/${p.id}`}>Details</Link>
            </td>
          </tr>
        ))}
      </tbody>
      {note && (
        <tfoot>
          <tr>
            <td colSpan={6} className="muted">
              {note}
            </td>
          </tr>
        </tfoot>
      )}
    </table>
    </TableScroll>
  );
}
