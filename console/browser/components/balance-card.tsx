'use client';
import { useQuery } from '@tanstack/react-query';
import { balanceQuery } from '@/console/browser/queries/queries';
import { formatMoney } from '@/lib/format';
import { ErrorText } from './error-text';

export function BalanceCard() {
  const { data, error, isPending, refetch } = useQuery(balanceQuery());
  return (
    <section className="card" aria-labelledby="balance-heading">
      <h2 id="balance-heading">Balance</h2>
      {isPending && <p className="muted">Loading the balance…</p>}
      {error && !data && (
        <p className="error" role="alert">
          The balance could not be loaded: <ErrorText error={error} />{' '}
          <button type="button" className="link" onClick={() => refetch()}>
            Try again
          </button>
        </p>
      )}
      {data && (
        <dl className="balance">
          <div>
            <dt>Available</dt>
            <dd className="amount" data-testid="available" data-amount={data.available}>
              {formatMoney(data.available, data.currency)}
            </dd>
          </div>
          <div>
            <dt>On its way out in pending payouts</dt>
            <dd data-testid="pending-payouts" data-amount={data.pending_payouts}>
              {formatMoney(data.pending_payouts, data.currency)}
            </dd>
          </div>
          {data.pending_refunds > 0 && (
            <div>
              <dt>On its way back to customers in pending refunds</dt>
              <dd data-testid="pending-refunds" data-amount={data.pending_refunds}>
                {formatMoney(data.pending_refunds, data.currency)}
              </dd>
            </div>
          )}
          {data.awaiting_approval > 0 && (
            <div>
              <dt>Held for payouts awaiting approval</dt>
              <dd data-testid="awaiting-approval" data-amount={data.awaiting_approval}>
                {formatMoney(data.awaiting_approval, data.currency)}
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
