import Link from 'next/link';
import type { BalanceTransaction } from '@/lib/contract';
import { formatMoney, formatTime } from '@/lib/format';
import { EmptyState } from './empty-state';
import { TableScroll } from './table-scroll';

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
    <TableScroll label="Latest payments table">
      <table className="table" aria-label="Latest payments">
        <thead>
          <tr>
            <th scope="col">Amount</th>
            <th scope="col">Paid</th>
            <th scope="col">Checkout session</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((t) => (
            <tr key={t.id} data-testid="payment-row" data-session-id={t.source} data-amount={t.amount}>
              <td>{formatMoney(t.amount, t.currency)}</td>
              <td>{formatTime(t.created_at)}</td>
              <td>
                <Link href={`/checkout-sessions/${t.source}`}>{t.source}</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
