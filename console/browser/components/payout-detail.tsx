'use client';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { payoutQuery } from '@/console/browser/queries/queries';
import type { Payout } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { ErrorText } from './error-text';
import { Time } from './time-zone';

/** One payout; polls until it has settled, then has the server render the page's timeline again. */
export function PayoutDetail({ id, initial }: { id: string; initial: Payout }) {
  const router = useRouter();
  const { data: p, error, isPending } = useQuery({ ...payoutQuery(id), initialData: initial });
  // Settled, or decided (approved, rejected, expired) while this page was open: the server renders the timeline again.
  const settledHere =
    p !== undefined && p.status !== initial.status && (initial.status === 'pending' || initial.status === 'awaiting_approval');
  useEffect(() => {
    if (settledHere) router.refresh();
  }, [settledHere, router]);
  if (isPending) return <p className="muted">Loading the payout…</p>;
  if (error && !p)
    return (
      <p className="error" role="alert">
        The payout could not be loaded: <ErrorText error={error} />
      </p>
    );
  return (
    <section className="card" aria-label="Payout details">
      <dl className="details">
        <dt>Status</dt>
        <dd>
          <span className={`status status-${p.status}`} data-testid="payout-status">
            {p.status}
          </span>
          {p.status === 'pending' && <span className="muted"> (settling; this page updates by itself)</span>}
        </dd>
        <dt>Amount</dt>
        <dd>{formatMoney(p.amount, p.currency)}</dd>
        <dt>Account</dt>
        <dd>
          {p.bank_code} •••• {p.account_last4}
        </dd>
        <dt>Account holder</dt>
        <dd data-testid="account-holder">{p.account_holder_name ?? <span className="muted">unknown (no such account)</span>}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={p.created_at} />
        </dd>
        {p.settled_at && (
          <>
            <dt>Settled</dt>
            <dd>
              <Time iso={p.settled_at} />
            </dd>
          </>
        )}
        {p.failure_code && (
          <>
            <dt>Failure reason</dt>
            <dd data-testid="failure-reason">
              <code>{p.failure_code}</code>: {p.failure_message}
              <br />
              <span className="muted">The amount was returned to the available balance.</span>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
